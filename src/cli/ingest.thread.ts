/** The ingest worker as a Node worker thread: exposes the app's ingest API, with the CLI's path reading (node-ingest-api.ts), over comlink. */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { nodeIngestApi } from './node-ingest-api.ts';

expose(nodeIngestApi, nodeEndpoint(parentPort!));
