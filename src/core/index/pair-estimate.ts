/**
 * How many pairs a search within k will report, estimated before searching from a sample of the
 * fingerprints, so a command can refuse a search whose output would not fit (k = 64 on 200,000
 * fingerprints is 20 billion pairs) instead of running out of memory half way.
 */
import { hamming } from '../simhash/fingerprint64.ts';

/** Distance checks the estimate may spend (about 0.1 s in JavaScript, a few tenths in DuckDB). */
export const ESTIMATE_BUDGET = 50_000_000;

/**
 * The sampling stride for n fingerprints: every stride-th one is compared with all n. At least
 * `minSamples` samples (or all of them), at most `budget` checks beyond that. (DuckDB's bit_count
 * is ~20x slower than this file's, so its estimate passes a smaller budget.)
 */
export function estimateStride(n: number, budget = ESTIMATE_BUDGET, minSamples = 16): number {
  if (n <= 1) return 1;
  const samples = Math.min(n, Math.max(minSamples, Math.floor(budget / n)));
  return Math.max(1, Math.floor(n / samples));
}

/**
 * The estimated pair count from a sample: `sampled` fingerprints had `matches` others (of all n)
 * within k, so each fingerprint has matches / sampled on average and each pair counts twice.
 * Exact when every fingerprint was sampled.
 */
export function estimateFromSample(matches: number, sampled: number, n: number): number {
  if (sampled === 0) return 0;
  return Math.round((matches / sampled) * n / 2);
}

/** The largest pair count possible for n fingerprints: every pair. */
export function allPairCount(n: number): number {
  return n < 2 ? 0 : (n * (n - 1)) / 2;
}

/**
 * Estimated pairs within k among the fingerprints (hi[i], lo[i]), from about `budget` distance
 * checks; exact while n is small enough to check every pair.
 */
export function estimatePairCount(hi: Uint32Array, lo: Uint32Array, k: number, budget = ESTIMATE_BUDGET): number {
  const n = hi.length;
  const stride = estimateStride(n, budget);
  let matches = 0;
  let sampled = 0;
  for (let s = 0; s < n; s += stride) {
    sampled++;
    const h = hi[s];
    const l = lo[s];
    for (let j = 0; j < n; j++) {
      if (hamming(h, l, hi[j], lo[j]) <= k) matches++;
    }
    matches--; // the sample itself
  }
  return estimateFromSample(matches, sampled, n);
}
