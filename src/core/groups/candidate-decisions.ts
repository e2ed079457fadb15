/**
 * How a search decided its candidate pairs within k: the counts the page tells after the search and,
 * saved with its pairs, after a reload; or 'not known' when they were not kept (pairs saved before).
 */

/** The candidates within k and those decided without measuring their exact Jaccard. */
export interface CandidateDecisions {
  /** Candidate pairs within k this search decided (measured, ruled out by a bound, or taken from its cache). */
  candidates: number;
  /**
   * Candidates rejected by the size bound (J <= min / max of the feature-set sizes < threshold) before
   * any measuring: not measured, not remembered, decided again at the next threshold.
   */
  sizeRejected: number;
  /**
   * Candidates the size bound allowed and the MinHash sketches rejected (core/groups/minhash-sketch.ts:
   * a pair at the threshold is lost with probability below 1e-9), likewise never measured or remembered.
   */
  sketchRejected: number;
  /**
   * A merge into the saved corpus: candidates of saved documents only, decided by an earlier scan and
   * not checked again (counted in the histogram, not in `candidates`); absent elsewhere.
   */
  decidedBefore?: number;
  /**
   * Candidates that could not be measured (a file's contents not at hand: not kept after a reload, moved
   * or unreadable): neither verified nor ruled out; absent: none.
   */
  unmeasured?: number;
}

/** How the candidates were decided, or not known (a reload of pairs saved without the counts). */
export type KnownDecisions = CandidateDecisions | 'not known';

/** Just the four counts of `d` (a VerificationStats carries more), for saving with the pairs. */
export function decisionCounts(d: CandidateDecisions): CandidateDecisions {
  return {
    candidates: d.candidates,
    sizeRejected: d.sizeRejected,
    sketchRejected: d.sketchRejected,
    ...(d.decidedBefore !== undefined ? { decidedBefore: d.decidedBefore } : {}),
    ...(d.unmeasured ? { unmeasured: d.unmeasured } : {}),
  };
}
