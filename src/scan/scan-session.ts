/**
 * Runs scans: collects the files, plans batches, drives the ingest pool and the index worker,
 * publishes throttled progress and the final `ScanResult` to the scan store, and cancels (hard:
 * workers are terminated) within milliseconds. One session per app; a new scan may start at once.
 */
import { proxy, transfer } from 'comlink';
import { type IngestBatchResult } from '../workers/ingest-protocol.ts';
import { DocStatus, skipMessage, tooLargeMessage, tooShortMessage } from '../core/documents/document-status.ts';
import { canShareMemory, createClaimBuffer } from '../workers/claimed-hashes.ts';
import { abortError, isAbortError } from '../workers/worker-bridge.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { collectFromDrop, collectFromFileList, type CollectedFiles, type DropSnapshot } from './collect-files.ts';
import { estimateRate } from './progress-meter.ts';
import { emptyGroups, type DocNote, type Grouping, type ScanDocs, type ScanResult, type SkippedFile } from './scan-result.ts';
import {
  concatSets,
  decideNearDuplicates,
  noNearDuplicates,
  searchCandidates,
  searchDocs,
} from './near-duplicate-search.ts';
import type { Candidates, SearchCorpus } from './search-corpus.ts';
import { installDocumentFrequencies } from './document-frequency-pass.ts';
import type { PackedSets } from '../workers/ingest-protocol.ts';
import type { PairList } from '../core/index/pair-list.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { defaultK } from '../core/quality/defaults.ts';
import type { ScanPhase, ScanProgress, ScanSnapshot, ScanStore } from './scan-store.ts';
import { feedFiles } from './batch-feeder.ts';
import { collectFromHandles, dropHandles, feedIdBatches, openHandlesInWorkers } from './handle-source.ts';
import type { ScanHooks } from './scan-hooks.ts';
import { recordPhase } from './phase-timing.ts';

/** Where a scan's files come from. */
export type ScanSource =
  /** `sync`: the files of a folder the person chose; the saved corpus follows the folder (see ScanHooks.onStart). */
  | { kind: 'file-list'; files: ArrayLike<File>; sync?: boolean }
  | { kind: 'drop'; drop: DropSnapshot }
  /** A folder (or files) given as File System Access handles: the ingest workers walk and read them (handle-source.ts). */
  | { kind: 'handles'; handles: FileSystemHandle[]; sync?: boolean }
  /**
   * Files already collected (a rescan with other settings, the CLI). `pairs`: candidate pairs found
   * outside (doc ids = positions in `collected`), used instead of the scan's own search.
   */
  | { kind: 'collected'; collected: CollectedFiles; pairs?: PairList };

/** What a regroup may change; absent fields keep the store's current value. */
export interface RegroupOptions {
  k?: number;
  similarityThreshold?: number;
  grouping?: Grouping;
  /** Documents marked as references (replaces the list; see buildDuplicateRelation). */
  pinned?: number[];
}

export interface ScanSession {
  /** Starts a scan (cancelling one that is running). Resolves when it has ended, however it ended. */
  start(source: ScanSource): Promise<void>;
  /** Cancels the running scan; the store says 'cancelled' before this returns. */
  cancel(): void;
  /** Stops the running scan for a reason the person must read (state 'cancelled', `stopped` = reason). */
  stop(reason: string): void;
  /**
   * Regroups the current result without fingerprinting again: the candidate search at the new k runs
   * in the index worker, only pairs never measured before are verified, then grouping; the store's
   * `regrouping` is true meanwhile and `result` is replaced at the end. Calls made while one runs are
   * coalesced (the latest options win). Without a result (or during a scan) it only sets the values
   * the next scan uses. Resolves when the store shows the new groups.
   */
  regroup(options: RegroupOptions): Promise<void>;
  /**
   * Scans the last scan's files again with new fingerprint settings (features, weights, stop words):
   * fingerprints depend on them, so this is a full scan. Without an earlier scan it only stores them.
   */
  rescan(settings: SimHashSettings): Promise<void>;
  /**
   * Takes over a result grouped outside a scan (a restored or merged saved corpus) with the search
   * state behind it, so `regroup` works on it exactly as after a scan. Ignored while a scan runs.
   */
  adopt(search: { corpus: SearchCorpus; candidates: Candidates; result: ScanResult }): void;
  /**
   * Shows a result grouped outside a scan (a restored saved corpus) as 'done' and adopts its search
   * state. Ignored while a scan runs (the scan's result wins). This session is the only writer of the
   * scan state (the app root's data-scan-state).
   */
  show(search: { corpus: SearchCorpus; candidates: Candidates; result: ScanResult }): void;
  /** Cancels a running scan and forgets the result on show (the saved corpus was cleared): 'idle'. */
  reset(): void;
}

