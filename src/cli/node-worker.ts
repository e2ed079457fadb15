/**
 * Node's worker threads as the workers the app's bridge and pool drive: comlink's own Node adapter
 * carries the messages, and a thread's 'error' and 'messageerror' reach the bridge as a DOM worker's
 * would, so a thread that dies rejects its pending calls instead of leaving them pending.
 */
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { WorkerOptions } from 'node:worker_threads';
import type { SpawnedWorker } from '../workers/worker-bridge.ts';
import { startThread } from './thread-bootstrap.ts';

type Listener = EventListenerOrEventListenerObject;

function deliver(listener: Listener, event: unknown): void {
  if (typeof listener === 'function') listener(event as Event);
  else listener.handleEvent(event as Event);
}

/** Starts a worker thread running the module `entry` (which exposes its API on `parentPort`). */
export function spawnThread(entry: URL, options?: WorkerOptions): SpawnedWorker {
  const thread = startThread(entry, options);
  const endpoint = nodeEndpoint(thread);
  const other = new Map<Listener, { event: 'error' | 'messageerror' | 'exit'; handler: (error: unknown) => void }[]>();
  return {
    postMessage: (message, transfer) => endpoint.postMessage(message, transfer),
    addEventListener(type, listener) {
      if (type === 'message') return endpoint.addEventListener(type, listener);
      const handler = (error: unknown) =>
        deliver(listener, { message: error instanceof Error ? error.message : String(error), preventDefault() {} });
      // A thread that ends without an 'error' (process.exit in it) fails as well: its calls would never settle.
      const onExit = (code: number) => handler(`the thread exited with code ${code}`);
      const handlers = type === 'error' ? [{ event: 'error' as const, handler }, { event: 'exit' as const, handler: onExit as (e: unknown) => void }] : [{ event: 'messageerror' as const, handler }];
      other.set(listener, handlers);
      for (const h of handlers) thread.on(h.event, h.handler);
    },
    removeEventListener(type, listener) {
      if (type === 'message') return endpoint.removeEventListener(type, listener);
      for (const h of other.get(listener) ?? []) thread.off(h.event, h.handler);
      other.delete(listener);
    },
    terminate: () => void thread.terminate(),
  };
}
