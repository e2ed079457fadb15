/**
 * The candidate search over distinct texts: pairs of representatives within k found with the permuted
 * tables (or query by query when that costs less), with the exact Jaccards already known attached. Pure:
 * the index worker (workers/index-api.ts) runs it and transfers the result.
 */
import { allPairs } from './all-pairs.ts';
import { queryPairs } from './brute-force-pairs.ts';
import { queryPairsCheaper } from './search-cost.ts';
import { concatPairLists, sortPairs, type KnownPairs, type PairList } from './pair-list.ts';

/** A candidate search over representatives whose fingerprints are given (`hi[r]`, `lo[r]` of `reps[r]`). */
export interface CandidateSearchInput {
  reps: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
  k: number;
  blocks?: number;
  known?: KnownPairs;
  /** Per doc id (not per rep): see DuplicateSearchInput.queries. */
  queries?: Uint8Array;
  /**
   * The tables' pairs (rep indexes), when the caller searched them in table ranges on several workers
   * (scan/split-search.ts): in table order they concatenate to `allPairs`' result at `blocks`, so only
   * the sort (and the queries' filter) is left to do here.
   */
  found?: PairList[];
}

export interface CandidateSearchResult {
  candidates: PairList;
  jaccard: Float64Array;
  histogram: Uint32Array;
}

/** Candidate pairs of representatives within k (doc ids, sorted), with known Jaccards merged in. */
export function searchCandidates(input: CandidateSearchInput): CandidateSearchResult {
  const { reps, k } = input;
  const local = reps.length >= 2 ? searchReps(input) : null;
  const count = local?.count ?? 0;
  // Representatives are ascending doc ids, so mapping keeps a < b and the (a, b) order.
  const candidates: PairList = { a: new Uint32Array(count), b: new Uint32Array(count), distance: new Uint8Array(count), count };
  for (let p = 0; p < count; p++) {
    candidates.a[p] = reps[local!.a[p]];
    candidates.b[p] = reps[local!.b[p]];
    candidates.distance[p] = local!.distance[p];
  }
  return withKnown(candidates, k, input.known);
}

/**
 * Pairs of representatives within k (rep indexes, sorted): all of them, or with `queries` those with a
 * query member, each query compared with every representative when that costs less than the tables'
 * search of all pairs (then filtered). With `found`, the tables were searched by the caller.
 */
function searchReps(input: CandidateSearchInput): PairList {
  const { reps, k, queries, found: parts } = input;
  const all = () => sortPairs(parts ? concatPairLists(parts) : allPairs(input.hi, input.lo, k, input.blocks ? { blocks: input.blocks } : {}));
  if (!queries) return all();
  const isQuery = new Uint8Array(reps.length);
  let q = 0;
  for (let r = 0; r < reps.length; r++) if (queries[reps[r]]) (isQuery[r] = 1), q++;
  if (!parts && queryPairsCheaper(q, reps.length, k)) return queryPairs(input.hi, input.lo, isQuery, k);
  const found = all();
  let kept = 0;
  for (let p = 0; p < found.count; p++) {
    if (!isQuery[found.a[p]] && !isQuery[found.b[p]]) continue;
    found.a[kept] = found.a[p];
    found.b[kept] = found.b[p];
    found.distance[kept] = found.distance[p];
    kept++;
  }
  return { a: found.a.subarray(0, kept), b: found.b.subarray(0, kept), distance: found.distance.subarray(0, kept), count: kept };
}

/**
 * Candidates (doc ids, sorted by (a, b)) with their distance histogram and the Jaccards already
 * known attached: the search's own, or pairs found outside (`DuplicateSearchInput.external`).
 */
export function withKnown(candidates: PairList, k: number, known: KnownPairs | undefined): CandidateSearchResult {
  const count = candidates.count;
  const histogram = new Uint32Array(k + 1);
  for (let p = 0; p < count; p++) histogram[candidates.distance[p]]++;
  const jaccard = new Float64Array(count).fill(Number.NaN);
  if (known && known.count > 0) {
    // Both lists are sorted by (a, b): one merge pass.
    let q = 0;
    for (let p = 0; p < count && q < known.count; p++) {
      const a = candidates.a[p];
      const b = candidates.b[p];
      while (q < known.count && (known.a[q] < a || (known.a[q] === a && known.b[q] < b))) q++;
      if (q < known.count && known.a[q] === a && known.b[q] === b) jaccard[p] = known.jaccard[q];
    }
  }
  return { candidates, jaccard, histogram };
}

