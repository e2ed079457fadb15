/**
 * Persistence of the scanned corpus in the app: commits each ingest batch as the scan goes (under the
 * writer lock, with a scan-session marker), restores the corpus and its groups on load, merges new
 * scans into the restored corpus, clears and resets local data, reports quota, and keeps tabs in step.
 * Framework-free: the corpus panel reads its snapshot through `subscribe`/`getSnapshot`.
 */
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { addBatch, clearCorpus, findStoredPaths, getCorpusSummary, loadCorpus, removeDocuments } from '../storage/corpus-repository.ts';
import type { NewDocument } from '../storage/corpus-repository.ts';
import { configureStorage, deleteCorpusDatabase } from '../storage/database.ts';
import { beginScanSession, endScanSession, findUnfinishedScan } from '../storage/scan-sessions.ts';
import { getSettings, putSettings, settingsChange } from '../storage/settings-repository.ts';
import type { CorpusSettings } from '../storage/settings-repository.ts';
import { isStorageError } from '../storage/storage-error.ts';
import type { StorageErrorKind } from '../storage/storage-error.ts';
import { getStorageUsage, requestPersistentStorage } from '../storage/storage-quota.ts';
import type { StorageUsage } from '../storage/storage-quota.ts';
import { createCorpusChannel, withWriterLock } from '../storage/tab-coordination.ts';
import { getVerifiedPairs, putVerifiedPairs } from '../storage/verified-pairs.ts';
import { permutedEntries, queryStoredTables } from '../storage/index-shards.ts';
import { writePermutedIndex } from '../storage/index-shards.ts';
import { deleteTableSet, readTableLayout } from '../storage/permuted-shards.ts';
import type { TableEntries } from '../storage/permuted-shards.ts';
import { DocStatus } from '../workers/ingest-protocol.ts';
import type { VerifiedPairs } from '../storage/verified-pairs.ts';
import type { CorpusChangeReason } from '../storage/tab-coordination.ts';
import { skipMessage } from '../workers/ingest-protocol.ts';
import type { SkipReason } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { checkFile, planStoredTables, tableCandidates } from './check-against-corpus.ts';
import type { CheckResult, CheckTools } from './check-against-corpus.ts';

export type { CheckResult };
import type { ScanHooks } from './scan-hooks.ts';
import type { GroupedCorpus, RestorePhase } from './restore-corpus.ts';
import type { Grouping, ScanDocs, ScanResult, SkippedFile } from './scan-result.ts';
import { mergeCorpus } from './merge-corpus.ts';
import type { CorpusPart } from './merge-corpus.ts';
import { docsFromCorpus, groupDocs, groupFromSavedPairs, loadSmallSets, pairsAtPositions, restoreFiles, savedPairsFit, storedDocumentOf, verifiedByStorageId } from './restore-corpus.ts';
import type { ScanSession } from './scan-session.ts';
import type { ScanStore } from './scan-store.ts';
import { yieldToEventLoop } from './yield-to-event-loop.ts';

/** What the corpus panel shows. */
export interface PersistenceSnapshot {
  /** 'restoring' while the saved corpus loads; 'off' when this browser cannot store anything. */
  status: 'starting' | 'restoring' | 'ready' | 'off' | 'error';
  documentCount: number;
  usage: StorageUsage | null;
  keepContents: boolean;
  /** A scan left 'running' by a closed tab: how far it got. */
  interrupted: { id: number; label: string; committed: number; total: number } | null;
  /** A passing notice (another tab changed the corpus, a scan was not saved, ...). */
  notice: string | null;
  /** A storage failure the person must act on; `kind` chooses the action (e.g. reset local data). */
  error: { kind: StorageErrorKind | 'other'; message: string } | null;
  /** Results of the last "Check files against the corpus". */
  checks: CheckResult[] | null;
  checking: boolean;
  /** While restoring: what runs and since when (performance.now()), refreshed every second. */
  restore: { phase: RestorePhase; phaseStartedMs: number; startedMs: number; nowMs: number } | null;
  /** How checks and added files find near candidates: the stored permuted tables or a linear scan. */
  index: { kind: 'tables'; tableCount: number; k: number } | { kind: 'linear' } | null;
  /** Writes still running behind the shown result (queued batches, verified pairs, k, tables). */
  saving: boolean;
  /**
   * Candidate pairs between new files and saved documents whose contents are not kept: they could not
   * be measured, so they are neither accepted nor recorded (a Jaccard of 0 would be a wrong verdict).
   */
  unmeasured: number;
}


