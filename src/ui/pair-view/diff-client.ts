/**
 * The main-thread side of the diff worker: one client per pair view runs one diff at a time through the
 * one worker bridge (workers/worker-bridge.ts: started lazily, terminated on abort, pending calls
 * rejected), and replaces the worker when a diff is abandoned (a 1 MB diff cannot be interrupted inside
 * the worker).
 */
import type { DiffApi } from '../../workers/diff-api.ts';
import { abortError, createWorkerBridge, type SpawnedWorker } from '../../workers/worker-bridge.ts';
import type { DiffOptions, DiffResult } from '../../core/text/diff-runs.ts';

export interface DiffClient {
  /** Word-level diff in the worker; rejects with an AbortError as soon as `signal` aborts. */
  diff(a: string, b: string, options: DiffOptions, signal: AbortSignal): Promise<DiffResult>;
  /** Terminates the worker (rejecting a pending diff). */
  dispose(): void;
}

/** A diff client owning at most one worker at a time (`spawn`: the app's diff worker). */
export function createDiffClient(
  spawn: () => SpawnedWorker = () => new Worker(new URL('../../workers/diff.worker.ts', import.meta.url), { type: 'module' }),
): DiffClient {
  const bridge = createWorkerBridge<DiffApi>(spawn);
  const abandoned = () => abortError('The diff was abandoned.');
  return {
    diff(a, b, options, signal) {
      // An older diff nobody waits for any more: its worker is replaced.
      if (bridge.pending > 0) bridge.terminate(abandoned());
      return bridge.call(signal, (api) => api.diffTexts(a, b, options));
    },
    dispose: () => bridge.terminate(abandoned()),
  };
}
