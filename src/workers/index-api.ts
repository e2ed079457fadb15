/**
 * The index worker's API: exact-duplicate grouping by content hash, the all-pairs search over the
 * distinct texts with the permuted-table index (src/core/index), and near-duplicate grouping, all
 * off the main thread. Inputs are copies of the scan's arrays; outputs are transferred.
 */
import { transfer } from 'comlink';
import { allPairs } from '../core/index/all-pairs.ts';
import { sortPairs, type PairList } from '../core/index/pair-list.ts';
import { groupExact, groupPairs, type GroupArrays } from './duplicate-groups.ts';

/** What the index worker needs: the scan's per-doc arrays (status 1 = ok). */
export interface DuplicateSearchInput {
  status: Uint8Array;
  hi: Uint32Array;
  lo: Uint32Array;
  hashHi: Uint32Array;
  hashLo: Uint32Array;
  k: number;
  /** Block count m for the permuted tables; chosen automatically when absent. */
  blocks?: number;
}

/** Exact groups, near pairs and near groups over doc ids. */
export interface DuplicateSearchResult {
  representative: Int32Array;
  exactGroups: GroupArrays;
  /** Pairs of representatives (doc ids, a < b) within k. */
  pairs: PairList;
  pairGroup: Uint32Array;
  nearGroups: GroupArrays;
  /** Worker-side milliseconds per step. */
  exactMs: number;
  pairsMs: number;
  groupMs: number;
}

const OK = 1;

/** The index worker's API object (exposed as-is by `index.worker.ts`). */
export const indexApi = {
  /**
   * Groups exact duplicates, searches near pairs among distinct texts, groups them.
   * `onPhase` (a comlink proxy, optional) hears 'indexing' then 'grouping'.
   */
  async findDuplicates(input: DuplicateSearchInput, onPhase?: (phase: 'indexing' | 'grouping') => void): Promise<DuplicateSearchResult> {
    const t0 = performance.now();
    const include = new Uint8Array(input.status.length);
    for (let i = 0; i < include.length; i++) include[i] = input.status[i] === OK ? 1 : 0;
    const exact = groupExact(input.hashHi, input.hashLo, include);
    const reps = exact.distinct;
    const repHi = new Uint32Array(reps.length);
    const repLo = new Uint32Array(reps.length);
    for (let r = 0; r < reps.length; r++) {
      repHi[r] = input.hi[reps[r]];
      repLo[r] = input.lo[reps[r]];
    }
    void onPhase?.('indexing');
    const t1 = performance.now();
    const local = reps.length >= 2 ? sortPairs(allPairs(repHi, repLo, input.k, input.blocks ? { blocks: input.blocks } : {})) : null;
    const t2 = performance.now();
    void onPhase?.('grouping');
    const count = local?.count ?? 0;
    // Representatives are ascending doc ids, so mapping keeps a < b.
    const pairs: PairList = { a: new Uint32Array(count), b: new Uint32Array(count), distance: new Uint8Array(count), count };
    for (let p = 0; p < count; p++) {
      pairs.a[p] = reps[local!.a[p]];
      pairs.b[p] = reps[local!.b[p]];
      pairs.distance[p] = local!.distance[p];
    }
    const near = groupPairs(input.status.length, pairs);
    const t3 = performance.now();
    const result: DuplicateSearchResult = {
      representative: exact.representative,
      exactGroups: exact.groups,
      pairs,
      pairGroup: near.pairGroup,
      nearGroups: near.groups,
      exactMs: t1 - t0,
      pairsMs: t2 - t1,
      groupMs: t3 - t2,
    };
    return transfer(result, [
      result.representative.buffer,
      result.exactGroups.start.buffer,
      result.exactGroups.members.buffer,
      pairs.a.buffer,
      pairs.b.buffer,
      pairs.distance.buffer,
      result.pairGroup.buffer,
      result.nearGroups.start.buffer,
      result.nearGroups.members.buffer,
    ]);
  },
};

export type IndexApi = typeof indexApi;