/** The persistence controller the app wires into the scan session and the corpus panel. */
export interface CorpusPersistence {
  readonly hooks: ScanHooks;
  subscribe(listener: () => void): () => void;
  getSnapshot(): PersistenceSnapshot;
  /** Gives the controller the session (to cancel on a quota failure, and to resume scans). */
  attach(session: ScanSession): void;
  /** Restores the saved corpus (call once on load). */
  start(): Promise<void>;
  /** Rescans only the files of `files` not yet saved (after an interrupted scan). */
  resume(files: File[]): Promise<void>;
  /** Keeps what the interrupted scan saved and forgets the marker. */
  keepInterrupted(): Promise<void>;
  clear(): Promise<void>;
  /** Deletes the whole database (also when it is damaged or from a newer version). */
  resetLocalData(): Promise<void>;
  setKeepContents(keep: boolean): Promise<void>;
  /** Removes documents by their position in the current result. */
  remove(positions: readonly number[]): Promise<void>;
  /** Matches files against the corpus without adding them. */
  check(files: File[]): Promise<void>;
  dismissNotice(): void;
  /** Stops listening to other tabs (the page goes away). */
  close(): void;
}

const NO_ID = 0xffffffff;
/** How long a scan waits for the writer lock before it runs unsaved (another tab is scanning). */
const LOCK_WAIT_MS = 3000;

/** The current corpus in memory: the shown result, each position's storage id (NO_ID if unsaved), its search state. */
type Base = CorpusPart;

