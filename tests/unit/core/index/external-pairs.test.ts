import { describe, expect, it } from 'vitest';
import { candidatesFromPairs, matchPairsByPath } from '../../../../src/core/index/external-pairs.ts';
import type { PairList } from '../../../../src/core/index/pair-list.ts';

const list = (rows: Array<[number, number, number]>): PairList => ({
  a: Uint32Array.from(rows, (r) => r[0]),
  b: Uint32Array.from(rows, (r) => r[1]),
  distance: Uint8Array.from(rows, (r) => r[2]),
  count: rows.length,
});
const rowsOf = (p: PairList) => Array.from({ length: p.count }, (_, i) => [p.a[i], p.b[i], p.distance[i]]);

describe('matchPairsByPath', () => {
  const docs = new Map([
    ['a.txt', 0],
    ['b.txt', 1],
    ['sub/c.txt', 2],
  ]);
  const docOf = (p: string) => docs.get(p) ?? -1;

  it('gives doc ids in the file order, distances as given', () => {
    const m = matchPairsByPath({ pathA: ['sub/c.txt', 'a.txt'], pathB: ['a.txt', 'b.txt'], distance: [4, 0] }, docOf);
    expect(rowsOf(m.pairs)).toEqual([
      [2, 0, 4],
      [0, 1, 0],
    ]);
    expect(m.missing).toEqual({ count: 0, examples: [] });
  });

  it('counts each missing path once and leaves its pairs out', () => {
    const pathA = ['a.txt', 'x.txt', 'x.txt', 'y.txt'];
    const pathB = ['b.txt', 'a.txt', 'y.txt', 'b.txt'];
    const m = matchPairsByPath({ pathA, pathB, distance: [1, 2, 3, 4] }, docOf);
    expect(rowsOf(m.pairs)).toEqual([[0, 1, 1]]);
    expect(m.missing).toEqual({ count: 2, examples: ['x.txt', 'y.txt'] });
  });
});

describe('candidatesFromPairs', () => {
  // Docs 0 and 3 are exact copies (representative 0); doc 4 has no fingerprint.
  const representative = Int32Array.from([0, 1, 2, 0, -1]);
  const hi = Uint32Array.from([0, 0, 0, 0, 0]);
  const lo = Uint32Array.from([0b0000, 0b0011, 0b1111, 0b0000, 0]);

  it('reduces document pairs to pairs of representatives, each once, sorted, a < b', () => {
    // (3, 1) is (0, 1) through the copy; (0, 3) is inside one exact class; (2, 1) comes reversed.
    const r = candidatesFromPairs(list([[2, 1, 2], [3, 1, 2], [0, 1, 2], [0, 3, 0], [3, 2, 4]]), representative, hi, lo);
    expect(rowsOf(r.candidates)).toEqual([
      [0, 1, 2],
      [0, 2, 4],
      [1, 2, 2],
    ]);
    expect(r.mismatched.count).toBe(0);
  });

  it('leaves out and counts pairs the fingerprints contradict: another distance, or no fingerprint', () => {
    const r = candidatesFromPairs(list([[0, 1, 3], [1, 4, 0], [1, 2, 2]]), representative, hi, lo);
    expect(rowsOf(r.candidates)).toEqual([[1, 2, 2]]);
    expect(r.mismatched).toEqual({
      count: 2,
      examples: [
        { a: 0, b: 1, given: 3, actual: 2 },
        { a: 1, b: 4, given: 0, actual: -1 },
      ],
    });
  });
});
