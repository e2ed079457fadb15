/**
 * Runs scans: collects the files, plans batches, drives the ingest pool and the index worker,
 * publishes throttled progress and the final `ScanResult` to the scan store, and cancels (hard:
 * workers are terminated) within milliseconds. One session per app; a new scan may start at once.
 */
import { proxy } from 'comlink';
import { DEFAULT_INGEST_LIMITS, type IngestBatchResult } from '../workers/ingest-protocol.ts';
import { abortError, isAbortError } from '../workers/worker-bridge.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { collectFromDrop, collectFromFileList, type CollectedFiles, type DropSnapshot } from './collect-files.ts';
import { batchLimitsFor, planBatches } from './plan-batches.ts';
import { estimateRate } from './progress-meter.ts';
import { emptyGroups, type ScanDocs, type ScanResult, type SkippedFile } from './scan-result.ts';
import type { ScanPhase, ScanProgress, ScanStore } from './scan-store.ts';
import { yieldToEventLoop } from './yield-to-event-loop.ts';

/** Where a scan's files come from. */
export type ScanSource =
  | { kind: 'file-list'; files: ArrayLike<File> }
  | { kind: 'drop'; drop: DropSnapshot };

export interface ScanSession {
  /** Starts a scan (cancelling one that is running). Resolves when it has ended, however it ended. */
  start(source: ScanSource): Promise<void>;
  /** Cancels the running scan; the store says 'cancelled' before this returns. */
  cancel(): void;
}

const PROGRESS_INTERVAL_MS = 100;

/** Allocates the per-doc arrays for `collected` in batch-plan order. */
function allocateDocs(collected: CollectedFiles, order: Uint32Array): ScanDocs {
  const n = order.length;
  const paths = new Array<string>(n);
  const files = new Array<File>(n);
  const sizes = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const i = order[d];
    paths[d] = collected.paths[i];
    files[d] = collected.files[i];
    sizes[d] = collected.files[i].size;
  }
  return {
    count: n,
    paths,
    files,
    sizes,
    status: new Uint8Array(n),
    flags: new Uint8Array(n),
    hi: new Uint32Array(n),
    lo: new Uint32Array(n),
    words: new Uint32Array(n),
    hashHi: new Uint32Array(n),
    hashLo: new Uint32Array(n),
  };
}

