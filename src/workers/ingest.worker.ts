/** The ingest worker: exposes `ingestApi` over comlink; its documents are extracted in a worker of their own. */
import { expose } from 'comlink';
import { ingestApi, useExtractionWorker } from './ingest-api.ts';

useExtractionWorker(() => new Worker(new URL('./extract.worker.ts', import.meta.url), { type: 'module', name: 'simsift-extract' }));
expose(ingestApi);
