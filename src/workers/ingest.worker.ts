/** The ingest worker: exposes `ingestApi` over comlink and nothing else. */
import { expose } from 'comlink';
import { ingestApi } from './ingest-api.ts';

expose(ingestApi);
