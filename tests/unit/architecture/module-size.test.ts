/**
 * The scan and the saved corpus stay readable (#27): no file under src/scan or src/corpus over 400
 * lines, no function there over 120 (the saved corpus was one 647-line closure with 16 `let`s).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const files = ['scan', 'corpus'].flatMap((dir) => readdirSync(join(SRC, dir)).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`));

describe('the size of the scan and saved-corpus modules', () => {
  it('no file over 400 lines', () => {
    const long = files.map((f) => [f, readFileSync(join(SRC, f), 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });

  it('no function over 120 lines', () => {
    const long: string[] = [];
    for (const f of files) {
      const source = ts.createSourceFile(f, readFileSync(join(SRC, f), 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
          const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          if (last - first + 1 > 120) long.push(`${f}:${first + 1} (${last - first + 1} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