const PROGRESS_INTERVAL_MS = 100;
/** A batch closes at this many bytes or files: small enough to spread over the pool, big enough to amortize a message. */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;
/** Concurrent main-thread reads: enough to hide the per-file latency of the browser's blob reads. */
const READ_CONCURRENCY = 32;
/**
 * How much memory a scan may spend on keeping feature sets from fingerprinting, so that verifying a
 * candidate pair needs no second read of its files (see verify-candidates.ts `verifyCandidates`).
 * A set costs about 2.9 bytes per distinct feature (Rice-coded, core/groups/feature-set-codec.ts):
 * about 4.4 kB for a 10 kB English document with word 3-shingles, 0.4 bytes per byte of text, so
 * 1 GB of such text fits. Once the budget is spent, later documents are read again if they are candidates.
 */
export const KEPT_SETS_BUDGET_BYTES = 512 * 1024 * 1024;

/** Allocates the per-doc arrays for `collected` (doc id = position in the collected list). */
function allocateDocs(collected: CollectedFiles): ScanDocs {
  const n = collected.files.length;
  return {
    count: n,
    paths: collected.paths,
    files: collected.files,
    ...(collected.roots ? { roots: collected.roots } : {}),
    sizes: new Float64Array(n),
    modified: new Float64Array(n),
    status: new Uint8Array(n),
    flags: new Uint8Array(n),
    hi: new Uint32Array(n),
    lo: new Uint32Array(n),
    words: new Uint32Array(n),
    hashHi: new Uint32Array(n),
    hashLo: new Uint32Array(n),
  };
}

