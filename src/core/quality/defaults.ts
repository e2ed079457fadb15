/**
 * The detection-quality defaults SimSift ships with, chosen from `npm run bench -- quality`
 * (bench/quality.bench.ts); the CLI and the app read them from here so both answer the same.
 */

/**
 * Share of the near-duplicate pairs with exact Jaccard in [0.8, 0.9) (the hardest band, next to the
 * threshold) whose binary word-3 fingerprints are within k bits, i.e. the candidate recall the search
 * gives at k. Measured by `npm run bench -- quality-real` on real text (4,128 files: Linux kernel
 * documentation and npm package docs, 912 true pairs in that band); above the threshold band every k
 * from 13 up finds all pairs. Exact verification supplies the precision, so k is set for recall.
 */
export const CANDIDATE_RECALL_AT_K: Readonly<Record<number, number>> = {
  8: 0.629,
  9: 0.768,
  10: 0.862,
  11: 0.941,
  12: 0.966,
  13: 0.987,
  14: 0.993,
  15: 0.995,
  16: 0.998,
  17: 1,
};

/** The expected recall at k for pairs at Jaccard 0.8-0.9 (see CANDIDATE_RECALL_AT_K); 1 above 17. */
export function expectedRecall(k: number): number {
  if (k >= 17) return 1;
  return CANDIDATE_RECALL_AT_K[k] ?? 0;
}

/** The default k for corpora of up to LARGE_CORPUS documents (see `defaultK`). */
export const DEFAULT_K = 13;
/** From this many documents on, the default k drops to 12 so the search stays within minutes at 1,000,000. */
export const LARGE_CORPUS = 200_000;
/** Up to this many documents the search is cheap even at k = 16 (well under a second). */
export const SMALL_CORPUS = 10_000;

/**
 * The default maximum Hamming distance for a corpus of `documents` documents: the k whose expected
 * recall at Jaccard 0.8-0.9 is high while the search stays affordable. k = 16 (0.998) up to 10,000
 * documents; k = 13 (0.987, the smallest k with >= 0.97) up to 200,000 (`npm run bench -- pairs`:
 * 5.8 s on one thread at 100,000 fingerprints, 3.1 s on two); k = 12 (0.966) beyond, where each extra
 * bit roughly doubles a search that takes about 2 minutes at 1,000,000 and k = 12.
 */
export function defaultK(documents: number): number {
  if (documents <= SMALL_CORPUS) return 16;
  if (documents <= LARGE_CORPUS) return DEFAULT_K;
  return 12;
}

/** Two documents are near-duplicates when the exact Jaccard of their feature sets is at least this. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

/**
 * Documents with fewer words than this are "short": a fingerprint of a few dozen features is too noisy
 * to find or vouch for their near-duplicates, so those come from an exact set-similarity join over
 * their feature sets (see groups/short-documents.ts), never from the fingerprint alone.
 */
export const SHORT_DOCUMENT_WORDS = 50;
