/** The ingest worker as a Node worker thread: exposes the app's ingest API, with the CLI's path reading (node-ingest-api.ts), over comlink; documents are extracted in a thread of their own. */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { nodeIngestApi } from './node-ingest-api.ts';
import { useExtractionWorker } from '../workers/ingest-read.ts';
import { spawnThread } from './node-worker.ts';

useExtractionWorker(() => spawnThread(new URL('./extract.thread.ts', import.meta.url)));
expose(nodeIngestApi, nodeEndpoint(parentPort!));
