/**
 * Threaded all-pairs for Node (the CLI and the benchmark): the app's worker pool over worker threads
 * running the pairs API (workers/pairs-api.ts), each taking a consecutive range of tables, with the
 * fingerprints in one SharedArrayBuffer. The result is the single-thread `allPairs` result, pair for
 * pair in the same order.
 */
import type { Remote } from 'comlink';
import { PairLimitError, allPairsBruteForce, allPairsForTables, splitTables } from '../core/index/all-pairs.ts';
import { MAX_BLOCKS, blockLayout, chooseBlocks } from '../core/index/block-layout.ts';
import { concatPairLists, type PairList } from '../core/index/pair-list.ts';
import type { PairsApi } from '../workers/pairs-api.ts';
import type { SpawnedWorker } from '../workers/worker-bridge.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { spawnThread } from './node-worker.ts';

/** A started pool of pair-search threads. */
export interface PairsPool {
  /** Number of worker threads. */
  readonly size: number;
  /** Resolves when every thread has loaded its code (startup is then out of the way). */
  readonly ready: Promise<void>;
  /** Seconds each thread spent computing in the last `allPairs` call (the rest is overhead). */
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

/**
 * Starts a pool of `size` pair-search workers (at least 1) made by `spawn` (worker threads by default),
 * through the app's worker pool: each takes one range of tables per search.
 */
export function startPairsPool(size: number, spawn: () => SpawnedWorker = spawnPairsThread): PairsPool {
  const count = Math.max(1, Math.floor(size));
  const pool = createWorkerPool<PairsApi>(spawn, count);
  // Start every thread now, so its startup (loading its code) overlaps the caller's reading.
  const ready = pool.broadcast(undefined, (api) => api.ready()).then(() => undefined);
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
      const layout = blockLayout(k, m);
      if (n < 2) return allPairsForTables(hi, lo, layout, 0, layout.tables.length);
      // One counter for all threads, so the limit bounds their sum (and so the memory the pairs take).
      const shared = limit === undefined ? undefined : { limit, shared: new Int32Array(new SharedArrayBuffer(4)) };
      await ready;
      const fingerprints = toShared(hi, lo);
      const bounds = splitTables(layout.tables.length, count);
      const seconds: number[] = [];
      const parts: Promise<PairList>[] = [];
      // Submitted together, the ranges go one to each worker (the pool picks the least busy).
      for (let p = 0; p + 1 < bounds.length; p++) {
        const request = { hi: fingerprints.hi, lo: fingerprints.lo, k, blocks: m, firstTable: bounds[p], endTable: bounds[p + 1], limit: shared };
        parts.push(
          pool.run(signal, (api: Remote<PairsApi>) => api.pairsForTables(request)).then(
            ({ seconds: s, ...pairs }) => {
              seconds[p] = s;
              return pairs;
            },
            (error: unknown) => {
              // comlink carries a thrown error's name and message, not its class.
              throw shared && error instanceof Error && error.name === 'PairLimitError' ? new PairLimitError(shared.limit) : error;
            },
          ),
        );
      }
      lastThreadSeconds = seconds;
      return concatPairLists(await Promise.all(parts));
    },
    close() {
      pool.terminate();
      return Promise.resolve();
    },
  };
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
