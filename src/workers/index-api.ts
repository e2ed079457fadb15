/**
 * The index worker's API: exact-duplicate grouping by content hash, the all-pairs search over the
 * distinct texts with the permuted-table index (src/core/index), and near-duplicate grouping, all
 * off the main thread. Inputs are copies of the scan's arrays; outputs are transferred. The work itself
 * is core's (core/groups/exact-duplicates.ts, core/index/candidate-search.ts,
 * core/groups/near-duplicate-grouping.ts); this file moves the buffers.
 */
import { transfer } from 'comlink';
import { buildIndex, type PermutedIndex } from '../core/index/permuted-index.ts';
import { candidatesFromPairs } from '../core/index/external-pairs.ts';
import { searchCandidates, withKnown } from '../core/index/candidate-search.ts';
import { exactDuplicates, type DuplicateSearchInput, type DuplicateSearchResult, type ExactDuplicates } from '../core/groups/exact-duplicates.ts';
import { groupNearDuplicates, type GroupingInput, type GroupingResult } from '../core/groups/near-duplicate-grouping.ts';
import { pairsApi } from './pairs-api.ts';
import { candidateBuffers, candidateSearchApi } from './candidate-search-api.ts';
import { mergeDocumentFrequencies, type DocumentFrequencies } from '../core/simhash/document-frequencies.ts';
import type { DuplicateRelation } from '../core/groups/duplicate-relation.ts';
import type { ContainedRelation, ContainmentCandidates, ContainmentOptions, PassageSamples } from '../core/groups/contained-pairs.ts';
import { containmentCandidates } from '../core/groups/containment-candidates.ts';
import { pairsCsvBytes } from '../core/export/pairs-csv-bytes.ts';
import { buildCsvAfterGrouping, holdCsvPaths, takeCsv } from './pairs-csv-ahead.ts';

/** The buffers of an exact grouping's arrays (the docs' columns included), to transfer them. */
function exactBuffers(exact: Omit<ExactDuplicates, 'repHi' | 'repLo'>): ArrayBuffer[] {
  const { status, hi, lo, words, representative, exactGroups, reps } = exact;
  return [status.buffer, hi.buffer, lo.buffer, words.buffer, representative.buffer, exactGroups.start.buffer, exactGroups.members.buffer, reps.buffer] as ArrayBuffer[];
}

