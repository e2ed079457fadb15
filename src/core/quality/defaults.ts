/**
 * The detection-quality defaults SimSift ships with, chosen from `npm run bench -- quality`
 * (bench/quality.bench.ts); the CLI and the app read them from here so both answer the same.
 */

/**
 * Default maximum Hamming distance for candidate pairs. Exact verification supplies the precision, so
 * k is set for recall. Measured on the quality corpus (binary word3 fingerprints, verified at 0.8),
 * F1 over four seeds: k = 10: 0.959; k = 11: 0.969-0.980; k = 12: 0.980-0.990 (recall of 1%-edited
 * copies 0.998-1.000). k = 12 is the smallest k that clears F1 >= 0.97 on every seed; the 64-bit
 * distance of a pair at Jaccard 0.8 averages about 10 bits with a spread of about 3.
 */
export const DEFAULT_K = 12;

/** Two documents are near-duplicates when the exact Jaccard of their feature sets is at least this. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

/**
 * Documents with fewer words than this are "short": a fingerprint of a few dozen features is too noisy
 * to find or vouch for their near-duplicates, so those come from an exact set-similarity join over
 * their feature sets (see groups/short-documents.ts), never from the fingerprint alone.
 */
export const SHORT_DOCUMENT_WORDS = 50;
