/**
 * The merge's search of only the pairs with a new member: `queryPairs` (each query against every
 * fingerprint) and the index worker's choice between it and the tables' search filtered, both equal to
 * brute force restricted to pairs with a query member.
 */
import { describe, expect, it } from 'vitest';
import { allPairsBruteForce, queryPairs } from '../../../../src/core/index/brute-force-pairs.ts';
import { searchCandidates } from '../../../../src/core/index/candidate-search.ts';
import { pairStrings, plantedSet } from './test-fingerprints.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

/** Brute force's pairs with at least one member in `isQuery`, as strings. */
function reference(hi: Uint32Array, lo: Uint32Array, isQuery: Uint8Array, k: number): string[] {
  const all = allPairsBruteForce(hi, lo, k);
  const keep = { a: [] as number[], b: [] as number[], distance: [] as number[] };
  for (let p = 0; p < all.count; p++) {
    if (!isQuery[all.a[p]!] && !isQuery[all.b[p]!]) continue;
    keep.a.push(all.a[p]!);
    keep.b.push(all.b[p]!);
    keep.distance.push(all.distance[p]!);
  }
  return pairStrings({ a: Uint32Array.from(keep.a), b: Uint32Array.from(keep.b), distance: Uint8Array.from(keep.distance), count: keep.a.length });
}

describe('pairs with a query member', () => {
  it('queryPairs equals brute force restricted to pairs with a query, for few and many queries', () => {
    for (const [share, seed] of [[0.01, 1], [0.2, 2], [1, 3]] as const) {
      const fp = plantedSet(300, 300, 8, seed);
      const rnd = mulberry32(seed);
      const isQuery = Uint8Array.from(fp.hi, () => (rnd() / 2 ** 32 < share ? 1 : 0));
      for (const k of [0, 3, 8]) expect(pairStrings(queryPairs(fp.hi, fp.lo, isQuery, k))).toEqual(reference(fp.hi, fp.lo, isQuery, k));
    }
  });

  it('the index worker gives the same candidates by either way (few queries: compared; many: the tables filtered)', () => {
    const fp = plantedSet(2000, 2000, 6, 9);
    const n = fp.hi.length;
    // Representatives are every third doc id; queries are per doc id.
    const reps = Uint32Array.from({ length: n }, (_, r) => 3 * r);
    const rnd = mulberry32(4);
    for (const share of [0.002, 0.5]) {
      const queries = new Uint8Array(3 * n);
      const isQuery = new Uint8Array(n);
      for (let r = 0; r < n; r++) if (rnd() / 2 ** 32 < share) (queries[3 * r] = 1), (isQuery[r] = 1);
      const found = searchCandidates({ reps, hi: fp.hi, lo: fp.lo, k: 6, queries });
      const want = reference(fp.hi, fp.lo, isQuery, 6).map((s) => s.replace(/^(\d+) (\d+)/, (_, a, b) => `${3 * Number(a)} ${3 * Number(b)}`));
      expect(pairStrings(found.candidates)).toEqual(want);
      expect(found.candidates.count).toBeGreaterThan(0);
    }
  });
});