/** The index worker's API object (exposed as-is by `index.worker.ts`). */
export const indexApi = {
  /**
   * Groups exact duplicates and searches candidate pairs (within k) among distinct texts.
   * `onPhase` (a comlink proxy, optional) hears 'indexing'.
   */
  async findDuplicates(input: DuplicateSearchInput, onPhase?: (phase: 'indexing') => void): Promise<DuplicateSearchResult> {
    const { repHi, repLo, ...exact } = exactDuplicates(input);
    const { reps, hi, lo } = exact;
    void onPhase?.('indexing');
    const t1 = performance.now();
    const external = input.external ? candidatesFromPairs(input.external, exact.representative, hi, lo) : null;
    const found = external
      ? withKnown(external.candidates, input.k, input.known)
      : searchCandidates({ reps, hi: repHi, lo: repLo, k: input.k, blocks: input.blocks, known: input.known, ...(input.queries ? { queries: input.queries } : {}) });
    const result: DuplicateSearchResult = {
      ...exact,
      ...found,
      pairsMs: performance.now() - t1,
      ...(external ? { mismatched: external.mismatched } : {}),
    };
    return transfer(result, [...exactBuffers(exact), ...candidateBuffers(found)]);
  },

  /**
   * `findDuplicates` without the search: exact groups and the representatives with their
   * fingerprints, for a candidate search split over several workers (scan/split-search.ts).
   */
  groupExactDuplicates(input: Omit<DuplicateSearchInput, 'external' | 'known' | 'queries'>): ExactDuplicates {
    const exact = exactDuplicates(input);
    return transfer(exact, [...exactBuffers(exact), exact.repHi.buffer, exact.repLo.buffer] as ArrayBuffer[]);
  },

  /** Pairs of a range of the tables (pairs-api.ts): this worker's part of a search split by tables. */
  pairsForTables: pairsApi.pairsForTables,

  /** Sums the ingest workers' document-frequency tables (TF-IDF first pass). */
  mergeFrequencies(parts: DocumentFrequencies[]): DocumentFrequencies {
    const df = mergeDocumentFrequencies(parts);
    return transfer(df, [df.keys.buffer, df.counts.buffer]);
  },

  /** Builds the permuted tables kept in IndexedDB for one-fingerprint queries (persistence), off the main thread. */
  buildTables(input: { hi: Uint32Array; lo: Uint32Array; k: number; blocks: number }): PermutedIndex {
    const index = buildIndex(input.hi, input.lo, input.k, { blocks: input.blocks });
    const buffers = [index.hi.buffer, index.lo.buffer];
    for (const t of index.tables) buffers.push(t.keyHi.buffer, t.keyLo.buffer, t.docs.buffer);
    return transfer(index, buffers as ArrayBuffer[]);
  },

  /** The candidate search alone (a regroup at a new k): pairs of `reps` within k, known Jaccards attached. */
  searchCandidates: candidateSearchApi.searchCandidates,

  /**
   * Decides near-duplicates and groups them: candidates with exact Jaccard >= threshold, plus the
   * short-document join (short documents are decided by exact Jaccard only, never by fingerprint);
   * reference-centred groups, or connected components (with the groups that still need a chaining check).
   */
  groupNearDuplicates(input: GroupingInput): GroupingResult {
    const out = groupNearDuplicates(input);
    if (input.csvAhead) {
      buildCsvAfterGrouping(out.relation);
      return out;
    }
    return transfer(out, [...relationBuffers(out.relation), out.short.buffer, out.unchecked.buffer] as ArrayBuffer[]);
  },

  /** The paths of the next grouping's pairs CSV (pairs-csv-ahead.ts), sent while this worker waits for verification. */
  holdPairsCsvPaths(paths: readonly string[]): void {
    holdCsvPaths(paths);
  },

  /** The pairs CSV built after the last grouping asked for it (`csvAhead`), or null. */
  takePairsCsv(): Uint8Array[] | null {
    const chunks = takeCsv();
    return chunks ? transfer(chunks, chunks.map((c) => c.buffer as ArrayBuffer)) : null;
  },

  /**
   * The pairs CSV (no rows left out) as UTF-8 chunks (core/export/pairs-csv-bytes.ts), built off
   * the caller's thread: `simsift scan` writes its cache meanwhile. Names must be well-formed text.
   */
  pairsCsvBytes(relation: DuplicateRelation, paths: readonly string[], contained?: ContainedRelation): Uint8Array[] {
    const chunks = pairsCsvBytes(relation, paths, contained);
    return transfer(chunks, chunks.map((c) => c.buffer as ArrayBuffer));
  },

  /**
   * The containment search's candidates (core/groups/containment-candidates.ts) over `n` documents' sampled
   * passages: pairs whose passages say one may lie in the other, sorted by (inner, outer); `sizes`: the
   * documents' feature-set sizes where known (0 elsewhere).
   */
  containmentCandidates(input: { n: number; passages: PassageSamples; options: ContainmentOptions; sizes?: Uint32Array }): ContainmentCandidates {
    const { candidates } = containmentCandidates(input.n, input.passages, input.options, input.sizes);
    return transfer(candidates, [candidates.inner.buffer, candidates.outer.buffer] as ArrayBuffer[]);
  },
};

/** Every buffer of a relation (its verified pairs and groups included), to transfer it whole. */
export function relationBuffers(r: DuplicateRelation): ArrayBufferLike[] {
  const g = r.groups;
  const v = r.verified;
  return [
    ...new Set([
      r.classOf.buffer, r.classOffsets.buffer, r.classMembers.buffer, r.graphOffsets.buffer, r.graphNeighbour.buffer, r.graphEdge.buffer,
      r.identical.buffer, r.exactGroup.buffer, r.outside.buffer,
      v.a.buffer, v.b.buffer, v.distance.buffer, v.jaccard.buffer,
      g.groupOf.buffer, g.offsets.buffer, g.members.buffer, g.reference.buffer, g.jaccardToReference.buffer, g.distanceToReference.buffer,
    ]),
  ];
}


export type IndexApi = typeof indexApi;
