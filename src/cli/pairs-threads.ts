/**
 * Threaded all-pairs for Node (the CLI and the benchmark): the calling thread and the app's worker pool
 * over worker threads running the pairs API (workers/pairs-api.ts), each taking a consecutive range of
 * tables, with the fingerprints in shared memory (workers/table-search.ts). The caller searches the
 * last range itself, so T threads need T - 1 workers. The result is the single-thread `allPairs`
 * result, pair for pair in the same order.
 */
import type { Remote } from 'comlink';
import { allPairsBruteForce } from '../core/index/all-pairs.ts';
import { MAX_BLOCKS, blockLayout, chooseBlocks } from '../core/index/block-layout.ts';
import { concatPairLists, createPairList, type PairList } from '../core/index/pair-list.ts';
import { pairsApi, type PairsApi, type TableRangePairs, type TableRangeRequest } from '../workers/pairs-api.ts';
import type { SpawnedWorker } from '../workers/worker-bridge.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { searchTableRanges } from '../workers/table-search.ts';
import { spawnThread } from './node-worker.ts';

/** A started pool of pair-search threads. */
export interface PairsPool {
  /** Number of threads searching: the caller and size - 1 worker threads. */
  readonly size: number;
  /** Resolves when every worker has loaded its code (startup is then out of the way). */
  readonly ready: Promise<void>;
  /** Seconds each thread spent computing in the last `allPairs` call (the caller's last; the rest is overhead). */
  readonly lastThreadSeconds: readonly number[];
  /**
   * All pairs within k (same result as `allPairs(hi, lo, k, { blocks })`); rejects with a
   * `PairLimitError` once the threads together find more than `limit` pairs, and with the signal's
   * reason when it aborts (which terminates the threads; the next call starts new ones).
   */
  allPairs(hi: Uint32Array, lo: Uint32Array, k: number, blocks?: number, limit?: number, signal?: AbortSignal): Promise<PairList>;
  /** Stops the threads. */
  close(): Promise<void>;
}

/** A pair-search thread (cli/pairs.thread.ts) with none of the parent's loader flags (tsx's CLI): thread-bootstrap.ts loads it. */
function spawnPairsThread(): SpawnedWorker {
  return spawnThread(new URL('./pairs.thread.ts', import.meta.url), { execArgv: [] });
}

/** The caller's own range, searched in place: synchronous, so the workers' ranges must be posted first. */
function searchHere(request: TableRangeRequest, signal: AbortSignal | undefined): Promise<TableRangePairs> {
  try {
    signal?.throwIfAborted();
    return Promise.resolve(pairsApi.pairsForTables(request));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Starts `size` pair-search threads (at least 1): the caller and size - 1 workers made by `spawn`
 * (worker threads by default) through the app's worker pool; each takes one range of tables per search.
 */
export function startPairsPool(size: number, spawn: () => SpawnedWorker = spawnPairsThread): PairsPool {
  const count = Math.max(1, Math.floor(size));
  const pool = count > 1 ? createWorkerPool<PairsApi>(spawn, count - 1) : null;
  // Start every worker now, so its startup (loading its code) overlaps the caller's reading.
  const ready = pool ? pool.broadcast(undefined, (api) => api.ready()).then(() => undefined) : Promise.resolve();
  // Keep a failed startup from surfacing as an unhandled rejection before anyone awaits `ready`.
  ready.catch(() => undefined);

  let lastThreadSeconds: number[] = [];

  return {
    size: count,
    ready,
    get lastThreadSeconds() {
      return lastThreadSeconds;
    },
    async allPairs(hi, lo, k, blocks, limit, signal) {
      const n = hi.length;
      if (blocks === undefined && k > MAX_BLOCKS - 1) return allPairsBruteForce(hi, lo, k, limit === undefined ? undefined : { limit });
      const m = blocks ?? chooseBlocks(n, k);
      if (n < 2) return createPairList();
      const tableCount = blockLayout(k, m).tables.length;
      // Ranges are run in table order and comlink posts a call at once, so every worker has its range
      // (queued until it has loaded) before the caller starts searching the last one.
      const found = await searchTableRanges(
        (request) =>
          request.endTable === tableCount || !pool
            ? searchHere(request, signal)
            : pool.run(signal, (api: Remote<PairsApi>) => api.pairsForTables(request)),
        count,
        hi,
        lo,
        k,
        m,
        limit,
      );
      lastThreadSeconds = found.seconds;
      return concatPairLists(found.parts);
    },
    close() {
      pool?.terminate();
      return Promise.resolve();
    },
  };
}

/** One-shot threaded all-pairs: starts `threads` threads, runs, stops them. */
export async function allPairsThreaded(
  hi: Uint32Array,
  lo: Uint32Array,
  k: number,
  options: { blocks?: number; threads: number },
): Promise<PairList> {
  const pool = startPairsPool(options.threads);
  try {
    return await pool.allPairs(hi, lo, k, options.blocks);
  } finally {
    await pool.close();
  }
}
