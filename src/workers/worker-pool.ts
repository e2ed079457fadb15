/**
 * A fixed set of worker bridges of one kind; each task goes to the least busy worker. Sized by
 * `navigator.hardwareConcurrency` by default. Callers limit how many tasks they submit at once.
 */
import type { Remote } from 'comlink';
import { createWorkerBridge, type SpawnedWorker, type WorkerBridge } from './worker-bridge.ts';
import { defaultPoolSize } from './pool-size.ts';

/** A pool of lazily started workers sharing one API. */
export interface WorkerPool<Api> {
  readonly size: number;
  /** Runs `fn` on the least busy worker; rejects on abort (which terminates the whole pool). */
  run<R>(signal: AbortSignal | undefined, fn: (api: Remote<Api>) => Promise<R>): Promise<R>;
  /** Runs `fn` once on every worker of the pool (per-worker state: TF-IDF counts and frequencies; `index`: which worker, 0 to size - 1). */
  broadcast<R>(signal: AbortSignal | undefined, fn: (api: Remote<Api>, index: number) => Promise<R>): Promise<R[]>;
  /** Terminates every worker and rejects pending calls; later calls start fresh workers. */
  terminate(reason?: unknown): void;
  /** Starts every worker now (see WorkerBridge.warm). */
  warm(): void;
}

/** Creates a pool of `size` bridges around workers made by `spawn`. */
export function createWorkerPool<Api>(spawn: () => SpawnedWorker, size = defaultPoolSize()): WorkerPool<Api> {
  const bridges: WorkerBridge<Api>[] = Array.from({ length: size }, () => createWorkerBridge<Api>(spawn));
  let cursor = 0;
  return {
    size,
    run(signal, fn) {
      // Least pending first; ties rotate so that equal loads still spread over all workers.
      let best = bridges[cursor % size];
      for (let i = 1; i < size; i++) {
        const candidate = bridges[(cursor + i) % size];
        if (candidate.pending < best.pending) best = candidate;
      }
      cursor++;
      return best.call(signal, fn);
    },
    broadcast(signal, fn) {
      return Promise.all(bridges.map((bridge, index) => bridge.call(signal, (api) => fn(api, index))));
    },
    terminate(reason) {
      for (const bridge of bridges) bridge.terminate(reason);
    },
    warm() {
      for (const bridge of bridges) bridge.warm();
    },
  };
}
