/** A worker thread for node-worker.test.ts: its one call ends the thread without an error event. */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';

export const exitingApi = {
  exit(code: number): void {
    process.exit(code);
  },
};

expose(exitingApi, nodeEndpoint(parentPort!));
