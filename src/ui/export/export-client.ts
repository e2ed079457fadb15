/**
 * The main-thread side of the export worker: one lazily started worker builds every export, so the page
 * only hands it the relation, paths and columns (a structured clone) and waits; the rows never exist
 * as one string or one Blob on the main thread.
 */
import { createWorkerBridge } from '../../workers/worker-bridge.ts';
import type { ExportApi } from '../../workers/export-api.ts';

/** The export worker's bridge, shared by the export buttons. */
export const exportWorker = createWorkerBridge<ExportApi>(
  () => new Worker(new URL('../../workers/export.worker.ts', import.meta.url), { type: 'module' }),
);
