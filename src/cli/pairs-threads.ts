/**
 * Threaded all-pairs for Node (the CLI and the benchmark): the calling thread and the app's worker pool
 * over worker threads running the pairs API (workers/pairs-api.ts), with the fingerprints in shared
 * memory. The threads claim the layout's runs of tables as they get to them (workers/table-search.ts),
 * so a worker still loading its code when the caller starts searching takes fewer, and T threads need
 * T - 1 workers. The result is the single-thread `allPairs` result, pair for pair in the same order.
 */
import { allPairsForTables } from '../core/index/all-pairs.ts';
import { allPairsBruteForce } from '../core/index/brute-force-pairs.ts';
import { MAX_BLOCKS, blockLayout } from '../core/index/block-layout.ts';
import { chooseBlocks } from '../core/index/search-cost.ts';
import { createPairList, sortPairs, type PairList } from '../core/index/pair-list.ts';
import { pairsApi, type ClaimedRunsRequest, type PairsApi } from '../workers/pairs-api.ts';
import type { SpawnedWorker } from '../workers/worker-bridge.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { searchClaimedRuns } from '../workers/table-search.ts';
import { spawnThread } from './node-worker.ts';

/** A started pool of pair-search threads. */
export interface PairsPool {
  /** Number of threads searching: the caller and size - 1 worker threads. */
  readonly size: number;
  /** Resolves when every worker has loaded its code (startup is then out of the way). */
  readonly ready: Promise<void>;
  /** Seconds each thread spent computing in the last `allPairs` call, as `lastThreadTables` lists them (the rest is overhead). */
  readonly lastThreadSeconds: readonly number[];
  /** Tables each thread searched in the last `allPairs` call, the caller's first (the caller's alone when it searched them all). */
  readonly lastThreadTables: readonly number[];
  /**
   * All pairs within k (same result as `allPairs(hi, lo, k, { blocks })`); rejects with a
   * `PairLimitError` once the threads together find more than `limit` pairs, and with the signal's
   * reason when it aborts (which terminates the threads; the next call starts new ones).
   */
  allPairs(hi: Uint32Array, lo: Uint32Array, k: number, blocks?: number, limit?: number, signal?: AbortSignal): Promise<PairList>;
  /** `sortPairs` of `allPairs`' result, each thread sorting its own pairs before they are merged. */
  sortedPairs(hi: Uint32Array, lo: Uint32Array, k: number, blocks?: number, limit?: number, signal?: AbortSignal): Promise<PairList>;
  /** Stops the threads. */
  close(): Promise<void>;
}

/** A pair-search thread (cli/pairs.thread.ts) with none of the parent's loader flags (tsx's CLI): thread-bootstrap.ts loads it. */
function spawnPairsThread(): SpawnedWorker {
  return spawnThread(new URL('./pairs.thread.ts', import.meta.url), { execArgv: [] });
}

/** The caller's share, searched in place: synchronous, so the workers must have been sent the search first. */
function searchHere(request: ClaimedRunsRequest, signal: AbortSignal | undefined) {
  signal?.throwIfAborted();
  return pairsApi.pairsForClaimedRuns(request);
}

/**
 * Starts `size` pair-search threads (at least 1): the caller and size - 1 workers made by `spawn`
 * (worker threads by default) through the app's worker pool; each search's runs of tables are claimed
 * by whichever thread is free first.
 */
export function startPairsPool(size: number, spawn: () => SpawnedWorker = spawnPairsThread): PairsPool {
  const count = Math.max(1, Math.floor(size));
  const pool = count > 1 ? createWorkerPool<PairsApi>(spawn, count - 1) : null;
  // Start every worker now, so its startup (loading its code) overlaps the caller's reading.
  const ready = pool ? pool.broadcast(undefined, (api) => api.ready()).then(() => undefined) : Promise.resolve();
  // Keep a failed startup from surfacing as an unhandled rejection before anyone awaits `ready`.
  ready.catch(() => undefined);

  let lastThreadSeconds: number[] = [];
  let lastThreadTables: number[] = [];

  async function search(hi: Uint32Array, lo: Uint32Array, k: number, blocks: number | undefined, limit: number | undefined, signal: AbortSignal | undefined, sort: boolean): Promise<PairList> {
    const n = hi.length;
    if (blocks === undefined && k > MAX_BLOCKS - 1) {
      const pairs = allPairsBruteForce(hi, lo, k, limit === undefined ? undefined : { limit });
      return sort ? sortPairs(pairs) : pairs;
    }
    const m = blocks ?? chooseBlocks(n, k);
    if (n < 2) return createPairList();
    const layout = blockLayout(k, m);
    if (!pool) {
      signal?.throwIfAborted();
      const started = performance.now();
      const pairs = allPairsForTables(hi, lo, layout, 0, layout.tables.length, limit === undefined ? undefined : { limit });
      lastThreadSeconds = [(performance.now() - started) / 1000];
      lastThreadTables = [layout.tables.length];
      return sort ? sortPairs(pairs) : pairs;
    }
    // comlink posts each call at once, so every worker has the search (queued until it has loaded)
    // before the caller starts claiming runs.
    const workers = (request: ClaimedRunsRequest) => pool.broadcast(signal, (api) => api.pairsForClaimedRuns(request));
    // An abort seen before or after the caller's own (synchronous) share stops the workers too; one
    // while the caller waits for them is the pool's (it terminates them).
    const stopIfAborted = () => {
      if (!signal?.aborted) return;
      pool.terminate(signal.reason);
      signal.throwIfAborted();
    };
    stopIfAborted();
    const found = await searchClaimedRuns((request) => searchHere(request, signal), workers, hi, lo, k, m, limit, sort);
    stopIfAborted();
    lastThreadSeconds = found.seconds;
    lastThreadTables = found.tables;
    return found.pairs;
  }

  return {
    size: count,
    ready,
    get lastThreadSeconds() {
      return lastThreadSeconds;
    },
    get lastThreadTables() {
      return lastThreadTables;
    },
    allPairs: (hi, lo, k, blocks, limit, signal) => search(hi, lo, k, blocks, limit, signal, false),
    sortedPairs: (hi, lo, k, blocks, limit, signal) => search(hi, lo, k, blocks, limit, signal, true),
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
