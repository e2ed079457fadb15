/** Exact Jaccard similarity and containment of two feature sets given as sorted, duplicate-free Uint32Arrays. */
import { jaccard } from '../simhash/simhash.ts';

/** Returns a document's feature set: sorted, duplicate-free hashes (may re-tokenize its text). */
export type FeatureSetSource = (doc: number) => Uint32Array;

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
  // The 1e-9 slack keeps a pair exactly at the threshold (0.55 * 100 = 55.00000000000001).
  return sizeA <= sizeB ? sizeA >= threshold * sizeB - 1e-9 : sizeB >= threshold * sizeA - 1e-9;
}

/** |A ∩ B| of two sorted, duplicate-free sets (a linear merge). */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return shared;
}

/**
 * Containment |A ∩ B| / min(|A|, |B|): how much of the smaller set lies in the larger (0 when either is
 * empty). Beside Jaccard it tells "B is A plus more" (containment near 1, Jaccard lower) from "A and B
 * differ throughout"; sets ignore multiplicity, so a text repeated ten times has containment 1 and a
 * Jaccard near 1 with its original: only the size ratio shows the repetition.
 */
export function containmentSorted(a: Uint32Array, b: Uint32Array): number {
  const smaller = Math.min(a.length, b.length);
  return smaller === 0 ? 0 : intersectionSize(a, b) / smaller;
}
