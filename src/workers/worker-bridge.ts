/**
 * Owns one worker's life on the main thread: starts it lazily on the first call, terminates it on
 * abort, and races every pending call against the abort (comlink never settles calls that were in
 * flight when a worker is terminated, so without the race a cancelled scan would hang forever).
 */
import { wrap, type Endpoint, type Remote } from 'comlink';

/**
 * What a bridge needs of a worker: a comlink endpoint that reports 'error' and 'messageerror' and can be
 * terminated. A DOM `Worker` is one; the CLI adapts Node's worker threads to it (cli/node-worker.ts).
 */
export type SpawnedWorker = Endpoint & { terminate(): void };

/** A lazily started worker whose calls can be aborted. */
export interface WorkerBridge<Api> {
  /** Runs `fn` against the worker's API; rejects with the signal's reason as soon as it aborts. */
  call<R>(signal: AbortSignal | undefined, fn: (api: Remote<Api>) => Promise<R>): Promise<R>;
  /** Terminates the worker (if started) and rejects every pending call; the next call starts a new one. */
  terminate(reason?: unknown): void;
  /** Number of calls in flight. */
  readonly pending: number;
  /** Starts the worker now (if not running), so its start-up overlaps the caller's own work. */
  warm(): void;
}

/** An `AbortError` DOMException, the reason used when no other is given. */
export function abortError(message = 'The scan was cancelled.'): DOMException {
  return new DOMException(message, 'AbortError');
}

/** True for the rejection an aborted call produces. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Creates a bridge around workers made by `spawn` (e.g. `() => new Worker(new URL(...), { type: 'module' })`). */
export function createWorkerBridge<Api>(spawn: () => SpawnedWorker): WorkerBridge<Api> {
  let worker: SpawnedWorker | null = null;
  let api: Remote<Api> | null = null;
  const rejectors = new Set<(reason: unknown) => void>();

  function terminate(reason: unknown = abortError()): void {
    worker?.terminate();
    worker = null;
    api = null;
    const pending = [...rejectors];
    rejectors.clear();
    for (const reject of pending) reject(reason);
  }

  function start(): Remote<Api> {
    const w = spawn();
    // A worker that fails to load or throws outside a call would otherwise leave its calls pending.
    w.addEventListener('error', (event) => {
      (event as Event).preventDefault();
      const message = (event as ErrorEvent).message;
      if (worker === w) terminate(new Error(`A worker failed: ${message || 'it could not be started'}`));
    });
    w.addEventListener('messageerror', () => {
      if (worker === w) terminate(new Error('A worker sent a message that could not be read.'));
    });
    worker = w;
    api = wrap<Api>(w);
    return api;
  }

  return {
    get pending() {
      return rejectors.size;
    },
    terminate,
    warm() {
      api ??= start();
    },
    call<R>(signal: AbortSignal | undefined, fn: (api: Remote<Api>) => Promise<R>): Promise<R> {
      if (signal?.aborted) return Promise.reject(signal.reason ?? abortError());
      const remote = api ?? start();
      return new Promise<R>((resolve, reject) => {
        const onAbort = () => terminate(signal?.reason ?? abortError());
        const settle = () => {
          rejectors.delete(reject);
          signal?.removeEventListener('abort', onAbort);
        };
        rejectors.add(reject);
        signal?.addEventListener('abort', onAbort, { once: true });
        fn(remote).then(
          (value) => {
            settle();
            resolve(value);
          },
          (error: unknown) => {
            settle();
            reject(error);
          },
        );
      });
    },
  };
}
