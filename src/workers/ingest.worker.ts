/** The ingest worker: exposes `ingestApi` over comlink; its documents are extracted in a worker of their own. */
import { expose } from 'comlink';
import { ingestApi } from './ingest-api.ts';
import { useExtractionWorker } from './ingest-read.ts';

useExtractionWorker(() => new Worker(new URL('./extract.worker.ts', import.meta.url), { type: 'module', name: 'simsift-extract' }));
expose(ingestApi);
