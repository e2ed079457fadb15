/** The app's scan workers (ingest pool and index worker) as Node worker threads, for the CLI. */
import type { IndexApi } from '../workers/index-api.ts';
import { MAX_DOCUMENT_BYTES } from '../core/documents/document-status.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { createWorkerBridge } from '../workers/worker-bridge.ts';
import { createWorkerPool, type WorkerPool } from '../workers/worker-pool.ts';
import type { NodeIngestApi } from './node-ingest-api.ts';
import { spawnThread } from './node-worker.ts';
import { diskRefOf } from './disk-file.ts';

/** The scan workers, whose ingest threads also read files by path (`ingestPaths`). */
export type NodeScanWorkers = Omit<ScanWorkers, 'ingest'> & { ingest: WorkerPool<NodeIngestApi> };

/** `threads` ingest threads and one index thread, each started on its first call. */
export function createNodeScanWorkers(threads: number): NodeScanWorkers {
  return {
    ingest: createWorkerPool<NodeIngestApi>(() => spawnThread(new URL('./ingest.thread.ts', import.meta.url)), threads),
    index: createWorkerBridge<IndexApi>(() => spawnThread(new URL('./index.thread.ts', import.meta.url))),
    // Node cannot post a file-backed Blob to a thread: a file on disk goes as its path and the thread
    // reads it (node-ingest-api.ts); any other Blob (a kept range) is read here.
    readLimit: MAX_DOCUMENT_BYTES,
    diskRef: diskRefOf,
    spillSets: true,
  };
}