/** Creates the controller over the scan store and workers; nothing is read until `start`. */
export function createCorpusPersistence(scanStore: ScanStore, workers: ScanWorkers): CorpusPersistence {
  let snapshot: PersistenceSnapshot = {
    status: 'starting',
    documentCount: 0,
    usage: null,
    keepContents: true,
    interrupted: null,
    notice: null,
    error: null,
    checks: null,
    checking: false,
    restore: null,
    index: null,
    saving: false,
    unmeasured: 0,
  };
  const listeners = new Set<() => void>();
  const update = (patch: Partial<PersistenceSnapshot>) => {
    snapshot = { ...snapshot, ...patch };
    for (const l of [...listeners]) l();
  };
  let session: ScanSession | null = null;
  let base: Base | null = null;
  /** The last scan's own documents and the corpus it was merged into (regroups merge again from there). */
  let lastOwn: { docs: ScanDocs; storageIds: Uint32Array; before: Base | null } | null = null;
  let savedSettings: CorpusSettings | null = null;
  /** The stored permuted tables (null: none; checks scan linearly). New batches are merged into them. */
  let tables: { k: number; blocks: number; tableCount: number } | null = null;
  const channel = createCorpusChannel();

  configureStorage({
    events: {
      onBlocked: () => update({ notice: 'Another SimSift tab keeps the saved corpus open. Close or reload it to continue.' }),
      onVersionChange: () => update({ notice: 'Another tab is changing the saved corpus; this tab reconnects when needed.' }),
      onTerminated: () => update({ error: { kind: 'closed', message: 'The browser closed the saved corpus. Reload this page.' } }),
    },
  });

  const fail = (error: unknown) => {
    if (isStorageError(error)) {
      const off = error.kind === 'unavailable';
      update({ status: off ? 'off' : 'error', error: { kind: error.kind, message: error.userMessage } });
    } else {
      update({ status: 'error', error: { kind: 'other', message: `The saved corpus could not be used: ${String(error)}` } });
    }
  };
  const refreshUsage = async () => {
    try {
      const [usage, summary] = await Promise.all([getStorageUsage(), getCorpusSummary()]);
      update({ usage, documentCount: summary.documentCount });
    } catch {
      // Usage is informative only.
    }
  };
  const notify = (reason: CorpusChangeReason) => {
    getCorpusSummary()
      .then((s) => channel.notify(reason, s.revision))
      .catch(() => undefined);
  };

  // ---- the scan in progress ----
  /** The last scan's writes that finish behind its results (see finish); never rejects. */
  let saving: Promise<void> = Promise.resolve();
  // Writes that finish behind the shown result are counted, so the panel can say "Saving…" and a
  // person (or a test) knows when a reload would keep everything.
  let pendingSaves = 0;
  const track = (write: Promise<unknown>): void => {
    if (pendingSaves++ === 0) update({ saving: true });
    void write
      .catch(() => undefined)
      .then(() => {
        if (--pendingSaves === 0) update({ saving: false });
      });
  };
  let writing: {
    sessionId: number;
    release: () => void;
    chain: Promise<void>;
    nextId: number;
    storageIdOf: Uint32Array;
    failed: boolean;
    rebuild: boolean;
    /** The k of this scan, and whether a batch was committed without table entries (tables then rebuilt). */
    k: number;
    tablesMissed: boolean;
  } | null = null;

  /**
   * Takes the writer lock, waiting at most `waitMs` (a restore or another tab's small write holds it
   * for moments; a scan in another tab holds it for long); resolves with a release function or null.
   */
  const tryLock = (waitMs = 0): Promise<(() => void) | null> =>
    new Promise((resolve) => {
      void withWriterLock(
        () =>
          new Promise<void>((release) => {
            resolve(release);
          }),
        waitMs > 0 ? { wait: true, signal: AbortSignal.timeout(waitMs) } : { wait: false },
      ).then(
        (outcome) => {
          if (!outcome.acquired) resolve(null);
        },
        () => resolve(null),
      );
    });

  const hooks: ScanHooks = {
    async onStart(docs) {
      // The last scan's writes may still be committing (see finish): this scan writes after them.
      await saving;
      if (snapshot.status === 'off' || (snapshot.error && snapshot.error.kind !== 'quota')) return;
      const { settings, k } = scanStore.getSnapshot();
      const next: CorpusSettings = { fingerprint: settings, k, keepContents: snapshot.keepContents };
      // Only other fingerprint settings make the saved corpus unusable; another k only regroups it.
      const change = settingsChange(savedSettings, next);
      let rebuild = false;
      if (change === 'fingerprints' && base) {
        // Fingerprints made with other settings cannot be mixed: the saved corpus is rebuilt from this
        // scan. A rescan of the whole corpus (the settings panel's) loses nothing; anything smaller asks.
        const kept = base.result.docs.count;
        if (docs.count < kept) {
          const ok = globalThis.confirm?.(
            `These settings differ from the ones the saved corpus (${kept.toLocaleString('en')} documents) was made with. ` +
              `Rebuild the saved corpus from the ${docs.count.toLocaleString('en')} files of this scan? The other saved documents are removed.`,
          );
          if (ok === false) {
            session?.cancel();
            throw new DOMException('The person kept the saved corpus.', 'AbortError');
          }
        }
        rebuild = true;
      }
      const release = await tryLock(LOCK_WAIT_MS);
      if (!release) {
        update({ notice: 'Another SimSift tab is saving the corpus right now: this scan is shown but not saved.' });
        return;
      }
      try {
        if (rebuild || (change === 'fingerprints' && savedSettings)) {
          await clearCorpus();
          base = null;
          tables = null;
        }
        await putSettings(next);
        savedSettings = next;
        const summary = await getCorpusSummary();
        const label = docs.paths[0]?.split('/')[0] ?? 'files';
        const sessionId = await beginScanSession({ label, total: docs.count });
        writing = { sessionId, release, chain: Promise.resolve(), nextId: summary.nextId, storageIdOf: new Uint32Array(docs.count).fill(NO_ID), failed: false, rebuild, k, tablesMissed: false };
        update({ interrupted: null, error: null });
        void requestPersistentStorage().catch(() => null);
      } catch (error) {
        release();
        writing = null;
        fail(error);
      }
    },
    keepsBytes: () => writing !== null && snapshot.keepContents,
    onBatch(docs, ids, bytes) {
      const w = writing;
      if (!w || w.failed) return;
      const documents: NewDocument[] = [];
      const contents: { id: number; blob: Blob }[] = [];
      const fingerprinted: number[] = [];
      for (let j = 0; j < ids.length; j++) {
        const d = ids[j]!;
        const doc = storedDocumentOf(docs, d, w.nextId);
        if (!doc) continue;
        w.storageIdOf[d] = w.nextId++;
        documents.push(doc);
        if (doc.status === 'ok') fingerprinted.push(d);
        // The worker's Blob of the bytes, not the File: storing a File from a folder input costs a
        // synchronous metadata IPC on the main thread per file (see IngestBatchResult.contents).
        if (snapshot.keepContents) contents.push({ id: doc.id, blob: bytes?.[j] ?? docs.files[d]! });
      }
      if (documents.length === 0) return;
      // Stored tables for this k: the batch's entries are merged into their shards in its transaction.
      const t = tables && tables.k === w.k ? tables : null;
      const tableEntries = t && fingerprinted.length > 0 ? batchEntries(t, docs, fingerprinted, w.storageIdOf) : undefined;
      if (!t) w.tablesMissed = true;
      w.chain = w.chain.then(async () => {
        if (w.failed) return;
        try {
          await addBatch({ documents, contents, sessionId: w.sessionId, tableEntries });
        } catch (error) {
          w.failed = true;
          fail(error);
          // Stop cleanly: what was committed stays; this batch was rolled back as a whole.
          session?.cancel();
        }
      });
    },
    async finish(result, signal, search) {
      // A regroup of the last scan (same docs, new k/threshold/grouping): merge again with the corpus
      // as it was before that scan, not with the merged one (which already holds these documents).
      if (lastOwn && lastOwn.docs === result.docs) {
        const before = lastOwn.before;
        const merged = before ? await mergeInto(before, { result, storageIds: lastOwn.storageIds, search: search ?? null }, signal) : { result, storageIds: lastOwn.storageIds, search: search ?? null };
        base = merged;
        track(saving.then(() => saveVerified(merged)).then(() => syncTables(merged, false)));
        return merged.result;
      }
      const w = writing;
      // Storage ids are given as batches arrive (onBatch), so the result can show before the batches
      // still queued have committed: with kept contents those writes end well after the scan (100,000
      // files: ~20 s, Chromium writing one blob file per document). They finish behind the results;
      // a tab closed meanwhile keeps every committed batch and is offered the resume.
      const storageIds: Uint32Array = w ? w.storageIdOf : new Uint32Array(result.docs.count).fill(NO_ID);
      const before = w?.rebuild ? null : base;
      const merged = before ? await mergeInto(before, { result, storageIds, search: search ?? null }, signal) : { result, storageIds, search: search ?? null };
      lastOwn = { docs: result.docs, storageIds, before };
      base = merged;
      if (w) {
        saving = w.chain
          .then(() => endWriting(w, w.failed ? 'failed' : 'finished'))
          .then(() => saveVerified(merged))
          .then(() => syncTables(merged, w.failed || w.tablesMissed))
          .catch(() => undefined)
          .then(refreshUsage);
        track(saving);
      } else void refreshUsage();
      return merged.result;
    },
    onEnd(state, message) {
      const w = writing;
      if (!w) return;
      track(w.chain.then(() => endWriting(w, state === 'cancelled' ? (w.failed ? 'failed' : 'cancelled') : 'failed', message)).then(refreshUsage));
    },
  };

  async function endWriting(w: NonNullable<typeof writing>, state: 'finished' | 'cancelled' | 'failed', message?: string): Promise<void> {
    if (writing === w) writing = null;
    try {
      await endScanSession(w.sessionId, state, message);
    } catch {
      // A full quota can refuse even this small write; the marker then says 'running' and the next
      // load offers to resume, which is still right.
    } finally {
      w.release();
      notify('added');
    }
  }

  /** Saves the shown result's verified pairs for the next restore (skipped while another tab writes). */
  async function saveVerified(shown: Base): Promise<void> {
    try {
      await withWriterLock(
        async () => {
          const { revision } = await getCorpusSummary();
          await putVerifiedPairs(revision, verifiedByStorageId(shown.result, shown.storageIds, NO_ID));
          // The k on show (a regroup may have changed it) is the one the next load restores.
          if (savedSettings && savedSettings.k !== shown.result.k) {
            const next = { ...savedSettings, k: shown.result.k };
            await putSettings(next);
            savedSettings = next;
          }
        },
        // The scan's own lock is released asynchronously just before this: wait a little for it
        // (without waiting, the pairs of a scan were never saved), but not for another tab's scan.
        { wait: true, signal: AbortSignal.timeout(LOCK_WAIT_MS) },
      );
    } catch {
      // Only a speed-up for the next restore: without it the restore verifies again.
    }
  }

  /** The permuted-table entries of a batch's fingerprinted docs `ds` (storage ids from `idOf`). */
  function batchEntries(t: { k: number; blocks: number }, docs: ScanDocs, ds: readonly number[], idOf: Uint32Array): TableEntries[] {
    const hi = new Uint32Array(ds.length);
    const lo = new Uint32Array(ds.length);
    const ids = new Uint32Array(ds.length);
    ds.forEach((d, i) => {
      hi[i] = docs.hi[d]!;
      lo[i] = docs.lo[d]!;
      ids[i] = idOf[d]!;
    });
    return permutedEntries({ k: t.k, blocks: t.blocks }, hi, lo, ids);
  }

  /** Shows which index the checks use. */
  const publishIndex = () =>
    update({ index: tables ? { kind: 'tables', tableCount: tables.tableCount, k: tables.k } : base ? { kind: 'linear' } : null });

  /** Reads the stored table layout (after a restore or another tab's write). */
  async function loadTables(): Promise<void> {
    const layout = await readTableLayout();
    const params = layout?.params as { k?: unknown; blocks?: unknown } | undefined;
    tables =
      layout && typeof params?.k === 'number' && typeof params.blocks === 'number'
        ? { k: params.k, blocks: params.blocks, tableCount: layout.tableCount }
        : null;
  }

  /**
   * Keeps the stored tables in step with the shown corpus: written when `planStoredTables` says they
   * pay for its size and k (rebuilt when the plan changed or a batch was committed without entries),
   * deleted when they do not pay (checks then scan linearly). Skipped while another tab writes.
   */
  async function syncTables(shown: Base, incomplete: boolean): Promise<void> {
    const { docs, k } = shown.result;
    const positions: number[] = [];
    for (let p = 0; p < docs.count; p++) {
      if (shown.storageIds[p] !== NO_ID && docs.status[p] === DocStatus.ok && shown.result.representative[p] === p) positions.push(p);
    }
    const plan = planStoredTables(positions.length, k);
    const current = tables;
    if (plan && current && !incomplete && current.k === plan.k && current.blocks === plan.blocks) return publishIndex();
    if (!plan && !current) return publishIndex();
    try {
      await withWriterLock(
        async () => {
          if (!plan) {
            await deleteTableSet();
            tables = null;
            return;
          }
          const hi = new Uint32Array(positions.length);
          const lo = new Uint32Array(positions.length);
          const ids = new Uint32Array(positions.length);
          positions.forEach((p, i) => {
            hi[i] = docs.hi[p]!;
            lo[i] = docs.lo[p]!;
            ids[i] = shown.storageIds[p]!;
          });
          // Built in the index worker (1M documents: ~120-130 ms in Node, over the 100 ms a main-thread task may take).
          const index = await workers.index.call(undefined, (api) => api.buildTables({ hi, lo, k: plan.k, blocks: plan.blocks }));
          await writePermutedIndex(index, { ids });
          tables = { k: plan.k, blocks: plan.blocks, tableCount: plan.tableCount };
        },
        { wait: true, signal: AbortSignal.timeout(LOCK_WAIT_MS) },
      );
    } catch {
      // Only a speed-up for checks: without tables they scan linearly.
    }
    publishIndex();
  }

  /** The merge step (merge-corpus.ts) over the shown corpus; the panel hears how many pairs could not be measured. */
  async function mergeInto(before: Base, own: Base, signal: AbortSignal): Promise<Base> {
    const outcome = await mergeCorpus(workers, signal, before, own, groupingOptions(own.result));
    update({ unmeasured: outcome.unmeasured });
    return outcome.merged;
  }

  const groupingOptions = (r: Pick<ScanResult, 'settings' | 'k' | 'similarityThreshold' | 'grouping'>) => ({
    settings: r.settings,
    k: r.k,
    similarityThreshold: r.similarityThreshold,
    grouping: r.grouping,
  });

  /**
   * Loads the saved corpus and its groups into the scan store (state 'done' once restored). `carried`:
   * pairs verified before a change this tab made (a removal), whose Jaccards spare re-reading files.
   */
  async function restore(carried?: VerifiedPairs): Promise<void> {
    const t0 = performance.now();
    const phase = (p: RestorePhase) => {
      const now = performance.now();
      update({ restore: { phase: p, phaseStartedMs: now, startedMs: t0, nowMs: now } });
    };
    // The elapsed time ticks while the workers search (the main thread stays free).
    const ticker = setInterval(() => {
      if (snapshot.restore) update({ restore: { ...snapshot.restore, nowMs: performance.now() } });
    }, 1000);
    try {
      await restoreWithProgress(carried, t0, phase);
    } finally {
      clearInterval(ticker);
      update({ restore: null });
    }
  }

  async function restoreWithProgress(carried: VerifiedPairs | undefined, t0: number, phase: (p: RestorePhase) => void): Promise<void> {
    update({ status: 'restoring' });
    phase('loading the corpus');
    savedSettings = await getSettings();
    if (savedSettings) {
      scanStore.update({ settings: savedSettings.fingerprint, k: savedSettings.k });
      update({ keepContents: savedSettings.keepContents });
    }
    const summary = await getCorpusSummary();
    // A 'running' marker is an interrupted scan only if no tab holds the writer lock (is scanning).
    const release = await tryLock();
    let interrupted: PersistenceSnapshot['interrupted'] = null;
    if (release) {
      try {
        const unfinished = await findUnfinishedScan();
        if (unfinished && unfinished.id !== undefined) {
          interrupted = { id: unfinished.id, label: unfinished.label, committed: unfinished.committed, total: unfinished.total };
        }
      } finally {
        release();
      }
    }
    // Asked at once, before the (possibly long) grouping of the restored corpus.
    update({ interrupted, documentCount: summary.documentCount });
    if (summary.documentCount > 0) {
      const loaded = await loadCorpus({ pause: yieldToEventLoop });
      const files = await restoreFiles(loaded, snapshot.keepContents);
      const docs = docsFromCorpus(loaded, files);
      const skipped: SkippedFile[] = [];
      for (const [p, reason] of loaded.skipReasons) {
        if (reason === 'copy') continue;
        skipped.push({ docId: p, path: docs.paths[p]!, size: docs.sizes[p]!, reason: reason as SkipReason, message: skipMessage(reason as SkipReason) });
      }
      const saved = await getVerifiedPairs();
      // The last view's threshold and grouping come back with the pairs decided under them.
      if (saved) scanStore.update({ similarityThreshold: saved.threshold, grouping: saved.grouping as Grouping });
      const options = groupingOptions(scanStore.getSnapshot());
      const signal = new AbortController().signal;
      const fast = saved !== null && savedPairsFit(saved, options);
      let grouped: GroupedCorpus;
      if (saved && fast) {
        phase('grouping saved pairs');
        grouped = await groupFromSavedPairs(workers, signal, docs, skipped, options, saved, loaded.ids);
      } else {
        // Other parameters (or no saved pairs): search again; saved Jaccards still spare re-reading.
        const knownFrom = saved ?? carried;
        const known = knownFrom ? pairsAtPositions(knownFrom, loaded.ids, options.similarityThreshold) : undefined;
        grouped = await groupDocs(workers, signal, docs, skipped, options, known, phase);
      }
      const result = grouped.result;
      result.timings.totalMs = performance.now() - t0;
      base = { result, storageIds: loaded.ids, search: grouped.corpus };
      await loadTables();
      // Saved before 'done', so a tab closed right after the restore still finds them next time.
      if (!saved || !savedPairsFit(saved, options)) await saveVerified(base);
      update({ documentCount: summary.documentCount });
      // A scan started meanwhile wins: do not overwrite it.
      if (scanStore.getSnapshot().state !== 'scanning') {
        // The session regroups the restored corpus like a scan's result (slider, settings panel);
        // its finish hook then keeps these storage ids (nothing to merge: 'before' is null).
        lastOwn = { docs: result.docs, storageIds: loaded.ids, before: null };
        session?.adopt(grouped);
        scanStore.update({ state: 'done', result, progress: null, error: null });
        // Tables from before (or none yet): written or rebuilt when they pay for this corpus and k.
        const shown = base;
        track(restoring.then(() => syncTables(shown, false)));
        // The fast restore read no file: the short documents' sets (for a regroup at another k) come after.
        if (fast) void loadSmallSets(workers, signal, grouped.corpus).catch(() => undefined);
      }
    } else {
      base = null;
      tables = null;
      if (scanStore.getSnapshot().state === 'done') scanStore.update({ state: 'idle', result: null, progress: null });
    }
    update({ status: 'ready', documentCount: summary.documentCount, error: null });
    publishIndex();
    void refreshUsage();
  }

  const guarded = async (task: () => Promise<void>) => {
    try {
      await task();
    } catch (error) {
      fail(error);
    }
  };
  /** The restore in flight (resume waits for it, so the resumed files merge into the restored corpus). */
  let restoring: Promise<void> = Promise.resolve();
  const runRestore = (carried?: VerifiedPairs): Promise<void> => (restoring = guarded(() => restore(carried)));

  channel.subscribe((change) => {
    // Another tab wrote: reload from storage unless this tab is busy scanning (it then merges on finish).
    if (scanStore.getSnapshot().state === 'scanning') return;
    void guarded(async () => {
      await runRestore();
      update({ notice: `The saved corpus was changed in another tab (${change.reason}); this view was refreshed.` });
    });
  });

  return {
    hooks,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    attach(s) {
      session = s;
    },
    start: runRestore,
    async resume(files) {
      await restoring;
      await guarded(async () => {
        const paths = files.map((f) => f.webkitRelativePath || f.name);
        const stored = await findStoredPaths(paths);
        const missing = files.filter((_, i) => !stored.has(paths[i]!));
        const marker = snapshot.interrupted;
        if (marker) await withWriterLock(() => endScanSession(marker.id, 'interrupted'), { wait: true });
        update({ interrupted: null, notice: `Resuming: ${missing.length.toLocaleString('en')} of ${files.length.toLocaleString('en')} files were not saved yet.` });
        if (missing.length > 0) void session?.start({ kind: 'file-list', files: missing });
      });
    },
    async keepInterrupted() {
      await guarded(async () => {
        const marker = snapshot.interrupted;
        if (marker) await withWriterLock(() => endScanSession(marker.id, 'interrupted'), { wait: true });
        update({ interrupted: null });
      });
    },
    async clear() {
      await guarded(async () => {
        session?.cancel();
        await withWriterLock(() => clearCorpus(), { wait: true });
        base = null;
        lastOwn = null;
        tables = null;
        scanStore.update({ state: 'idle', result: null, progress: null, error: null });
        update({ interrupted: null, error: null, checks: null, index: null, notice: 'The saved corpus was cleared.' });
        notify('cleared');
        await refreshUsage();
      });
    },
    async resetLocalData() {
      try {
        session?.cancel();
        await deleteCorpusDatabase();
        base = null;
        lastOwn = null;
        savedSettings = null;
        tables = null;
        scanStore.update({ state: 'idle', result: null, progress: null, error: null });
        update({ status: 'ready', documentCount: 0, interrupted: null, error: null, checks: null, notice: 'Local data was reset.' });
        channel.notify('reset', 0);
        await refreshUsage();
      } catch (error) {
        fail(error);
      }
    },
    async setKeepContents(keep) {
      await guarded(async () => {
        const { settings, k } = scanStore.getSnapshot();
        const next: CorpusSettings = { fingerprint: savedSettings?.fingerprint ?? settings, k: savedSettings?.k ?? k, keepContents: keep };
        await withWriterLock(() => putSettings(next), { wait: true });
        savedSettings = next;
        update({ keepContents: keep });
        notify('settings');
        await refreshUsage();
      });
    },
    async remove(positions) {
      await guarded(async () => {
        if (!base) return;
        const ids = positions.map((p) => base!.storageIds[p]!).filter((id) => id !== NO_ID);
        if (ids.length === 0) {
          update({ notice: 'This document is not in the saved corpus (the scan that found it was not saved).' });
          return;
        }
        const carried = verifiedByStorageId(base.result, base.storageIds, NO_ID);
        const outcome = await withWriterLock(() => removeDocuments(ids), { wait: true });
        const removed = outcome.acquired ? outcome.value.removed : 0;
        notify('removed');
        // Regrouped from storage: copies of a removed text get a new representative, pairs are searched again.
        await runRestore(carried);
        update({ notice: `${removed.toLocaleString('en')} document${removed === 1 ? ' was' : 's were'} removed from the saved corpus.` });
      });
    },
    async check(files) {
      await guarded(async () => {
        if (!base) {
          update({ notice: 'There is no saved corpus to check against yet.' });
          return;
        }
        update({ checking: true, checks: null });
        try {
          update({ checks: await checkFiles(base, files) });
        } finally {
          update({ checking: false });
        }
      });
    },
    dismissNotice: () => update({ notice: null }),
    close: () => channel.close(),
  };

  /** Fingerprints the files like the pipeline does (ingest worker), then matches them without adding them. */
  async function checkFiles(shown: Base, files: File[]): Promise<CheckResult[]> {
    const { result } = shown;
    const featureSets = createFingerprinter({ ...result.settings, weights: 'binary' });
    const t = tables && result.k <= tables.k ? tables : null;
    const tools: CheckTools = {
      ingest: (name: string, bytes: Uint8Array) => workers.ingest.run(undefined, (api) => api.ingestBatch([{ name, bytes }], result.settings, {})),
      featureSet: (text: string) => featureSets.featureSet(text),
      threshold: result.similarityThreshold,
      near: t ? storedTableSearch(shown, t) : undefined,
    };
    const out: CheckResult[] = [];
    for (const file of files) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      out.push(await checkFile(result.docs, result.k, file.webkitRelativePath || file.name, bytes, tools));
    }
    return out;
  }
}

