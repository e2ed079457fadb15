/** The pair-search worker as a Node worker thread: exposes the `pairsApi` over comlink and nothing else. */
import './wasm-top-tier.ts';
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { pairsApi } from '../workers/pairs-api.ts';

expose(pairsApi, nodeEndpoint(parentPort!));
