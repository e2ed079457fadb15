/** Exact Jaccard similarity of two feature sets given as sorted, duplicate-free Uint32Arrays. */
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