/**
 * Near candidates from the stored tables for the shown corpus: only the shards the query's keys hit
 * are read; hits are checked against the corpus's fingerprints in memory, then each hit's exact copies
 * (same representative) are added, so the answer equals the linear scan over the shown documents.
 */
function storedTableSearch(shown: Base, t: { k: number; blocks: number }): NonNullable<CheckTools['near']> {
  const { docs, representative } = shown.result;
  // Saved positions by ascending storage id (the corpus as FingerprintsById), and copies per representative.
  const order: number[] = [];
  for (let p = 0; p < docs.count; p++) if (shown.storageIds[p] !== NO_ID) order.push(p);
  order.sort((x, y) => shown.storageIds[x]! - shown.storageIds[y]!);
  const ids = Uint32Array.from(order, (p) => shown.storageIds[p]!);
  const byId = { ids, hi: Uint32Array.from(order, (p) => docs.hi[p]!), lo: Uint32Array.from(order, (p) => docs.lo[p]!) };
  const positionOf = (id: number): number => {
    let a = 0;
    let b = ids.length - 1;
    while (a <= b) {
      const mid = (a + b) >>> 1;
      if (ids[mid] === id) return order[mid]!;
      if (ids[mid]! < id) a = mid + 1;
      else b = mid - 1;
    }
    return -1;
  };
  const copies = new Map<number, number[]>();
  for (let p = 0; p < docs.count; p++) {
    const r = representative[p]!;
    if (r < 0 || r === p) continue;
    const list = copies.get(r) ?? [];
    list.push(p);
    copies.set(r, list);
  }
  return async (qHi, qLo, k, limit) => {
    const found = await queryStoredTables({ k: t.k, blocks: t.blocks }, qHi, qLo, { k, corpus: byId });
    const hitIds: number[] = [];
    const hitDistance: number[] = [];
    const seen = new Set<number>();
    const add = (p: number, d: number) => {
      if (seen.has(p) || shown.storageIds[p] === NO_ID) return;
      seen.add(p);
      hitIds.push(shown.storageIds[p]!);
      hitDistance.push(d);
    };
    for (let i = 0; i < found.ids.length; i++) {
      const p = positionOf(found.ids[i]!);
      if (p < 0) continue;
      const r = representative[p]! >= 0 ? representative[p]! : p;
      add(r, found.distance[i]!);
      for (const c of copies.get(r) ?? []) add(c, found.distance[i]!);
      add(p, found.distance[i]!);
    }
    return tableCandidates({ ids: Uint32Array.from(hitIds), distance: Uint8Array.from(hitDistance) }, positionOf, docs.status, DocStatus.ok, limit);
  };
}
