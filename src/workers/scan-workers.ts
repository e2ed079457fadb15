/**
 * The main thread's handles on the scan workers: a pool of ingest workers and one index worker.
 * Worker APIs are imported as types only, so no worker code lands in the main bundle.
 */
import type { IngestApi } from './ingest-api.ts';
import type { IndexApi } from './index-api.ts';
import { createWorkerBridge, type WorkerBridge } from './worker-bridge.ts';
import { createWorkerPool, defaultPoolSize, type WorkerPool } from './worker-pool.ts';

/** The workers a scan uses. */
export interface ScanWorkers {
  ingest: WorkerPool<IngestApi>;
  index: WorkerBridge<IndexApi>;
}

/** Creates (lazily started) scan workers: `poolSize` ingest workers, default one per core. */
export function createScanWorkers(poolSize = defaultPoolSize()): ScanWorkers {
  return {
    ingest: createWorkerPool<IngestApi>(
      () => new Worker(new URL('./ingest.worker.ts', import.meta.url), { type: 'module', name: 'simsift-ingest' }),
      poolSize,
    ),
    index: createWorkerBridge<IndexApi>(
      () => new Worker(new URL('./index.worker.ts', import.meta.url), { type: 'module', name: 'simsift-index' }),
    ),
  };
}