function storeBatch(docs: ScanDocs, first: number, r: IngestBatchResult, skipped: SkippedFile[]): void {
  docs.status.set(r.status, first);
  docs.flags.set(r.flags, first);
  docs.hi.set(r.hi, first);
  docs.lo.set(r.lo, first);
  docs.words.set(r.words, first);
  docs.hashHi.set(r.hashHi, first);
  docs.hashLo.set(r.hashLo, first);
  for (const s of r.skipped) {
    const docId = first + s.index;
    skipped.push({ docId, path: docs.paths[docId], size: docs.sizes[docId], reason: s.reason, message: s.message });
  }
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Creates the session that writes into `store` and runs on `workers`. */
export function createScanSession(store: ScanStore, workers: ScanWorkers): ScanSession {
  let current: AbortController | null = null;

  function cancel(): void {
    if (!current) return;
    const controller = current;
    current = null;
    controller.abort(abortError());
    // Hard cancel: the workers die now; the pool starts fresh ones for the next scan.
    workers.ingest.terminate();
    workers.index.terminate();
    store.update({ state: 'cancelled' });
  }

  async function run(source: ScanSource, controller: AbortController): Promise<void> {
    const signal = controller.signal;
    const isCurrent = () => current === controller;
    const t0 = performance.now();
    const { k, settings } = store.getSnapshot();
    let phase: ScanPhase = 'reading';
    let filesDone = 0;
    let filesTotal = 0;
    let bytesDone = 0;
    let bytesTotal = 0;
    let fingerprintStart = 0;
    const inflightBytes = new Map<number, number>();
    const publish = () => {
      if (!isCurrent()) return;
      const now = performance.now();
      let bytes = bytesDone;
      for (const b of inflightBytes.values()) bytes += b;
      const rate = phase === 'fingerprinting' ? estimateRate(bytes, bytesTotal, now - fingerprintStart) : { bytesPerSecond: 0, secondsLeft: null };
      const progress: ScanProgress = {
        phase,
        filesDone,
        filesTotal,
        bytesDone: bytes,
        bytesTotal,
        bytesPerSecond: rate.bytesPerSecond || store.getSnapshot().progress?.bytesPerSecond || 0,
        secondsLeft: phase === 'fingerprinting' ? rate.secondsLeft : null,
        elapsedMs: now - t0,
      };
      store.update({ progress });
    };
    const setPhase = (next: ScanPhase) => {
      phase = next;
      publish();
    };
    const timer = setInterval(publish, PROGRESS_INTERVAL_MS);

    let docs: ScanDocs | null = null;
    const skipped: SkippedFile[] = [];
    const timings = { readingMs: 0, fingerprintingMs: 0, indexingMs: 0, groupingMs: 0, totalMs: 0 };
    const partialResult = (): ScanResult | null =>
      docs && {
        settings,
        k,
        docs,
        skipped,
        representative: new Int32Array(docs.count).fill(-1),
        exactGroups: emptyGroups(),
        pairs: { a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), count: 0 },
        pairGroup: new Uint32Array(0),
        nearGroups: emptyGroups(),
        partial: true,
        timings: { ...timings, totalMs: performance.now() - t0 },
      };

    try {
      // Reading: the file list (walking dropped folders), hidden files left out.
      setPhase('reading');
      const unreadable: SkippedFile[] = [];
      const collected =
        source.kind === 'file-list'
          ? await collectFromFileList(source.files, signal)
          : await collectFromDrop(source.drop, signal, (path, error) =>
              unreadable.push({ docId: -1, path, size: 0, reason: 'unreadable', message: `Could not be read (${errorMessage(error)}).` }),
            );
      signal.throwIfAborted();
      skipped.push(...collected.hidden, ...unreadable);
      filesTotal = collected.files.length;
      for (const f of collected.files) bytesTotal += f.size;
      const plan = planBatches(
        collected.files.map((f) => f.size),
        batchLimitsFor(bytesTotal, workers.ingest.size),
      );
      docs = allocateDocs(collected, plan.order);
      await yieldToEventLoop();
      signal.throwIfAborted();
      timings.readingMs = performance.now() - t0;

      // Fingerprinting: two batches in flight per worker, so reading overlaps hashing.
      fingerprintStart = performance.now();
      setPhase('fingerprinting');
      let nextBatch = 0;
      const lane = async () => {
        while (nextBatch < plan.count) {
          const b = nextBatch++;
          const first = plan.bounds[b];
          const end = plan.bounds[b + 1];
          const batchFiles = docs!.files.slice(first, end);
          let batchBytes = 0;
          let streamed = false;
          for (let d = first; d < end; d++) {
            batchBytes += docs!.sizes[d];
            if (docs!.sizes[d] > DEFAULT_INGEST_LIMITS.streamAboveBytes) streamed = true;
          }
          // Only batches with a huge file report bytes while running; others finish within a blink.
          const onProgress = streamed ? proxy((bytesRead: number) => void inflightBytes.set(b, bytesRead)) : undefined;
          const result = await workers.ingest.run(signal, (api) => api.ingestBatch(batchFiles, settings, onProgress));
          inflightBytes.delete(b);
          storeBatch(docs!, first, result, skipped);
          filesDone += end - first;
          bytesDone += batchBytes;
        }
      };
      await Promise.all(Array.from({ length: workers.ingest.size * 2 }, lane));
      signal.throwIfAborted();
      timings.fingerprintingMs = performance.now() - fingerprintStart;

      // Indexing and grouping: in the index worker, over distinct texts only.
      const tIndex = performance.now();
      let tGroup = 0;
      setPhase('indexing');
      const found = await workers.index.call(signal, (api) =>
        api.findDuplicates(
          { status: docs!.status, hi: docs!.hi, lo: docs!.lo, hashHi: docs!.hashHi, hashLo: docs!.hashLo, k },
          proxy((next: 'indexing' | 'grouping') => {
            if (next === 'grouping') {
              tGroup = performance.now();
              setPhase('grouping');
            }
          }),
        ),
      );
      signal.throwIfAborted();
      const tEnd = performance.now();
      timings.indexingMs = (tGroup || tEnd) - tIndex;
      timings.groupingMs = tGroup ? tEnd - tGroup : 0;
      timings.totalMs = tEnd - t0;
      const result: ScanResult = {
        settings,
        k,
        docs,
        skipped,
        representative: found.representative,
        exactGroups: found.exactGroups,
        pairs: found.pairs,
        pairGroup: found.pairGroup,
        nearGroups: found.nearGroups,
        partial: false,
        timings,
      };
      clearInterval(timer);
      if (!isCurrent()) return;
      publish();
      current = null;
      store.update({ state: 'done', result });
    } catch (error) {
      clearInterval(timer);
      if (isAbortError(error) || signal.aborted) {
        // cancel() already said 'cancelled'; keep what was finished (only if no newer scan began).
        if (store.getSnapshot().state === 'cancelled' && !current) store.update({ result: partialResult() });
        return;
      }
      if (!isCurrent()) return;
      current = null;
      workers.ingest.terminate();
      workers.index.terminate();
      store.update({ state: 'error', error: `The scan stopped: ${errorMessage(error)}`, result: partialResult() });
    }
  }

  return {
    cancel,
    start(source) {
      if (current) cancel();
      const controller = new AbortController();
      current = controller;
      store.update({ state: 'scanning', progress: null, result: null, error: null });
      return run(source, controller);
    },
  };
}
