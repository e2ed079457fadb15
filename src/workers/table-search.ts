/**
 * The caller's side of the all-pairs search split by tables (core `allPairsForTables`): one
 * consecutive range of a layout's tables per worker, each worker running `pairsForTables`
 * (pairs-api.ts), the fingerprints and the pair limit shared where memory can be. Used by the scan's
 * candidate search (scan/split-search.ts) and by `simsift pairs --threads` (cli/pairs-threads.ts).
 */
import { splitTables } from '../core/index/all-pairs.ts';
import { blockLayout } from '../core/index/block-layout.ts';
import { joinClaimedPairs, tableRuns } from '../core/index/claimed-runs.ts';
import { PairLimitError, mergeSortedPairs, type PairLimit, type PairList } from '../core/index/pair-list.ts';
import { canShareMemory } from './claimed-hashes.ts';
import type { ClaimedRunsPairs, ClaimedRunsRequest, TableRangePairs, TableRangeRequest } from './pairs-api.ts';

/** Runs one range of tables on a worker; `part` numbers the ranges from 0, in table order. */
export type TableRangeRunner = (request: TableRangeRequest, part: number) => Promise<TableRangePairs>;

/** The ranges' pairs in table order (their concatenation is `allPairs`' result) and each worker's seconds. */
export interface TableSearchParts {
  parts: PairList[];
  seconds: number[];
}

/**
 * All pairs within k of (hi, lo) at `blocks` blocks, over `parts` consecutive table ranges run by
 * `run` at once: concatenated in order, the parts equal `allPairs(hi, lo, k, { blocks })` pair for
 * pair. Where memory can be shared (Node, a cross-origin isolated page) the fingerprints go into one
 * SharedArrayBuffer and `limit` bounds the parts' sum through one counter; otherwise each call gets a
 * copy and each part its share of the limit. Rejects with a `PairLimitError` past the limit.
 */
export async function searchTableRanges(
  run: TableRangeRunner,
  parts: number,
  hi: Uint32Array,
  lo: Uint32Array,
  k: number,
  blocks: number,
  limit?: number,
): Promise<TableSearchParts> {
  const share = canShareMemory();
  const bounds = splitTables(blockLayout(k, blocks).tables.length, parts);
  const count = bounds.length - 1;
  const fingerprints = share ? toShared(hi, lo) : { hi, lo };
  const pairLimit: PairLimit | undefined =
    limit === undefined ? undefined : share ? { limit, shared: new Int32Array(new SharedArrayBuffer(4)) } : { limit: Math.ceil(limit / count) };
  const seconds: number[] = [];
  const found: Promise<PairList>[] = [];
  for (let p = 0; p < count; p++) {
    const request: TableRangeRequest = { ...fingerprints, k, blocks, firstTable: bounds[p], endTable: bounds[p + 1], ...(pairLimit ? { limit: pairLimit } : {}) };
    found.push(
      run(request, p).then(
        ({ seconds: s, ...pairs }) => {
          seconds[p] = s;
          return pairs;
        },
        (error: unknown) => {
          // comlink carries a thrown error's name and message, not its class.
          throw limit !== undefined && error instanceof Error && error.name === 'PairLimitError' ? new PairLimitError(limit) : error;
        },
      ),
    );
  }
  return { parts: await Promise.all(found), seconds };
}

/**
 * A claimed search's pairs (`allPairs`' result, pair for pair), and each thread's seconds and tables,
 * the caller's first; only the caller's when it took every run (the workers were not waited for).
 */
export interface ClaimedSearch {
  pairs: PairList;
  seconds: number[];
  tables: number[];
}

/**
 * All pairs within k of (hi, lo) at `blocks` blocks, the layout's runs of tables claimed by the threads
 * as they get to them (shared memory only: Node, a cross-origin isolated page): `workers` sends the
 * search to every worker first (their answers, one each), then `here` searches on the calling thread.
 * When the caller took every run, the workers are not waited for (one still loading its code then
 * finds nothing left to claim).
 * Rejects with a `PairLimitError` once the threads together pass `limit`. With `sort`, each thread
 * sorts its own pairs and they are merged: the pairs come sorted by (a, b), as `sortPairs` sorts them.
 */
export async function searchClaimedRuns(
  here: (request: ClaimedRunsRequest) => ClaimedRunsPairs,
  workers: (request: ClaimedRunsRequest) => Promise<ClaimedRunsPairs[]>,
  hi: Uint32Array,
  lo: Uint32Array,
  k: number,
  blocks: number,
  limit?: number,
  sort = false,
): Promise<ClaimedSearch> {
  const layout = blockLayout(k, blocks);
  const runs = tableRuns(layout);
  const tablesOf = (p: ClaimedRunsPairs) => p.taken.reduce((sum, r) => sum + runs[r + 1] - runs[r], 0);
  const request: ClaimedRunsRequest = {
    ...toShared(hi, lo),
    k,
    blocks,
    next: new Int32Array(new SharedArrayBuffer(4)),
    ...(limit === undefined ? {} : { limit: { limit, shared: new Int32Array(new SharedArrayBuffer(4)) } }),
    ...(sort ? { sort } : {}),
  };
  const asLimitError = (error: unknown) => {
    // comlink carries a thrown error's name and message, not its class.
    throw limit !== undefined && error instanceof Error && error.name === 'PairLimitError' ? new PairLimitError(limit) : error;
  };
  const pending = workers(request).catch(asLimitError);
  // A worker's failure is reported by the await below, or not at all when its answer is not needed.
  pending.catch(() => undefined);
  const mine = here(request);
  if (mine.taken.length === runs.length - 1) return { pairs: mine.pairs, seconds: [mine.seconds], tables: [tablesOf(mine)] };
  const theirs = await pending;
  const all = [mine, ...theirs];
  const pairs = sort ? mergeSortedPairs(all.map((p) => p.pairs)) : joinClaimedPairs(all, runs.length - 1);
  return { pairs, seconds: all.map((p) => p.seconds), tables: all.map(tablesOf) };
}

/** The fingerprints in one SharedArrayBuffer (hi then lo), copied once unless they already are. */
function toShared(hi: Uint32Array, lo: Uint32Array): { hi: Uint32Array; lo: Uint32Array } {
  if (hi.buffer instanceof SharedArrayBuffer && lo.buffer instanceof SharedArrayBuffer) return { hi, lo };
  const n = hi.length;
  const buffer = new SharedArrayBuffer(8 * n);
  const sHi = new Uint32Array(buffer, 0, n);
  const sLo = new Uint32Array(buffer, 4 * n, n);
  sHi.set(hi);
  sLo.set(lo);
  return { hi: sHi, lo: sLo };
}
