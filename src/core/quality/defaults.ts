/**
 * The detection-quality defaults SimSift ships with, chosen from `npm run bench -- quality`
 * (bench/quality.bench.ts); the CLI and the app read them from here so both answer the same.
 */
import { searchNanoseconds } from '../index/search-cost.ts';

/** Two documents are near-duplicates when the exact Jaccard of their feature sets is at least this. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

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

/**
 * The chance that two documents at Jaccard `jaccard` get fingerprints within k bits, by the binomial
 * model of SimHash bits: for binary features of two sets of one size, cosine = 2J / (1 + J); each of
 * the 64 bits differs with probability angle / pi (Charikar), independently, so the distance is
 * Binomial(64, angle / pi).
 */
export function binomialRecall(k: number, jaccard: number): number {
  const cosine = (2 * jaccard) / (1 + jaccard);
  const p = Math.acos(Math.min(1, cosine)) / Math.PI;
  let term = (1 - p) ** 64; // P(D = 0)
  let sum = 0;
  for (let d = 0; d <= Math.min(k, 64); d++) {
    sum += term;
    term *= ((64 - d) / (d + 1)) * (p / (1 - p));
  }
  return Math.min(1, sum);
}

/** The real-text measurement at k (CANDIDATE_RECALL_AT_K; all pairs from 17 up), or undefined below the measured ks. */
function measuredRecall(k: number): number | undefined {
  return k >= 17 ? 1 : CANDIDATE_RECALL_AT_K[k];
}

/**
 * The expected recall at k for pairs at Jaccard 0.8-0.9, shown by the app and the CLI: the lower of
 * the binomial model (the mean of `binomialRecall` at Jaccard 0.8 and 0.85, the band's lower half,
 * where its misses are) and the real-text measurement (CANDIDATE_RECALL_AT_K). The measurement alone
 * promised more than a mixed corpus gave (0.987 shown at k = 13, 96.5% found); the model holds on any
 * text whose features behave as independent bits, and one corpus cannot vouch for every other. Below
 * the measured ks the model alone (not 0: the page said "0.0% found" at k = 7, where the model gives 32%).
 */
export function expectedRecall(k: number): number {
  const model = (binomialRecall(k, 0.8) + binomialRecall(k, 0.85)) / 2;
  return Math.min(model, measuredRecall(k) ?? model);
}

/** The share of a band's pairs a k should find for the page and the CLI to call a similarity reachable. */
export const RECALL_TARGET = 0.95;

/** The band of Jaccard the recall is stated for: from the chosen similarity up 0.1 (at most 1). */
function bandTop(similarity: number): number {
  return Math.min(1, Math.round((similarity + 0.1) * 1000) / 1000);
}

/**
 * The expected recall at k for the pairs at Jaccard [similarity, similarity + 0.1), the band next to the
 * threshold where the misses are: the binomial model's mean at the band's lower half (similarity and
 * similarity + 0.05); at 0.8, where the real-text bench measured it, the lower of the two (expectedRecall).
 */
export function expectedRecallAt(k: number, similarity: number): number {
  if (Math.abs(similarity - 0.8) < 1e-9) return expectedRecall(k);
  return (binomialRecall(k, similarity) + binomialRecall(k, Math.min(1, similarity + 0.05))) / 2;
}

/** The smallest k (up to `maxK`) whose expected recall at `similarity` reaches `target`; null when none does. */
export function kForRecall(similarity: number, target = RECALL_TARGET, maxK = 64): number | null {
  for (let k = 0; k <= maxK; k++) if (expectedRecallAt(k, similarity) >= target) return k;
  return null;
}

/**
 * The page's sentence on recall at k for the chosen similarity, and, when k finds less than
 * RECALL_TARGET of that band, the k that would (with `maxK`, the largest k the caller searches: a k
 * beyond it is named as the CLI's).
 */
export function describeRecall(k: number, similarity: number, options: { maxK?: number } = {}): string {
  const recall = expectedRecallAt(k, similarity);
  const measured = Math.abs(similarity - 0.8) < 1e-9 && measuredRecall(k) !== undefined;
  let text =
    `At k = ${k}, about ${(recall * 100).toFixed(1)}% of the pairs at Jaccard ${similarity}–${bandTop(similarity)} are found ` +
    `(more of the pairs above; ${measured ? 'the lower of the SimHash model and a measurement on real text' : 'the SimHash model'}).`;
  if (recall < RECALL_TARGET) {
    const reach = kForRecall(similarity);
    text += ` k = ${k} cannot reach similarity ${similarity}: `;
    if (reach === null) text += `no k finds ${RECALL_TARGET * 100}%.`;
    else if (options.maxK !== undefined && reach > options.maxK) text += `k = ${reach} would find ${RECALL_TARGET * 100}%, more than this page searches (${options.maxK}); simsift scan --k ${reach} does.`;
    else text += `k = ${reach} would find ${RECALL_TARGET * 100}%.`;
  }
  return text;
}

