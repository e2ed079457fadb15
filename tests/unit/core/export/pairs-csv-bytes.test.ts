import { describe, expect, it } from 'vitest';
import { relationCsvChunks } from '../../../fixtures/pairs-csv.ts';
import { PathCells, pairsCsvBytes } from '../../../../src/core/export/pairs-csv-bytes.ts';
import { buildDuplicateRelation } from '../../../../src/core/groups/duplicate-relation.ts';
import type { ContainedRelation } from '../../../../src/core/groups/contained-pairs.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const NAMES = ['a.txt', 'dir/b, "2".txt', '=evil.txt', "'quoted.txt", 'multi\nline.txt', '東京/報告.txt', 'emoji 😀.md', '-dash', '@at', 'tab\tname', 'plain/path/file.html'];

/** Jaccards where toFixed(4)'s rounding is easy to get wrong: halves of the 4th decimal, just under 1, ratios. */
const HARD = [0, 1, NaN, 0.99995, 0.999951, 0.9999994, 1 / 32, 0.00005, 0.12345, 0.5, 0.80005, 3 / 7, 2 / 3, 0.8];

function expectSame(relation: Parameters<typeof pairsCsvBytes>[0], paths: string[], contained?: ContainedRelation, skip?: Uint8Array, separated?: Uint32Array): void {
  const text = [...relationCsvChunks(relation, paths, undefined, skip, separated, contained)].join('');
  const bytes = Buffer.concat(pairsCsvBytes(relation, paths, contained, skip, separated));
  expect(bytes.toString('utf8')).toBe(text);
  expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
  // Every cell encoded before the relation is known (the index worker's CSV after grouping): the same bytes.
  expect(Buffer.concat(pairsCsvBytes(relation, new PathCells(paths).encodeAll(), contained, skip, separated)).equals(bytes)).toBe(true);
}

describe('pairsCsvBytes', () => {
  it('writes the bytes of relationCsvChunks, on random relations with hostile names and hard Jaccards', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = mulberry32(seed);
      const n = 2 + (next() % 60);
      const paths = Array.from({ length: n }, (_, d) => `${d}/${NAMES[next() % NAMES.length]}`);
      const representative = Int32Array.from({ length: n }, (_, d) => (d > 0 && next() % 5 === 0 ? next() % d : d));
      const pairs: Array<[number, number, number, number]> = [];
      for (let i = 0; i < n; i++) {
        const a = next() % n;
        const b = next() % n;
        if (a === b || representative[a] !== a || representative[b] !== b) continue;
        const j = next() % 3 === 0 ? HARD[next() % HARD.length]! : (next() % 100_000) / 100_000;
        pairs.push([Math.min(a, b), Math.max(a, b), next() % 4 === 0 ? 255 : next() % 17, j]);
      }
      const seen = new Set<string>();
      const unique = pairs.filter(([a, b]) => !seen.has(`${a},${b}`) && (seen.add(`${a},${b}`), true));
      const verified = {
        a: Uint32Array.from(unique, (p) => p[0]),
        b: Uint32Array.from(unique, (p) => p[1]),
        distance: Uint8Array.from(unique, (p) => p[2]),
        jaccard: Float32Array.from(unique, (p) => p[3]),
        count: unique.length,
      };
      const relation = buildDuplicateRelation({ count: n, representative, verified, lengths: Array.from({ length: n }, () => 10 + (next() % 100)) });
      const count = next() % 6;
      const contained: ContainedRelation = {
        count,
        inner: Uint32Array.from({ length: count }, () => next() % n),
        outer: Uint32Array.from({ length: count }, () => next() % n),
        distance: Uint8Array.from({ length: count }, () => next() % 65),
        jaccard: Float32Array.from({ length: count }, () => HARD[next() % HARD.length]!),
        containment: Float32Array.from({ length: count }, () => HARD[next() % HARD.length]!),
      } as ContainedRelation;
      expectSame(relation, paths, contained);
      // The page's export after "not a duplicate" marks: documents left out, pairs separated.
      const skip = Uint8Array.from({ length: n }, () => (next() % 7 === 0 ? 1 : 0));
      const separated = Uint32Array.from(unique.slice(0, 2).flatMap(([a, b]) => [b, a]));
      expectSame(relation, paths, contained, skip, separated);
    }
  });

  it('exact Jaccard halves round as toFixed does, and a row longer than a chunk is written whole', () => {
    // Every 4-decimal half k/20000 and its neighbours, as a Float64 would carry them.
    const values: number[] = [];
    for (let k = 1; k < 20_000; k += 2) values.push(k / 20_000, k / 20_000 + 1e-12, k / 20_000 - 1e-12);
    // The last document's name is longer than a chunk (one row holds it).
    const n = values.length + 2;
    const paths = Array.from({ length: n }, (_, d) => (d === n - 1 ? 'x'.repeat(1_100_000) : `f${d}`));
    const verified = {
      a: new Uint32Array(values.length + 1),
      b: Uint32Array.from({ length: values.length + 1 }, (_, i) => i + 1),
      distance: new Uint8Array(values.length + 1),
      jaccard: new Float32Array(values.length + 1).fill(0.9),
      count: values.length + 1,
    };
    const relation = buildDuplicateRelation({ count: n, representative: Int32Array.from({ length: n }, (_, d) => d), verified, lengths: new Array(n).fill(10) });
    // Float32 columns cannot carry the halves: the contained rows' Float64 view of them does.
    const contained = { count: values.length, inner: Uint32Array.from(values, (_, i) => i + 1), outer: new Uint32Array(values.length), distance: new Uint8Array(values.length), jaccard: Float64Array.from(values), containment: Float64Array.from(values) } as unknown as ContainedRelation;
    expectSame(relation, paths, contained);
  });

  it("writes a cell as encodeCell gives its bytes (the CLI's names with invalid UTF-8 bytes)", () => {
    const paths = ['café.txt', 'b.txt'];
    const verified = { a: Uint32Array.of(0), b: Uint32Array.of(1), distance: Uint8Array.of(2), jaccard: Float32Array.of(0.9), count: 1 };
    const relation = buildDuplicateRelation({ count: 2, representative: Int32Array.of(0, 1), verified, lengths: [10, 10] });
    const latin1 = Buffer.concat(pairsCsvBytes(relation, paths, undefined, undefined, undefined, (cell) => Buffer.from(cell, 'latin1')));
    const text = [...relationCsvChunks(relation, paths)].join('');
    // The same file with the é cell's one byte 0xE9 where UTF-8 has two.
    const expected = Buffer.from(text.replace('é', '\u0000'), 'utf8');
    expected[expected.indexOf(0)] = 0xe9;
    expect(latin1.equals(expected)).toBe(true);
  });
});