/** Scatters one batch's results (for docs `ids`, in batch order) into the scan's arrays. */
function storeBatch(docs: ScanDocs, ids: readonly number[], r: IngestBatchResult & { files?: Array<File | null> }, skipped: SkippedFile[], notes: DocNote[]): void {
  for (let j = 0; j < ids.length; j++) {
    const d = ids[j];
    // Read through a handle, a file whose bytes the kept contents miss: the File the worker opened.
    const opened = r.files?.[j];
    if (opened) docs.files[d] = opened;
    docs.sizes[d] = r.sizes[j];
    if (docs.modified && r.modified) docs.modified[d] = r.modified[j];
    docs.status[d] = r.status[j];
    docs.flags[d] = r.flags[j];
    docs.hi[d] = r.hi[j];
    docs.lo[d] = r.lo[j];
    docs.words[d] = r.words[j];
    docs.hashHi[d] = r.hashHi[j];
    docs.hashLo[d] = r.hashLo[j];
  }
  for (const s of r.skipped) {
    const docId = ids[s.index];
    skipped.push({ docId, path: docs.paths[docId], size: docs.sizes[docId], reason: s.reason, message: s.message });
  }
  for (const n of r.notes) notes.push({ docId: ids[n.index], path: docs.paths[ids[n.index]], message: n.message });
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Creates the session that writes into `store` and runs on `workers`; `hooks` let persistence take part. */
export function createScanSession(store: ScanStore, workers: ScanWorkers, hooks: ScanHooks = {}): ScanSession {
  let current: AbortController | null = null;
  /** The search state of the result on show (for regroups) and the files it came from (for rescans). */
  let last: { corpus: SearchCorpus; candidates: Candidates; result: ScanResult; adopted?: boolean } | null = null;
  let lastCollected: CollectedFiles | null = null;
  /** The search over what a cancelled scan finished, running after the cancel; a new scan aborts it. */
  let afterCancel: AbortController | null = null;

  function cancel(reason: string | null = null): void {
    if (!current) return;
    const controller = current;
    current = null;
    controller.abort(abortError());
    // Hard cancel: the workers die now; the pool starts fresh ones for the next scan.
    workers.ingest.terminate();
    workers.index.terminate();
    store.update({ state: 'cancelled', stopped: reason });
  }

  async function run(source: ScanSource, controller: AbortController): Promise<void> {
    const signal = controller.signal;
    const isCurrent = () => current === controller;
    const t0 = performance.now();
    const { k: chosenK, kAuto, settings, similarityThreshold, grouping } = store.getSnapshot();
    let k = chosenK;
    let smallSets: PackedSets[] = [];
    /** Per doc: its encoded feature set from fingerprinting (see KEPT_SETS_BUDGET_BYTES). */
    let keptSets: Array<Uint32Array | undefined> = [];
    let keptBytes = 0;
    let phase: ScanPhase = 'listing';
    let filesDone = 0;
    let filesTotal = 0;
    let filesListedOnly = 0;
    let bytesDone = 0;
    let filesRead = 0;
    let bytesRead = 0;
    let fingerprintStart = 0;
    const inflightBytes = new Map<number, number>();
    const publish = () => {
      if (!isCurrent()) return;
      const now = performance.now();
      let bytes = bytesDone;
      for (const b of inflightBytes.values()) bytes += b;
      // Workers start during 'reading' (while files are still being read), so the rate counts from then.
      const working = fingerprintStart > 0 && (phase === 'reading' || phase === 'fingerprinting');
      // Sizes are learnt by reading (asking for them up front would block, see read-file-bytes.ts):
      // until every file is read, the total is extrapolated from the files read so far.
      const bytesTotalKnown = filesRead === filesTotal;
      const bytesTotal = bytesTotalKnown ? bytesRead : filesRead > 0 ? (bytesRead / filesRead) * filesTotal : 0;
      const rate = working ? estimateRate(bytes, bytesTotal, now - fingerprintStart) : { bytesPerSecond: 0, secondsLeft: null };
      const progress: ScanProgress = {
        phase,
        filesDone,
        filesTotal,
        filesListedOnly,
        bytesDone: bytes,
        bytesTotal,
        bytesTotalKnown,
        bytesPerSecond: rate.bytesPerSecond || store.getSnapshot().progress?.bytesPerSecond || 0,
        secondsLeft: rate.secondsLeft,
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
    const notes: DocNote[] = [];
    const timings = { readingMs: 0, fingerprintingMs: 0, indexingMs: 0, groupingMs: 0, totalMs: 0 };
    const partialResult = (): ScanResult | null =>
      docs && {
        settings,
        docs,
        skipped,
        notes,
        representative: new Int32Array(docs.count).fill(-1),
        exactGroups: emptyGroups(),
        ...noNearDuplicates(docs.count, k, similarityThreshold, grouping),
        partial: true,
        timings: { ...timings, totalMs: performance.now() - t0 },
      };

    try {
      // Listing: the file list (walking dropped folders), hidden files left out.
      setPhase('listing');
      const unreadable: SkippedFile[] = [];
      const handles = source.kind === 'handles' ? source.handles : source.kind === 'drop' ? await dropHandles(source.drop) : null;
      const collected =
        source.kind === 'collected'
          ? source.collected
          : source.kind === 'file-list'
            ? await collectFromFileList(source.files, signal)
            : handles
              ? await collectFromHandles(workers, handles, signal)
              : source.kind === 'drop'
                ? await collectFromDrop(source.drop, signal, (path, error) =>
                    unreadable.push({ docId: -1, path, size: 0, reason: 'unreadable', message: `Could not be read (${errorMessage(error)}).` }),
                  )
                : { files: [], paths: [], hidden: [] };
      signal.throwIfAborted();
      // Read through handles: every ingest worker gets them, and opens and reads the files itself.
      const handleToken = collected.roots ? await openHandlesInWorkers(workers, collected.roots, signal) : null;
      recordPhase('listing', t0, performance.now(), { files: collected.paths.length, leftOut: collected.hidden.length, handles: handleToken === null ? 0 : 1 });
      lastCollected = collected;
      skipped.push(...collected.hidden, ...unreadable);
      filesTotal = collected.files.length;
      filesListedOnly = collected.hidden.length + unreadable.length;
      // k follows the corpus size (this scan's files and the corpus they join) until the person sets one.
      if (kAuto) {
        k = defaultK(filesTotal + (hooks.corpusSize?.() ?? 0));
        store.update({ k });
      }
      const scanDocs = allocateDocs(collected);
      docs = scanDocs;
      keptSets = new Array<Uint32Array | undefined>(scanDocs.count);
      if (hooks.onStart) await hooks.onStart(scanDocs, signal, skipped.slice(), 'sync' in source && source.sync === true);
      signal.throwIfAborted();
      if (settings.weights === 'tfidf') {
        // TF-IDF needs the corpus' document frequencies before any fingerprint: a first reading pass.
        await installDocumentFrequencies(workers, signal, scanDocs, settings, (bytes) => inflightBytes.set(-1, bytes / 2), handleToken);
        inflightBytes.delete(-1);
        signal.throwIfAborted();
      }
      fingerprintStart = performance.now();
      setPhase('reading');

      // The feeder reads small files here and batches their bytes; larger files go to a worker alone.
      const claims = canShareMemory() ? createClaimBuffer(filesTotal) : undefined;
      const keepBytes = hooks.keepsBytes?.() ?? false;
      const skip = (d: number, size: number, reason: 'unreadable' | 'too-large', status: number, message: string) => {
        filesRead++;
        scanDocs.sizes[d] = size;
        scanDocs.status[d] = status;
        skipped.push({ docId: d, path: scanDocs.paths[d], size, reason, message });
        filesDone++;
        // Skips the page finds itself are part of the corpus too: saved like a batch, so a reload lists them.
        hooks.onBatch?.(scanDocs, [d]);
      };
      /** Takes in one batch's result (doc ids `ids`, in batch order). */
      const received = (ids: number[], result: IngestBatchResult & { files?: Array<File | null> }) => {
        storeBatch(scanDocs, ids, result, skipped, notes);
        if (result.kept) {
          const { docs: at, offsets, words } = result.kept;
          for (let i = 0; i < at.length; i++) keptSets[ids[at[i]]] = words.subarray(offsets[i], offsets[i + 1]);
          keptBytes += words.byteLength;
        }
        // Small documents' feature sets stay for the short-document join (batch indexes -> doc ids).
        if (result.sets.docs.length > 0) {
          for (let i = 0; i < result.sets.docs.length; i++) result.sets.docs[i] = ids[result.sets.docs[i]];
          smallSets.push(result.sets);
        }
        hooks.onBatch?.(scanDocs, ids, result.contents);
        filesDone += ids.length;
      };
      const onSent = () => {
        timings.readingMs = performance.now() - t0;
        setPhase('fingerprinting');
      };
      const maxInFlight = workers.ingest.size * 2;
      if (handleToken !== null) {
        // The workers open and read the files; sizes are learnt as each batch comes back.
        await feedIdBatches(
          filesTotal,
          async (ids) => {
            const keepSets = keptBytes < KEPT_SETS_BUDGET_BYTES;
            const paths = ids.map((d) => scanDocs.paths[d]);
            const result = await workers.ingest.run(signal, (api) => api.ingestHandles(handleToken, paths, settings, { claims, keepBytes, keepSets }));
            received(ids, result);
            let bytes = 0;
            for (let j = 0; j < ids.length; j++) if (result.status[j] !== DocStatus.unreadable) bytes += result.sizes[j];
            filesRead += ids.length;
            bytesRead += bytes;
            bytesDone += bytes;
          },
          { batchFiles: BATCH_FILES, maxInFlight, signal },
          onSent,
        );
      } else {
        await feedFiles(
          scanDocs.files,
          scanDocs.paths,
          {
            send: async ({ ids, items, buffers, bytes, large }) => {
              // Only a batch holding a large file reports bytes while it runs; others finish within a blink.
              const key = ids[0];
              const onProgress = large ? proxy((read: number) => void inflightBytes.set(key, read)) : undefined;
              // Decided when the batch is sent: batches in flight may take the budget a little past its end.
              const keepSets = keptBytes < KEPT_SETS_BUDGET_BYTES;
              const result = await workers.ingest.run(signal, (api) => api.ingestBatch(transfer(items, buffers), settings, { claims, keepBytes, keepSets }, onProgress));
              inflightBytes.delete(key);
              received(ids, result);
              bytesDone += large ? result.sizes[0] : bytes;
              if (large) {
                bytesRead += result.sizes[0];
                filesRead++;
              }
            },
            read: (_d, bytes) => {
              filesRead++;
              bytesRead += bytes;
            },
            unreadable: (d, message) => skip(d, 0, 'unreadable', DocStatus.unreadable, skipMessage('unreadable', message)),
            // Never fingerprinted in part (a part would call files that differ past it identical).
            tooLarge: (d, size) => skip(d, size, 'too-large', DocStatus.tooLarge, tooLargeMessage(size)),
          },
          { readLimit: workers.readLimit, maxInFlight, signal, batchBytes: BATCH_BYTES, batchFiles: BATCH_FILES, readConcurrency: READ_CONCURRENCY },
          onSent,
        );
      }
      signal.throwIfAborted();
      timings.fingerprintingMs = performance.now() - t0 - timings.readingMs;
      recordPhase('reading', t0, t0 + timings.readingMs, { files: filesTotal, bytes: bytesRead });
      recordPhase('fingerprinting', t0 + timings.readingMs, t0 + timings.readingMs + timings.fingerprintingMs, {
        keptSets: keptSets.reduce((n) => n + 1, 0),
        keptSetBytes: keptBytes,
      });

      // Indexing (exact groups, candidates within k), verification and grouping, off the main thread.
      const tIndex = performance.now();
      setPhase('indexing');
      const sets = concatSets(smallSets);
      smallSets = [];
      const external = source.kind === 'collected' ? source.pairs : undefined;
      const found = await searchDocs(workers, signal, docs, settings, sets, { k, similarityThreshold, grouping, keptSets, external }, () => setPhase('grouping'));
      keptSets = [];
      signal.throwIfAborted();
      const tEnd = performance.now();
      timings.indexingMs = found.indexingMs;
      timings.groupingMs = tEnd - tIndex - found.indexingMs;
      timings.totalMs = tEnd - t0;
      // Copies now carry their original's status and fingerprint; short copies join the skipped list.
      for (let d = 0; d < docs.count; d++) {
        if (docs.status[d] === DocStatus.copy && found.docs.status[d] === DocStatus.tooShort) {
          skipped.push({ docId: d, path: docs.paths[d], size: docs.sizes[d], reason: 'too-short', message: tooShortMessage(found.docs.words[d]) });
        }
      }
      docs = found.docs;
      const result: ScanResult = {
        settings,
        docs,
        skipped,
        notes,
        representative: found.representative,
        exactGroups: found.exactGroups,
        ...found.near,
        partial: false,
        timings,
        ...(found.mismatched ? { externalMismatched: found.mismatched } : {}),
      };
      const own = { corpus: found.corpus, candidates: found.candidates, result };
      last = own;
      if (hooks.finish) setPhase('saving');
      // The corpus on show as a whole (the scan merged into the saved corpus): later regroups work on it.
      const shown = hooks.finish ? await hooks.finish(own, signal) : own;
      if (hooks.finish) recordPhase('finish', tEnd, performance.now());
      clearInterval(timer);
      if (!isCurrent()) return;
      publish();
      current = null;
      last = shown;
      store.update({ state: 'done', result: shown.result, pinned: shown.result.pinned });
    } catch (error) {
      clearInterval(timer);
      hooks.onEnd?.(isAbortError(error) || signal.aborted ? 'cancelled' : 'error', errorMessage(error));
      if (isAbortError(error) || signal.aborted) {
        // cancel() already said 'cancelled'; keep what was finished (only if no newer scan began),
        // and search it in fresh workers (cancel terminated the old ones) unless a new scan starts.
        if (store.getSnapshot().state === 'cancelled' && !current) {
          const partial = partialResult();
          store.update({ result: partial });
          if (partial) void searchPartial(partial, concatSets(smallSets), keptSets);
        }
        return;
      }
      if (!isCurrent()) return;
      current = null;
      workers.ingest.terminate();
      workers.index.terminate();
      store.update({ state: 'error', error: `The scan stopped: ${errorMessage(error)}`, result: partialResult() });
    }
  }

  /** Searches what a cancelled scan finished (exact and near-duplicates), publishing it still marked partial. */
  async function searchPartial(partial: ScanResult, sets: PackedSets, keptSets: ReadonlyArray<Uint32Array | undefined>): Promise<void> {
    const controller = new AbortController();
    afterCancel = controller;
    try {
      const { k, similarityThreshold, grouping } = partial;
      const found = await searchDocs(workers, controller.signal, partial.docs, partial.settings, sets, { k, similarityThreshold, grouping, keptSets });
      if (afterCancel !== controller || current) return;
      const result: ScanResult = { ...partial, docs: found.docs, representative: found.representative, exactGroups: found.exactGroups, ...found.near };
      last = { corpus: found.corpus, candidates: found.candidates, result };
      store.update({ result });
    } catch (error) {
      // Aborted by a new scan, or failed: the unsearched partial result stays on show.
      if (!isAbortError(error) && afterCancel === controller && !current) store.update({ error: `Searching the finished files failed: ${errorMessage(error)}` });
    } finally {
      if (afterCancel === controller) afterCancel = null;
    }
  }

  /**
   * Search state for a result the session did not compute (a restored corpus): representatives from
   * the result, its verified pairs' Jaccards as the cache. No small-document feature sets are known,
   * so the short-document join only sees pairs the fingerprint search proposes.
   */
  function adoptResult(result: ScanResult): NonNullable<typeof last> {
    const { docs } = result;
    const reps: number[] = [];
    for (let d = 0; d < docs.count; d++) if (result.representative[d] === d && docs.status[d] === DocStatus.ok) reps.push(d);
    const v = result.verified;
    const corpus: SearchCorpus = {
      docs,
      settings: result.settings,
      reps: Uint32Array.from(reps),
      representative: result.representative,
      smallSets: { docs: new Uint32Array(0), offsets: new Uint32Array(1), keys: new Uint32Array(0) },
      known: { a: v.a.slice(0, v.count), b: v.b.slice(0, v.count), jaccard: Float64Array.from(v.jaccard.subarray(0, v.count)), count: v.count },
    };
    // k = -1: never equal to a requested k, so the first regroup searches candidates.
    const candidates: Candidates = { k: -1, pairs: { a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), count: 0 }, jaccard: new Float64Array(0), histogram: result.histogram };
    return { corpus, candidates, result, adopted: true };
  }

  let regroupRunning: Promise<void> | null = null;
  let regroupWanted = false;
  /** One regroup at a time; requests that arrive meanwhile are folded into one more round. */
  async function regroupLoop(): Promise<void> {
    while (regroupWanted) {
      regroupWanted = false;
      const target = last;
      if (!target || current) break;
      const { k, similarityThreshold, grouping, pinned } = store.getSnapshot();
      const controller = new AbortController();
      afterCancel = controller;
      try {
        const candidates = k === target.candidates.k ? target.candidates : await searchCandidates(workers, controller.signal, target.corpus, k);
        const near = await decideNearDuplicates(workers, controller.signal, target.corpus, candidates, { similarityThreshold, grouping, pinned });
        const result: ScanResult = { ...target.result, ...near };
        if (last !== target || current) break;
        last = { ...target, candidates, result };
        store.update({ result });
        // The same documents, regrouped: the saved corpus keeps the new view (not a cancelled scan's part).
        if (!result.partial) hooks.regrouped?.(last);
      } catch (error) {
        if (isAbortError(error) || last !== target || current) break;
        store.update({ error: `Regrouping failed: ${errorMessage(error)}` });
      } finally {
        if (afterCancel === controller) afterCancel = null;
      }
    }
    store.update({ regrouping: false });
  }

  return {
    cancel: () => cancel(),
    stop: (reason) => cancel(reason),
    regroup(options) {
      const patch: Partial<ScanSnapshot> = {};
      if (options.k !== undefined && options.k !== store.getSnapshot().k) {
        // A k the person chose: it no longer follows the corpus size.
        patch.k = options.k;
        patch.kAuto = false;
      }
      if (options.similarityThreshold !== undefined) patch.similarityThreshold = options.similarityThreshold;
      if (options.grouping !== undefined) patch.grouping = options.grouping;
      if (options.pinned !== undefined) patch.pinned = options.pinned;
      const shownResult = store.getSnapshot().result;
      if (!current && shownResult && (!last || (last.adopted && last.result !== shownResult))) {
        // A result this session did not search (restored from storage): regroup over it as it is.
        last = adoptResult(shownResult);
      }
      if (!last || current) {
        store.update(patch);
        return Promise.resolve();
      }
      store.update({ ...patch, regrouping: true });
      regroupWanted = true;
      regroupRunning ??= regroupLoop().finally(() => (regroupRunning = null));
      return regroupRunning;
    },
    adopt(search) {
      if (current) return;
      last = { corpus: search.corpus, candidates: search.candidates, result: search.result };
    },
    show(search) {
      if (current) return;
      last = { corpus: search.corpus, candidates: search.candidates, result: search.result };
      store.update({ state: 'done', result: search.result, progress: null, error: null });
    },
    reset() {
      cancel();
      afterCancel?.abort(abortError());
      afterCancel = null;
      last = null;
      lastCollected = null;
      store.update({ state: 'idle', result: null, progress: null, error: null });
    },
    rescan(settings) {
      store.update({ settings });
      if (!lastCollected) return Promise.resolve();
      return this.start({ kind: 'collected', collected: lastCollected });
    },
    start(source) {
      if (current) cancel();
      afterCancel?.abort(abortError());
      afterCancel = null;
      last = null;
      const controller = new AbortController();
      current = controller;
      store.update({ state: 'scanning', progress: null, result: null, error: null, stopped: null, pinned: [] });
      return run(source, controller);
    },
  };
}
