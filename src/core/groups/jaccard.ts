/** Exact Jaccard similarity and containment of two feature sets given as sorted, duplicate-free Uint32Arrays. */
import { intersectionSize, jaccard } from '../simhash/simhash.ts';

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
 * Whether two sets of these sizes can possibly reach `threshold`: J = |A ∩ B| / |A ∪ B| <= min / max
 * of the sizes, so a pair whose sizes differ too much is rejected without a merge. Exact in floats:
 * correctly rounded division is monotone, so the computed J (`jaccard`: common / union) is never above
 * the computed min / max, and a pair rejected here could never have been accepted (J >= threshold).
 * With threshold 0 every pair is allowed (jaccardSorted's 0 for empty sets reaches it).
 */
export function sizesAllow(sizeA: number, sizeB: number, threshold: number): boolean {
  if (threshold <= 0) return true;
  // 0 / 0 is NaN: two empty sets (J = 0 here) are rejected.
  return sizeA <= sizeB ? sizeA / sizeB >= threshold : sizeB / sizeA >= threshold;
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
