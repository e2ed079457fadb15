/**
 * The main-thread side of the diff worker: starts it lazily, runs one diff at a time, and replaces
 * the worker when a diff is abandoned (a 1 MB diff cannot be interrupted inside the worker).
 */
import { wrap, type Remote } from 'comlink';
import type { DiffApi, DiffOptions, DiffResult } from '../../workers/diff-api.ts';

let worker: Worker | null = null;
let api: Remote<DiffApi> | null = null;
let busy = false;

function start(): Remote<DiffApi> {
  if (api === null) {
    worker = new Worker(new URL('../../workers/diff.worker.ts', import.meta.url), { type: 'module' });
    api = wrap<DiffApi>(worker);
  }
  return api;
}

function stop(): void {
  worker?.terminate();
  worker = null;
  api = null;
  busy = false;
}

/**
 * Word-level diff of two texts in the diff worker. When `signal` aborts, the promise rejects with an
 * AbortError at once and, if the worker is still busy, the worker is terminated (comlink would leave
 * the pending call hanging otherwise).
 */
export function diffInWorker(a: string, b: string, options: DiffOptions, signal: AbortSignal): Promise<DiffResult> {
  if (signal.aborted) return Promise.reject(new DOMException('Aborted', 'AbortError'));
  if (busy) stop(); // an older diff nobody waits for any more
  const remote = start();
  busy = true;
  return new Promise<DiffResult>((resolve, reject) => {
    const onAbort = () => {
      if (busy) stop();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    remote.diffTexts(a, b, options).then(
      (result) => {
        busy = false;
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        busy = false;
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
