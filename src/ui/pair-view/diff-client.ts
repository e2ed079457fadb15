/**
 * The main-thread side of the diff worker: one client per pair view starts its worker lazily, runs one
 * diff at a time, and replaces the worker when a diff is abandoned (a 1 MB diff cannot be interrupted
 * inside the worker, and comlink leaves the call of a terminated worker pending, so it is rejected here).
 */
import { wrap, type Remote } from 'comlink';
import type { DiffApi } from '../../workers/diff-api.ts';
import type { DiffOptions, DiffResult } from '../../core/text/diff-runs.ts';

export interface DiffClient {
  /** Word-level diff in the worker; rejects with an AbortError as soon as `signal` aborts. */
  diff(a: string, b: string, options: DiffOptions, signal: AbortSignal): Promise<DiffResult>;
  /** Terminates the worker (rejecting a pending diff). */
  dispose(): void;
}

const aborted = () => new DOMException('Aborted', 'AbortError');

/** A diff client owning at most one worker at a time. */
export function createDiffClient(): DiffClient {
  let worker: Worker | null = null;
  let api: Remote<DiffApi> | null = null;
  let rejectPending: ((error: unknown) => void) | null = null;

  const stop = () => {
    worker?.terminate();
    worker = null;
    api = null;
    rejectPending?.(aborted());
    rejectPending = null;
  };

  return {
    diff(a, b, options, signal) {
      if (signal.aborted) return Promise.reject(aborted());
      if (rejectPending) stop(); // an older diff nobody waits for any more
      if (api === null) {
        worker = new Worker(new URL('../../workers/diff.worker.ts', import.meta.url), { type: 'module' });
        api = wrap<DiffApi>(worker);
      }
      const remote = api;
      return new Promise<DiffResult>((resolve, reject) => {
        let settled = false;
        const settle = () => {
          settled = true;
          rejectPending = null;
          signal.removeEventListener('abort', onAbort);
        };
        const onAbort = () => {
          if (!settled) stop();
        };
        rejectPending = (error) => {
          if (settled) return;
          settle();
          reject(error);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        remote.diffTexts(a, b, options).then(
          (result) => {
            if (settled) return;
            settle();
            resolve(result);
          },
          (error: unknown) => {
            if (settled) return;
            settle();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    },
    dispose: stop,
  };
}