/** The CLI summary's recall note: the band's expected recall, and the --k that would reach the target when k does not. */
export function recallNote(k: number, similarity: number): string {
  const recall = expectedRecallAt(k, similarity);
  let note = `expected recall at Jaccard ${similarity}-${bandTop(similarity)}: ${recall.toFixed(3)}`;
  if (recall < RECALL_TARGET) {
    const reach = kForRecall(similarity);
    note += `; k=${k} cannot reach similarity ${similarity}` + (reach === null ? '' : `: --k ${reach} would find ${RECALL_TARGET * 100}%`);
  }
  return note;
}

/** The expected recall at Jaccard 0.8-0.9 the default k buys, whatever the corpus size. */
export const DEFAULT_RECALL = 0.99;
/**
 * The default maximum Hamming distance: the smallest k whose expected recall at Jaccard 0.8-0.9
 * (`expectedRecall`) reaches DEFAULT_RECALL. It does not follow the corpus size: a larger corpus
 * pays for the same recall with a longer search, and the summary says so when that search is most of
 * the scan (`defaultKReason`).
 */
export const DEFAULT_K = kForRecall(DEFAULT_SIMILARITY_THRESHOLD, DEFAULT_RECALL) ?? 64;
/**
 * What a scan costs per document besides the search, in nanoseconds of one core: reading,
 * fingerprinting and verifying (about 1 ms a file for `simsift scan` on real text; the app takes longer).
 */
export const SCAN_NS_PER_DOCUMENT = 1e6;
/** The share of the scan the search may take before the summary names a faster k. */
export const SEARCH_SHARE = 0.1;

/** The one-core time of the search in nanoseconds for n fingerprints within k (its cost model). */
export type SearchCost = (n: number, k: number) => number;

/**
 * The largest k below DEFAULT_K (down to 8) whose expected one-core search fits SEARCH_SHARE of the
 * scan's expected time (SCAN_NS_PER_DOCUMENT a document); null when DEFAULT_K's search already fits.
 * What the summary offers a person who would trade recall for time.
 */
export function fasterK(documents: number, searchCost: SearchCost = searchNanoseconds): number | null {
  const budget = Math.max(documents, 1) * SCAN_NS_PER_DOCUMENT * SEARCH_SHARE;
  if (searchCost(documents, DEFAULT_K) <= budget) return null;
  for (let k = DEFAULT_K - 1; k > 8; k--) if (searchCost(documents, k) <= budget) return k;
  return 8;
}

const seconds = (ns: number): string => (ns < 1e8 ? (ns / 1e9).toFixed(2) : (ns / 1e9).toFixed(1));

/**
 * One line saying why k is DEFAULT_K for this many documents (for summaries) and, when its search is
 * expected to take more than SEARCH_SHARE of the scan, that it is the bottleneck and which k is faster.
 */
export function defaultKReason(documents: number, searchCost: SearchCost = searchNanoseconds): string {
  const k = DEFAULT_K;
  const ns = searchCost(documents, k);
  let line = `k=${k} by default: the smallest k whose expected recall at Jaccard 0.8-0.9 reaches ${DEFAULT_RECALL} (${expectedRecall(k).toFixed(3)}); search about ${seconds(ns)} s on one core`;
  const faster = fasterK(documents, searchCost);
  if (faster !== null) {
    const rest = Math.max(documents, 1) * SCAN_NS_PER_DOCUMENT;
    line += `, ${Math.round((100 * ns) / (ns + rest))}% of this scan's expected CPU: --k ${faster} searches in about ${seconds(searchCost(documents, faster))} s (expected recall ${expectedRecall(faster).toFixed(3)})`;
  }
  return line;
}


/**
 * Documents with fewer words than this are "short": a fingerprint of a few dozen features is too noisy
 * to find or vouch for their near-duplicates, so those come from an exact set-similarity join over
 * their feature sets (see groups/short-documents.ts), never from the fingerprint alone.
 */
export const SHORT_DOCUMENT_WORDS = 50;
