/** Exact Jaccard similarity of two feature sets given as sorted, duplicate-free Uint32Arrays. */
import { jaccard } from '../simhash/simhash.ts';

/** Size of the intersection of two sorted, duplicate-free sets (one merge pass, no allocation). */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  const na = a.length;
  const nb = b.length;
  while (i < na && j < nb) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return common;
}

/**
 * |A ∩ B| / |A ∪ B| of two sorted, duplicate-free sets (the fingerprinter's `jaccard`), except that an
 * empty set gives 0, not 1: a document without features says nothing about its content, so it is
 * never anyone's near-duplicate.
 */
export function jaccardSorted(a: Uint32Array, b: Uint32Array): number {
  return a.length === 0 || b.length === 0 ? 0 : jaccard(a, b);
}

/**
 * Whether two sets can possibly reach `threshold`: J <= min/max of the sizes, so a pair whose sizes
 * differ too much is rejected without a merge.
 */
export function sizesAllow(sizeA: number, sizeB: number, threshold: number): boolean {
  return sizeA <= sizeB ? sizeA >= threshold * sizeB : sizeB >= threshold * sizeA;
}

/** Sorts a Uint32Array of feature hashes and removes repeats, returning a (possibly shorter) view. */
export function toSortedSet(hashes: Uint32Array): Uint32Array {
  const sorted = hashes.slice().sort();
  let w = 0;
  for (let r = 0; r < sorted.length; r++) {
    if (r === 0 || sorted[r] !== sorted[w - 1]) sorted[w++] = sorted[r]!;
  }
  return sorted.subarray(0, w);
}
