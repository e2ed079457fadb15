/**
 * Threaded all-pairs for Node (the CLI and the benchmark): a pool of worker_threads, each taking a
 * consecutive range of tables, with the fingerprints in one SharedArrayBuffer. The result is the
 * single-thread `allPairs` result, pair for pair in the same order.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from './thread-bootstrap.ts';
import { PairLimitError, allPairsBruteForce, allPairsForTables, splitTables } from '../core/index/all-pairs.ts';
import { MAX_BLOCKS, blockLayout, chooseBlocks } from '../core/index/block-layout.ts';
import { concatPairLists, type PairList } from '../core/index/pair-list.ts';
import type { PairsThreadReply, PairsThreadRequest } from './pairs-thread.ts';

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
   * `PairLimitError` once the threads together find more than `limit` pairs.
   */
  allPairs(hi: Uint32Array, lo: Uint32Array, k: number, blocks?: number, limit?: number): Promise<PairList>;
  /** Stops the threads. */
  close(): Promise<void>;
}

/** Starts `size` worker threads (at least 1). */
export function startPairsPool(size: number): PairsPool {
  const count = Math.max(1, Math.floor(size));
  const entry = new URL('./pairs-thread.ts', import.meta.url);
  const workers: Worker[] = [];
  const readies: Promise<void>[] = [];
  const pending = new Map<number, { resolve: (r: PairsThreadReply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  for (let i = 0; i < count; i++) {
    // execArgv [] so the parent's own loader flags (tsx CLI) are not applied twice.
    const worker = startThread(entry, { execArgv: [] });
    workers.push(worker);
    readies.push(
      new Promise<void>((resolve, reject) => {
        worker.once('error', reject);
        worker.once('message', (m: unknown) => {
          if (m === 'ready') resolve();
          else reject(new Error(`pair thread sent ${String(m)} before ready`));
        });
      }),
    );
    worker.on('message', (m: PairsThreadReply | 'ready') => {
      if (m === 'ready') return;
      pending.get(m.id)?.resolve(m);
      pending.delete(m.id);
    });
    worker.on('error', (e) => {
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    });
    // A thread that dies without an error event (e.g. out of memory) must not leave callers waiting.
    worker.on('exit', (code) => {
      for (const p of pending.values()) p.reject(new Error(`pair thread exited with code ${code}`));
      pending.clear();
    });
  }
  const ready = Promise.all(readies).then(() => undefined);
  // Keep a failed startup from surfacing as an unhandled rejection before anyone awaits `ready`.
  ready.catch(() => undefined);

  let lastThreadSeconds: number[] = [];

  function run(req: Omit<PairsThreadRequest, 'id'>, worker: Worker, slot: number): Promise<PairList> {
    const id = nextId++;
    return new Promise<PairsThreadReply>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...req, id });
    }).then((reply) => {
      if (!reply.ok) throw reply.overLimit && req.limit ? new PairLimitError(req.limit.limit) : new Error(reply.message);
      lastThreadSeconds[slot] = reply.seconds;
      return { a: reply.a, b: reply.b, distance: reply.distance, count: reply.count };
    });
  }

  return {
    size: count,
    ready,
    get lastThreadSeconds() {
      return lastThreadSeconds;
    },
    async allPairs(hi, lo, k, blocks, limit) {
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
      const parts: Promise<PairList>[] = [];
      lastThreadSeconds = [];
      for (let p = 0; p + 1 < bounds.length; p++) {
        parts.push(
          run({ hi: fingerprints.hi, lo: fingerprints.lo, k, blocks: m, firstTable: bounds[p], endTable: bounds[p + 1], limit: shared }, workers[p], p),
        );
      }
      return concatPairLists(await Promise.all(parts));
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
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
