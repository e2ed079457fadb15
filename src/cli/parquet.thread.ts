/** The Parquet-decoding worker as a Node worker thread: exposes `parquetDecodeApi` over comlink and nothing else. */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parquetDecodeApi } from './parquet-decode-api.ts';

expose(parquetDecodeApi, nodeEndpoint(parentPort!));
