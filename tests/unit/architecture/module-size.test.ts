/**
 * The code stays readable (#27, #40): no file under src/ over 400 lines, no function over 120 (the saved
 * corpus was one 647-line closure with 16 `let`s; components were 200-line render functions). No file is exempt.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return listSources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [relative(SRC, full)] : [];
  });
}

const files = listSources(SRC);

/** Every function (declaration, method, arrow, expression) over 120 lines, as `file:name (n lines)`. */
function longFunctions(file: string): Array<{ key: string; at: string }> {
  const source = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const long: Array<{ key: string; at: string }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (last - first + 1 > 120) long.push({ key: `${file}:${name}`, at: `${file}:${first + 1} ${name} (${last - first + 1} lines)` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return long;
}

describe('the size of the modules in src/', () => {
  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files).toContain('corpus/corpus-persistence.ts');
    expect(files).toContain('app/ResultsWorkspace.tsx');
  });

  it('no file over 400 lines', () => {
    const long = files.map((f) => [f, readFileSync(join(SRC, f), 'utf8').split('\n').length] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });

  it('no function over 120 lines', () => {
    expect(files.flatMap(longFunctions).map((l) => l.at)).toEqual([]);
  });
});
