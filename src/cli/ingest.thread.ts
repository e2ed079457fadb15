/** The ingest worker as a Node worker thread: exposes the app's `ingestApi` over comlink and nothing else. */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { ingestApi } from '../workers/ingest-api.ts';

expose(ingestApi, nodeEndpoint(parentPort!));
