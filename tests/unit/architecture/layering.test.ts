/**
 * The architecture as a test: every import in src/ follows the layering of shared/STYLE.md (imports
 * flow app -> ui -> corpus -> scan -> workers -> storage/core; core imports nothing of the app), UI feature
 * folders do not import each other, and no two files import each other in a cycle. It reads the
 * sources as text, so it needs no build and fails with the offending import named.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listSources(full));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** Every relative import (static, dynamic, `new URL(..., import.meta.url)` workers) of every source file. */
function importsOf(files: string[]): { edges: Edge[]; packages: Map<string, string[]> } {
  const edges: Edge[] = [];
  const packages = new Map<string, string[]>();
  const pattern = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"`;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const from = relative(SRC, file);
    for (const m of text.matchAll(pattern)) {
      const spec = m[3] ?? m[4] ?? m[5];
      if (!spec) continue;
      if (spec.startsWith('.')) {
        edges.push({ from, to: relative(SRC, resolve(dirname(file), spec)), typeOnly: Boolean(m[2]) });
      } else {
        const list = packages.get(from) ?? [];
        list.push(spec);
        packages.set(from, list);
      }
    }
  }
  return { edges, packages };
}

/** A path's top-level folder in src/ (or outside it: `../bin`). */
const layer = (path: string) => path.split('/').slice(0, path.startsWith('../') ? 2 : 1).join('/');
/** What each top-level folder may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  core: [],
  storage: ['core'],
  workers: ['core', 'storage'],
  scan: ['core', 'storage', 'workers'],
  // The saved corpus: it calls the scan's stages (scan-run.ts); the scan never imports or calls it.
  corpus: ['core', 'storage', 'workers', 'scan'],
  // Not storage: the UI reads and writes what is kept through the corpus (the test below names the file).
  ui: ['core', 'workers', 'scan', 'corpus'],
  app: ['core', 'storage', 'workers', 'scan', 'corpus', 'ui'],
  // The CLI's scan cache is a saved corpus: it is restored and merged by the corpus's own stages.
  // ../bin: the CLI's own build script says whether its bundle is current (thread-bootstrap.ts).
  cli: ['core', 'storage', 'workers', 'scan', 'corpus', '../bin'],
};
/**
 * Packages core may use: it runs in Node, in workers and in the browser, with no DOM, IndexedDB or comlink.
 * hyparquet-writer is pure JavaScript (its only dependency, hyparquet, too; no WASM, no Node API in
 * its browser entry), so the Parquet fingerprint export is one core module for the app and the CLI.
 */
// pdfjs-dist (legacy build) and fflate run in browsers, workers and Node alike: the document extractors (core/text/documents) use them.
// papaparse (pure JavaScript, no DOM needed for strings) reads the plan CSV back (core/export/plan.ts).
// diff (jsdiff, pure JavaScript) runs the Myers diff of the pair view's word ids (core/text/document-diff.ts).
const CORE_PACKAGES = new Set(['diff', 'xxhash-wasm', 'hyparquet-writer', 'pdfjs-dist/legacy/build/pdf.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs', 'fflate', 'papaparse']);

const files = listSources(SRC);
const { edges, packages } = importsOf(files);

describe('the layering of src/', () => {
  it('finds the imports it checks', () => {
    expect(edges.length).toBeGreaterThan(100);
  });

  it('imports only flow downwards', () => {
    const upward = edges
      .filter((e) => {
        const [a, b] = [layer(e.from), layer(e.to)];
        return a !== b && !(ALLOWED[a] ?? []).includes(b) && a !== 'main.tsx';
      })
      .map((e) => `${e.from} -> ${e.to}`);
    expect(upward).toEqual([]);
  });

  it('core uses no DOM, IndexedDB, comlink, React or Node package', () => {
    const bad: string[] = [];
    for (const [from, specs] of packages) {
      if (layer(from) !== 'core') continue;
      for (const spec of specs) if (!CORE_PACKAGES.has(spec)) bad.push(`${from} -> ${spec}`);
    }
    expect(bad).toEqual([]);
  });

  it('the UI reads and writes storage only through the corpus (no src/storage, no idb under src/ui)', () => {
    const direct = [
      ...edges.filter((e) => layer(e.from) === 'ui' && layer(e.to) === 'storage').map((e) => `${e.from} -> ${e.to}`),
      ...[...packages].filter(([from, specs]) => layer(from) === 'ui' && specs.includes('idb')).map(([from]) => `${from} -> idb`),
    ];
    expect(direct).toEqual([]);
  });

  it('the keep marks and rules stores are made by the corpus session only (the UI and app import their types)', () => {
    const made = edges.filter((e) => (layer(e.from) === 'ui' || layer(e.from) === 'app') && /^corpus\/keep-(marks|rules)-store\.ts$/.test(e.to) && !e.typeOnly);
    expect(made.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('UI feature folders do not import each other (only ui/shared)', () => {
    const cross = edges
      .filter((e) => {
        if (layer(e.from) !== 'ui' || layer(e.to) !== 'ui') return false;
        const [fa, fb] = [e.from.split('/')[1], e.to.split('/')[1]];
        return fa !== fb && fb !== 'shared';
      })
      .map((e) => `${e.from} -> ${e.to}`);
    expect(cross).toEqual([]);
  });

  it('no import cycle between files (type-only imports included)', () => {
    const graph = new Map<string, string[]>();
    for (const e of edges) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const stack: string[] = [];
    const visit = (node: string) => {
      state.set(node, 1);
      stack.push(node);
      for (const next of graph.get(node) ?? []) {
        if (state.get(next) === 1) cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(node, 2);
    };
    for (const node of graph.keys()) if (!state.has(node)) visit(node);
    expect(cycles).toEqual([]);
  });
});
