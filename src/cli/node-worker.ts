/**
 * Node's worker threads as the workers the app's bridge and pool drive: comlink's own Node adapter
 * carries the messages, and a thread's 'error' and 'messageerror' reach the bridge as a DOM worker's
 * would, so a thread that dies rejects its pending calls instead of leaving them pending.
 */
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { SpawnedWorker } from '../workers/worker-bridge.ts';
import { startThread } from './thread-bootstrap.ts';

type Listener = EventListenerOrEventListenerObject;

function deliver(listener: Listener, event: unknown): void {
  if (typeof listener === 'function') listener(event as Event);
  else listener.handleEvent(event as Event);
}

/** Starts a worker thread running the module `entry` (which exposes its API on `parentPort`). */
export function spawnThread(entry: URL): SpawnedWorker {
  const thread = startThread(entry);
  const endpoint = nodeEndpoint(thread);
  const other = new Map<Listener, (error: unknown) => void>();
  return {
    postMessage: (message, transfer) => endpoint.postMessage(message, transfer),
    addEventListener(type, listener) {
      if (type === 'message') return endpoint.addEventListener(type, listener);
      const handler = (error: unknown) =>
        deliver(listener, { message: error instanceof Error ? error.message : String(error), preventDefault() {} });
      other.set(listener, handler);
      thread.on(type === 'error' ? 'error' : 'messageerror', handler);
    },
    removeEventListener(type, listener) {
      if (type === 'message') return endpoint.removeEventListener(type, listener);
      const handler = other.get(listener);
      if (handler) thread.off(type === 'error' ? 'error' : 'messageerror', handler);
    },
    terminate: () => void thread.terminate(),
  };
}
