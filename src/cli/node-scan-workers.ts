/** The app's scan workers (ingest pool and index worker) as Node worker threads, for the CLI. */
import type { IngestApi } from '../workers/ingest-api.ts';
import type { IndexApi } from '../workers/index-api.ts';
import { MAX_DOCUMENT_BYTES } from '../core/documents/document-status.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { createWorkerBridge } from '../workers/worker-bridge.ts';
import { createWorkerPool } from '../workers/worker-pool.ts';
import { spawnThread } from './node-worker.ts';

/** `threads` ingest threads and one index thread, each started on its first call. */
export function createNodeScanWorkers(threads: number): ScanWorkers {
  return {
    ingest: createWorkerPool<IngestApi>(() => spawnThread(new URL('./ingest.thread.ts', import.meta.url)), threads),
    index: createWorkerBridge<IndexApi>(() => spawnThread(new URL('./index.thread.ts', import.meta.url))),
    // Node cannot post a file-backed Blob to a thread: every file compared is read here.
    readLimit: MAX_DOCUMENT_BYTES,
  };
}
