/** The index worker as a Node worker thread: exposes the app's `indexApi` over comlink and nothing else. */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { indexApi } from '../workers/index-api.ts';

expose(indexApi, nodeEndpoint(parentPort!));
