/**
 * What `simsift pairs` loads before it knows it needs more: the modules its command file reaches by
 * static imports (type-only imports and `import()` left out). Parquet (hyparquet, hyparquet-writer) and
 * the thread pool (comlink) must be loaded only when the input, the output or the thread count asks for
 * them: each package is dozens of files for Node to resolve and compile on every start. Nor node:crypto.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Static value imports: `import x from`, `import { a } from`, `export ... from`, `import 'x'`; not `import type`. */
const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)([^'"`;]*?)\s*from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g;

/** True when every name of an import clause `{ type A, type B }` is a type. */
function onlyTypes(clause: string): boolean {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1].split(',').map((s) => s.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

/** The source files and packages `entry` reaches through static value imports. */
function staticReach(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(relative(resolve('.'), file));
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (m[1] !== undefined && onlyTypes(m[1])) continue;
      const spec = m[2] ?? m[3];
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  };
  walk(resolve(entry));
  return { files, packages };
}

describe('what `simsift pairs` loads up front', () => {
  const { files, packages } = staticReach('src/cli/pairs-command.ts');

  it('follows the command file into its modules', () => {
    expect(files).toEqual(expect.arrayContaining(['src/cli/pairs-command.ts', 'src/core/index/all-pairs.ts', 'src/cli/fingerprint-input.ts']));
  });

  it('reaches no Parquet package and no comlink (loaded by import() when Parquet or threads are asked for)', () => {
    const heavy = ['hyparquet', 'hyparquet-writer', 'comlink', '@duckdb/node-api'].filter((p) => packages.has(p));
    expect(heavy).toEqual([]);
  });

  it('reaches no text decoding or document extraction (core/text: pairs reads hex digits)', () => {
    expect(files.filter((f) => f.startsWith('src/core/text/'))).toEqual([]);
  });

  it('reaches no node:crypto (18 internal modules of Node\'s for a temporary file name)', () => {
    expect(packages.has('node:crypto')).toBe(false);
  });
});
