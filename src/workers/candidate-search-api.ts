/**
 * The candidate search's last step as a worker method (core/index/candidate-search.ts: the table
 * search's parts sorted into the one candidate list, known Jaccards attached), shared by the index
 * worker and the ingest workers: the scan merges on an ingest worker while the index worker searches
 * containment's candidates (scan/split-search.ts).
 */
import { transfer } from 'comlink';
import { searchCandidates, type CandidateSearchInput, type CandidateSearchResult } from '../core/index/candidate-search.ts';

/** The buffers of a candidate search's result, to transfer them. */
export function candidateBuffers(found: CandidateSearchResult): ArrayBuffer[] {
  const c = found.candidates;
  return [c.a.buffer, c.b.buffer, c.distance.buffer, found.jaccard.buffer, found.histogram.buffer] as ArrayBuffer[];
}

export const candidateSearchApi = {
  /** The candidate search alone (a regroup at a new k, or the parts of a split one): pairs of `reps` within k, known Jaccards attached. */
  searchCandidates(input: CandidateSearchInput): CandidateSearchResult {
    const found = searchCandidates(input);
    return transfer(found, candidateBuffers(found));
  },
};
