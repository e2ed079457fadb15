/** The document-extraction worker as a Node worker thread (started by an ingest thread): exposes the app's extract API over comlink. */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { extractApi } from '../workers/extract-api.ts';

expose(extractApi, nodeEndpoint(parentPort!));
