/**
 * The pair searches that compare fingerprints directly, with no tables: the reference brute force
 * over every pair (for tests, tiny corpora and distances no block layout reaches) and the search of a
 * few new documents against all the others.
 */
import { hamming } from '../simhash/fingerprint64.ts';
import { PairLimitError, sortPairs, type PairLimit, type PairList } from './pair-list.ts';

/** The fingerprint count n; throws when hi and lo differ in length or k is not in 0..64. */
export function checkSearchInput(hi: Uint32Array, lo: Uint32Array, k: number): number {
  if (hi.length !== lo.length) throw new RangeError(`hi and lo differ in length (${hi.length} vs ${lo.length})`);
  if (!Number.isInteger(k) || k < 0 || k > 64) throw new RangeError(`k must be an integer in 0..64 (got ${k})`);
  return hi.length;
}

function growPairs(a: Uint32Array, b: Uint32Array, d: Uint8Array, count: number): PairList {
  const c = Math.max(16, a.length * 2);
  const na = new Uint32Array(c);
  const nb = new Uint32Array(c);
  const nd = new Uint8Array(c);
  na.set(a.subarray(0, count));
  nb.set(b.subarray(0, count));
  nd.set(d.subarray(0, count));
  return { a: na, b: nb, distance: nd, count };
}

/**
 * The pairs within k with at least one member marked in `isQuery` (each once, a < b, sorted), by
 * comparing each query with every fingerprint: Q * n checks, far fewer than a search of all pairs when
 * a few documents are new to a large corpus whose other pairs were decided before.
 */
export function queryPairs(hi: Uint32Array, lo: Uint32Array, isQuery: Uint8Array, k: number): PairList {
  const n = checkSearchInput(hi, lo, k);
  let outA: Uint32Array = new Uint32Array(1024);
  let outB: Uint32Array = new Uint32Array(1024);
  let outD: Uint8Array = new Uint8Array(1024);
  let count = 0;
  for (let q = 0; q < n; q++) {
    if (!isQuery[q]) continue;
    const h = hi[q];
    const l = lo[q];
    for (let j = 0; j < n; j++) {
      // A pair of two queries is found once, from its first member.
      if (j === q || (isQuery[j] && j < q)) continue;
      const d = hamming(h, l, hi[j], lo[j]);
      if (d > k) continue;
      if (count === outA.length) {
        const grown = growPairs(outA, outB, outD, count);
        outA = grown.a;
        outB = grown.b;
        outD = grown.distance;
      }
      outA[count] = Math.min(q, j);
      outB[count] = Math.max(q, j);
      outD[count] = d;
      count++;
    }
  }
  return sortPairs({ a: outA.subarray(0, count), b: outB.subarray(0, count), distance: outD.subarray(0, count), count });
}

/** Reference all-pairs by comparing every pair; only sensible for small n (tests, tiny corpora). */
export function allPairsBruteForce(hi: Uint32Array, lo: Uint32Array, k: number, pairLimit?: PairLimit): PairList {
  const n = checkSearchInput(hi, lo, k);
  let outA: Uint32Array = new Uint32Array(1024);
  let outB: Uint32Array = new Uint32Array(1024);
  let outD: Uint8Array = new Uint8Array(1024);
  let count = 0;
  for (let i = 0; i < n - 1; i++) {
    const h = hi[i];
    const l = lo[i];
    for (let j = i + 1; j < n; j++) {
      const d = hamming(h, l, hi[j], lo[j]);
      if (d > k) continue;
      if (count === outA.length) {
        if (pairLimit && count > pairLimit.limit) throw new PairLimitError(pairLimit.limit);
        const grown = growPairs(outA, outB, outD, count);
        outA = grown.a;
        outB = grown.b;
        outD = grown.distance;
      }
      outA[count] = i;
      outB[count] = j;
      outD[count] = d;
      count++;
    }
  }
  if (pairLimit && count > pairLimit.limit) throw new PairLimitError(pairLimit.limit);
  return { a: outA, b: outB, distance: outD, count };
}
