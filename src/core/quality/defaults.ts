/**
 * The detection-quality defaults SimSift ships with, chosen from `npm run bench -- quality`
 * (bench/quality.bench.ts); the CLI and the app read them from here so both answer the same.
 */

/**
 * Default maximum Hamming distance for candidate pairs. Verification supplies the precision, so k is
 * set for recall: see the quality benchmark's table for the measured trade-off.
 */
export const DEFAULT_K = 12;

/** Two documents are near-duplicates when the exact Jaccard of their feature sets is at least this. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

/**
 * Documents with fewer words than this are "short": their fingerprints are too noisy to decide
 * anything, so their near-duplicates come from an exact set-similarity join, never from the
 * fingerprint alone.
 */
export const SHORT_DOCUMENT_WORDS = 50;
