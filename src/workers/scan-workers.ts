/**
 * The main thread's handles on the scan workers: a pool of ingest workers and one index worker.
 * Worker APIs are imported as types only, so no worker code lands in the main bundle.
 */
import type { IngestApi } from './ingest-api.ts';
import type { DiskRef } from './ingest-protocol.ts';
import type { IndexApi } from './index-api.ts';
import { createWorkerBridge, type WorkerBridge } from './worker-bridge.ts';
import { createWorkerPool, type WorkerPool } from './worker-pool.ts';
import { defaultPoolSize } from './pool-size.ts';

/** The workers a scan uses. */
export interface ScanWorkers {
  ingest: WorkerPool<IngestApi>;
  index: WorkerBridge<IndexApi>;
  /**
   * Files up to this many bytes are read on the main thread and their bytes transferred; larger ones
   * are posted as Files for a worker to read. The browser reads up to 4 MB itself (see
   * scan/read-file-bytes.ts for why); Node cannot post a file-backed Blob at all, so the CLI sends a
   * file on disk as its path (`diskRef`) and reads any other Blob (up to MAX_DOCUMENT_BYTES) on its
   * main thread.
   */
  readLimit: number;
  /**
   * The CLI: a file the ingest threads can read themselves (a whole file on disk), sent as its path
   * instead of its bytes; null for a file the main thread reads.
   */
  diskRef?: (file: Blob) => DiskRef | null;
  /** The CLI: the ingest threads can write kept sets beyond the budget to spill files (`IngestBatchOptions.spillSets`). */
  spillSets?: boolean;
  /** Bytes of feature sets the scan keeps in memory (default scan-ingest.ts KEPT_SETS_BUDGET_BYTES); tests shrink it. */
  keptSetsBudget?: number;
  /**
   * The parts the candidate search is split into once reading is done (scan/split-search.ts): by
   * default one on the index worker and one on each ingest worker when the search is expected to take
   * over 20 ms on one core, else 1 (the index worker alone).
   */
  searchParts?: number;
}

/** The browser's main-thread read limit (see ScanWorkers.readLimit). */
export const BROWSER_READ_LIMIT = 4 * 1024 * 1024;

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
    readLimit: BROWSER_READ_LIMIT,
  };
}
