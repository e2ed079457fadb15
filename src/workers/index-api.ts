/**
 * The index worker's API: exact-duplicate grouping by content hash, the all-pairs search over the
 * distinct texts with the permuted-table index (src/core/index), and near-duplicate grouping, all
 * off the main thread. Inputs are copies of the scan's arrays; outputs are transferred.
 */
import { transfer } from 'comlink';
import { allPairs } from '../core/index/all-pairs.ts';
import { sortPairs, type PairList } from '../core/index/pair-list.ts';
import { groupExact, groupPairs, type ExactGrouping, type GroupArrays } from './duplicate-groups.ts';
import { DocStatus } from './ingest-protocol.ts';

/** What the index worker needs: the scan's per-doc arrays (`DocStatus` codes). */
export interface DuplicateSearchInput {
  status: Uint8Array;
  hi: Uint32Array;
  lo: Uint32Array;
  words: Uint32Array;
  hashHi: Uint32Array;
  hashLo: Uint32Array;
  k: number;
  /** Block count m for the permuted tables; chosen automatically when absent. */
  blocks?: number;
}

/** Exact groups, near pairs and near groups over doc ids. */
export interface DuplicateSearchResult {
  /** The input arrays with every `copy` resolved to its original's status, fingerprint and words. */
  status: Uint8Array;
  hi: Uint32Array;
  lo: Uint32Array;
  words: Uint32Array;
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

const { ok: OK, tooShort: TOO_SHORT, copy: COPY } = DocStatus;

/** Restricts an exact grouping to docs whose (resolved) status is ok. */
function groupExactOk(grouped: ExactGrouping, status: Uint8Array): ExactGrouping {
  const representative = grouped.representative.slice();
  for (let i = 0; i < representative.length; i++) if (status[i] !== OK) representative[i] = -1;
  let kept = 0;
  for (const rep of grouped.distinct) if (status[rep] === OK) kept++;
  const distinct = new Uint32Array(kept);
  kept = 0;
  for (const rep of grouped.distinct) if (status[rep] === OK) distinct[kept++] = rep;
  // All members of a group share one text, hence one status: keep or drop whole groups.
  const g = grouped.groups;
  const start: number[] = [0];
  const members: number[] = [];
  for (let k = 0; k < g.count; k++) {
    if (status[g.members[g.start[k]]] !== OK) continue;
    for (let m = g.start[k]; m < g.start[k + 1]; m++) members.push(g.members[m]);
    start.push(members.length);
  }
  return { representative, distinct, groups: { start: Uint32Array.from(start), members: Uint32Array.from(members), count: start.length - 1 } };
}

/** The index worker's API object (exposed as-is by `index.worker.ts`). */
export const indexApi = {
  /**
   * Groups exact duplicates, searches near pairs among distinct texts, groups them.
   * `onPhase` (a comlink proxy, optional) hears 'indexing' then 'grouping'.
   */
  async findDuplicates(input: DuplicateSearchInput, onPhase?: (phase: 'indexing' | 'grouping') => void): Promise<DuplicateSearchResult> {
    const t0 = performance.now();
    const { status, hi, lo, words } = input;
    const n = status.length;
    // Fingerprinted docs (ok, too short) are preferred representatives; copies take their results.
    const include = new Uint8Array(n);
    for (let i = 0; i < n; i++) include[i] = status[i] === OK || status[i] === TOO_SHORT ? 2 : status[i] === COPY ? 1 : 0;
    const grouped = groupExact(input.hashHi, input.hashLo, include);
    for (let i = 0; i < n; i++) {
      if (status[i] !== COPY) continue;
      const rep = grouped.representative[i];
      // A copy whose original never finished (a cancelled scan) stays a copy.
      if (rep === i || status[rep] === COPY) continue;
      status[i] = status[rep];
      hi[i] = hi[rep];
      lo[i] = lo[rep];
      words[i] = words[rep];
    }
    // Exact groups and distinct texts count fingerprinted (ok) docs only.
    const exact = groupExactOk(grouped, status);
    const reps = exact.distinct;
    const repHi = new Uint32Array(reps.length);
    const repLo = new Uint32Array(reps.length);
    for (let r = 0; r < reps.length; r++) {
      repHi[r] = hi[reps[r]];
      repLo[r] = lo[reps[r]];
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
    const near = groupPairs(n, pairs);
    const t3 = performance.now();
    const result: DuplicateSearchResult = {
      status,
      hi,
      lo,
      words,
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
      status.buffer,
      hi.buffer,
      lo.buffer,
      words.buffer,
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
