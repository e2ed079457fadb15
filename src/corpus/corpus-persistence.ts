/**
 * The saved-corpus controller: wires the batch writer (corpus-writer.ts), the restore step
 * (restore-corpus.ts), the merge step (merge-corpus.ts) and the stored tables (stored-tables.ts) into
 * the scan session's hooks and the corpus panel's actions, and keeps tabs in step. It never writes the
 * scan state (the session does) and never asks the person itself: questions go to the panel through
 * `confirmation`. Framework-free: the corpus panel reads its snapshot through `subscribe`/`getSnapshot`.
 */
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { clearCorpus, findStoredPaths, getCorpusSummary, loadCorpus } from '../storage/corpus-repository.ts';
import { configureStorage, deleteCorpusDatabase } from '../storage/database.ts';
import { endScanSession, findUnfinishedScan, listNotSavedFiles } from '../storage/scan-sessions.ts';
import { getSettings, putSettings, settingsChange } from '../storage/settings-repository.ts';
import type { CorpusSettings } from '../storage/settings-repository.ts';
import { isStorageError } from '../storage/storage-error.ts';
import type { StorageErrorKind } from '../storage/storage-error.ts';
import { getStorageUsage, requestPersistentStorage } from '../storage/storage-quota.ts';
import type { StorageUsage } from '../storage/storage-quota.ts';
import { createCorpusChannel, withWriterLock } from '../storage/tab-coordination.ts';
import type { CorpusChangeReason } from '../storage/tab-coordination.ts';
import { getSavedPins, getVerifiedPairs, putVerifiedPairs } from '../storage/verified-pairs.ts';
import type { VerifiedPairs } from '../storage/verified-pairs.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { checkFile } from './check-against-corpus.ts';
import type { CheckResult, CheckTools } from './check-against-corpus.ts';
import { LOCK_WAIT_MS, NO_ID, openBatchWriter, tryLock } from './corpus-writer.ts';
import type { BatchWriter } from './corpus-writer.ts';
import { mergeCorpus, positionsByPath, rootOf } from './merge-corpus.ts';
import type { CorpusPart, FolderSync, MergeOutcome } from './merge-corpus.ts';
import { removeFromCorpus } from './corpus-removal.ts';
import { groupSavedCorpus, loadSmallSets, restoreFiles, savedPairsFit, verifiedByStorageId } from './restore-corpus.ts';
import type { RestorePhase } from './restore-corpus.ts';
import type { ScanHooks } from '../scan/scan-hooks.ts';
import type { Grouping, ScanDocs, ScanResult, SkippedFile } from '../scan/scan-result.ts';
import type { ScanSession, ScanSource } from '../scan/scan-session.ts';
import type { ScanStore } from '../scan/scan-store.ts';
import { loadTables, storedTableSearch, syncTables } from './stored-tables.ts';
import type { StoredTables } from './stored-tables.ts';
import { yieldToEventLoop } from '../scan/yield-to-event-loop.ts';
import { recordPhase } from '../scan/phase-timing.ts';

export type { CheckResult };

/** What the corpus panel shows. */
export interface PersistenceSnapshot {
  /** 'restoring' while the saved corpus loads; 'off' when this browser cannot store anything. */
  status: 'starting' | 'restoring' | 'ready' | 'off' | 'error';
  documentCount: number;
  usage: StorageUsage | null;
  keepContents: boolean;
  /** A scan left 'running' by a closed tab, or stopped by a full storage (`storageFull`): how far it got. */
  interrupted: { id: number; label: string; committed: number; total: number; storageFull: boolean; cancelled: boolean } | null;
  /**
   * The last scan stopped because the storage is full: how many of its files are in the corpus, and
   * whether `resumeStopped` can scan the rest (the files are still at hand in this page).
   */
  storageFull: { saved: number; notSaved: number; canResume: boolean } | null;
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
  /** A question only the person can answer before the scan goes on (answered with `answer`). */
  confirmation: { message: string; confirm: string; cancel: string } | null;
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
  /** Scans again the files a full storage stopped from being saved (after space was freed). */
  resumeStopped(): Promise<void>;
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
  /** Answers the pending `confirmation` (true: go on). */
  answer(ok: boolean): void;
  /** Stops listening to other tabs (the page goes away). */
  close(): void;
}

/** A chosen folder's top-level names and every path its listing holds (documents and listed skips). */
function folderSyncOf(docs: ScanDocs, listed: readonly SkippedFile[]): FolderSync {
  const paths = [...docs.paths, ...listed.map((s) => s.path)];
  const roots = new Set(paths.map(rootOf).filter((r) => r !== ''));
  return { roots, listed: new Set(paths) };
}

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
    storageFull: null,
    notice: null,
    error: null,
    checks: null,
    checking: false,
    restore: null,
    index: null,
    saving: false,
    confirmation: null,
    unmeasured: 0,
  };
  const listeners = new Set<() => void>();
  const update = (patch: Partial<PersistenceSnapshot>) => {
    snapshot = { ...snapshot, ...patch };
    for (const l of [...listeners]) l();
  };
  let session: ScanSession | null = null;
  let base: Base | null = null;
  let savedSettings: CorpusSettings | null = null;
  /** The stored permuted tables (null: none; checks scan linearly). New batches are merged into them. */
  let tables: StoredTables = null;
  /** True after a removal wrote a copy anew as its class's head (it has no table entries yet). */
  let tablesStale = false;
  /** The corpus revision `base` was read at (or written up to by this tab): another tab's write changes it. */
  let baseRevision = -1;
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

  /** Paths a folder chosen again no longer held (they left the corpus): named as having come back when they return. */
  const leftPaths = new Set<string>();
  /** The notice that belongs to the scan about to start (a resume's); any other passing notice ends when a scan starts. */
  let scanNotice: string | null = null;

  /** The pending question's answer; the panel renders `snapshot.confirmation` and calls `answer`. */
  let answerPending: ((ok: boolean) => void) | null = null;
  const ask = (confirmation: NonNullable<PersistenceSnapshot['confirmation']>, signal: AbortSignal): Promise<boolean> =>
    new Promise((resolve) => {
      const done = (ok: boolean) => {
        answerPending = null;
        signal.removeEventListener('abort', onAbort);
        update({ confirmation: null });
        resolve(ok);
      };
      const onAbort = () => done(false);
      answerPending = done;
      signal.addEventListener('abort', onAbort);
      update({ confirmation });
    });

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
  /** The running scan's writer, and whether it rebuilds the corpus (other fingerprint settings). */
  let writing: { writer: BatchWriter; rebuild: boolean } | null = null;
  /** The files a full storage kept out of the corpus (for resumeStopped), as the source to scan them again. */
  let notSaved: ScanSource | null = null;
  /** The running scan's folder, when the person chose one: the saved corpus follows it (see mergeCorpus). */
  let folderSync: FolderSync | null = null;

  /**
   * A commit hit the full quota: what was committed stays, the rest of the scan is not saved. Says so
   * in numbers, as an error (the person cancelled nothing), and keeps the rest for a resume.
   */
  const storageFull = (inCorpus: Uint8Array | null, docs: ScanDocs, error: unknown, lost: ReadonlySet<number> = new Set()) => {
    const left: File[] = [];
    const leftPaths: string[] = [];
    for (let d = 0; d < docs.count; d++) {
      // A scan's own documents are the Files it was given (only restored ones are stored Blobs); read
      // through handles, the paths (a file never opened is noContents() until then).
      const file = docs.files[d];
      if (!inCorpus?.[d] && (docs.roots || file instanceof File)) {
        left.push(file as File);
        leftPaths.push(docs.paths[d]!);
      }
    }
    // Through handles the workers read the paths again; otherwise the Files are scanned again.
    notSaved = docs.roots
      ? { kind: 'collected', collected: { files: left, paths: leftPaths, hidden: [], roots: docs.roots } }
      : { kind: 'file-list', files: left };
    const saved = docs.count - left.length;
    // The shown corpus may already hold this scan (the storage filled behind the results): the
    // documents of batches that never committed lose their storage ids there too.
    if (base && lost.size > 0) {
      for (let p = 0; p < base.storageIds.length; p++) if (lost.has(base.storageIds[p]!)) base.storageIds[p] = NO_ID;
    }
    const message =
      `Storage is full: ${saved.toLocaleString('en')} file${saved === 1 ? '' : 's'} saved, ${left.length.toLocaleString('en')} not saved. ` +
      (isStorageError(error) ? error.userMessage : '');
    update({ status: 'error', error: { kind: 'quota', message }, storageFull: { saved, notSaved: left.length, canResume: left.length > 0 } });
    return message;
  };

  const hooks: ScanHooks = {
    corpusSize: () => base?.result.docs.count ?? 0,
    async onStart(docs, signal, listed, sync) {
      folderSync = sync ? folderSyncOf(docs, listed ?? []) : null;
      // "The saved corpus was cleared", the last sync's summary...: true of the corpus before this scan, not after.
      if (snapshot.notice !== null && snapshot.notice !== scanNotice) update({ notice: null });
      scanNotice = null;
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
          const ok = await ask(
            {
              message:
                `These settings differ from the ones the saved corpus (${kept.toLocaleString('en')} documents) was made with. ` +
                `Rebuild the saved corpus from the ${docs.count.toLocaleString('en')} files of this scan? The other saved documents are removed.`,
              confirm: 'Rebuild the saved corpus',
              cancel: 'Keep the saved corpus',
            },
            signal,
          );
          if (!ok) {
            session?.cancel();
            throw new DOMException('The person kept the saved corpus.', 'AbortError');
          }
        }
        rebuild = true;
      }
      let release = await tryLock(LOCK_WAIT_MS);
      if (!release) {
        // Another tab is saving a scan. This one waits for it (a scan shown but not saved was thrown
        // away as soon as the other tab's changes arrived) and is then merged with what it saved.
        update({ notice: 'Another SimSift tab is saving a scan into the corpus: this scan waits for it and starts when it has finished (Cancel stops waiting).' });
        release = await tryLock(Infinity, signal);
        if (!release) {
          signal.throwIfAborted();
          throw new Error('The saved corpus could not be locked for writing.');
        }
        update({ notice: null });
      }
      try {
        await refreshBase(signal);
        // Whatever another tab changed before this lock is in `base` now: merged on finish.
        missedChange = null;
        if (rebuild || (change === 'fingerprints' && savedSettings)) {
          await clearCorpus();
          base = null;
          tables = null;
        }
        await putSettings(next);
        savedSettings = next;
        const label = docs.paths[0]?.split('/')[0] ?? 'files';
        const writer: BatchWriter = await openBatchWriter(docs, {
          release,
          label,
          total: docs.count,
          notSaved: (listed ?? []).map((s) => [s.path, s.reason, s.message]),
          k,
          // The panel's count follows the commits (it said "0 documents saved" through a whole scan).
          onCommitted: (summary) => update({ documentCount: summary.documentCount }),
          saved: base && !rebuild ? { docs: base.result.docs, at: positionsByPath(base.result.docs), storageIds: base.storageIds } : null,
          onFailure: (error) => {
            // Stop cleanly: what was committed stays; the failed batch was rolled back as a whole.
            if (isStorageError(error) && error.kind === 'quota') session?.stop(storageFull(writer.inCorpus, docs, error, writer.lostIds));
            else {
              fail(error);
              session?.cancel();
            }
          },
        });
        writing = { writer, rebuild };
        update({ interrupted: null, error: null, storageFull: null });
        notSaved = null;
        void requestPersistentStorage().catch(() => null);
      } catch (error) {
        release();
        writing = null;
        // Not even the scan's marker fits: nothing of it can be saved, so it stops here and says so.
        if (isStorageError(error) && error.kind === 'quota') {
          session?.stop(storageFull(null, docs, error));
          signal.throwIfAborted();
        } else fail(error);
      }
    },
    keepsBytes: () => writing !== null && snapshot.keepContents,
    onBatch(docs, ids, bytes) {
      writing?.writer.write(docs, ids, bytes, snapshot.keepContents, tables);
    },
    async finish(own, signal) {
      const w = writing;
      // Storage ids are given as batches arrive (onBatch), so the result can show before the batches
      // still queued have committed: with kept contents those writes end well after the scan (100,000
      // files: ~20 s, Chromium writing one blob file per document). They finish behind the results;
      // a tab closed meanwhile keeps every committed batch and is offered the resume.
      const storageIds: Uint32Array = w ? w.writer.storageIdOf : new Uint32Array(own.result.docs.count).fill(NO_ID);
      const before = w?.rebuild ? null : base;
      const ownPart = { result: own.result, storageIds, search: own.corpus };
      const sync = folderSync ?? undefined;
      folderSync = null;
      const outcome = before ? await mergeInto(before, ownPart, signal, sync) : null;
      const merged = outcome?.merged ?? ownPart;
      // Saved files the chosen folder no longer holds: out of the corpus (their copies take over).
      const missing = outcome && outcome.missing.positions.length > 0 ? { shown: { docs: before!.result.docs, storageIds: before!.storageIds }, positions: outcome.missing.positions } : null;
      base = merged;
      if (w) {
        if (writing === w) writing = null;
        const tSaving = performance.now();
        saving = w.writer
          .settled()
          .then(() => w.writer.close(closingState(w.writer)))
          .then(() => (missing ? removeFromCorpus(missing.shown, missing.positions, w.writer.replacedPositions) : null))
          .then((removal) => void (removal && removal.rewritten > 0 && (tablesStale = true)))
          .then(() => notify('added'))
          // Another tab changed the corpus once this scan's lock was released (cleared it, say): the
          // merged result no longer describes storage, so it is not saved but loaded again.
          .then(() => (missedChange ? undefined : saveVerified(merged)))
          .then(() => (missedChange ? undefined : keepTables(merged, w.writer.failed || w.writer.tablesMissed)))
          .catch(() => undefined)
          .then(catchUp)
          // What saving still took once the results were on show (batches committed during the scan are not in it).
          .then(() => recordPhase('saving-after-results', tSaving, performance.now(), { documents: w.writer.committed }))
          .then(refreshUsage);
        track(saving);
      } else {
        void refreshUsage();
        // After the session has shown this result (it does so as soon as finish returns).
        setTimeout(() => void catchUp(), 0);
      }
      return outcome ? outcome.grouped : own;
    },
    regrouped(shown) {
      // The corpus on show regrouped (same documents, same positions): the next load shows this view.
      if (!base || base.result.docs !== shown.result.docs) return;
      const next: Base = { result: shown.result, storageIds: base.storageIds, search: shown.corpus };
      base = next;
      track(saving.then(() => saveVerified(next)).then(() => keepTables(next, false)));
    },
    onEnd(state, message) {
      const w = writing;
      if (!w) return;
      writing = null;
      const ended = w.writer.failed ? closingState(w.writer) : state === 'cancelled' ? 'cancelled' : 'failed';
      track(w.writer.close(ended, message).then(() => notify('added')).then(catchUp).then(refreshUsage));
    },
  };

  /** How a finished writer's scan ended: 'storage-full' makes the next load say the corpus is partial. */
  function closingState(writer: BatchWriter): 'finished' | 'failed' | 'storage-full' {
    if (!writer.failed) return 'finished';
    return snapshot.storageFull ? 'storage-full' : 'failed';
  }

  /** Saves the shown result's verified pairs for the next restore (skipped while another tab writes). */
  async function saveVerified(shown: Base): Promise<void> {
    try {
      await withWriterLock(
        async () => {
          const { revision } = await getCorpusSummary();
          await putVerifiedPairs(revision, verifiedByStorageId(shown.result, shown.storageIds, NO_ID));
          // Under the lock: `shown` is the corpus at this revision (this tab's own writes included).
          if (shown === base) baseRevision = revision;
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

  /** Shows which index the checks use. */
  const publishIndex = () =>
    update({ index: tables ? { kind: 'tables', tableCount: tables.tableCount, k: tables.k } : base ? { kind: 'linear' } : null });

  async function keepTables(shown: Base, incomplete: boolean): Promise<void> {
    // A removal that handed a class to a copy left that copy without table entries: rebuild.
    const stale = tablesStale;
    tablesStale = false;
    tables = await syncTables(workers, shown, tables, incomplete || stale);
    publishIndex();
  }

  /** The merge step (merge-corpus.ts) over the shown corpus; the panel hears how many pairs could not be measured, and which files left. */
  async function mergeInto(before: Base, own: Base, signal: AbortSignal, sync?: FolderSync): Promise<MergeOutcome> {
    const outcome = await mergeCorpus(workers, signal, before, own, groupingOptions(own.result), sync);
    update({ unmeasured: outcome.unmeasured });
    const n = (x: number) => x.toLocaleString('en');
    const parts = [];
    if (outcome.unchanged > 0) parts.push(`${n(outcome.unchanged)} file${outcome.unchanged === 1 ? '' : 's'} already in the corpus, unchanged`);
    if (outcome.updated > 0) parts.push(`${n(outcome.updated)} updated`);
    const named = (paths: readonly string[]) => `${paths.slice(0, 10).join(', ')}${paths.length > 10 ? ` and ${n(paths.length - 10)} more` : ''}`;
    if (sync) {
      // A folder chosen again: the files that came back (they had left the corpus in this page) and the new ones, by name.
      const back = outcome.added.filter((p) => leftPaths.has(p));
      const fresh = outcome.added.filter((p) => !leftPaths.has(p));
      for (const p of back) leftPaths.delete(p);
      if (back.length > 0) parts.push(`${n(back.length)} file${back.length === 1 ? '' : 's'} came back to the folder and joined the corpus again: ${named(back)}`);
      if (fresh.length > 0 && outcome.unchanged + outcome.updated > 0) parts.push(`${n(fresh.length)} new: ${named(fresh)}`);
    }
    const gone = outcome.missing.paths;
    for (const p of gone) leftPaths.add(p);
    if (gone.length > 0) {
      parts.push(`${n(gone.length)} file${gone.length === 1 ? ' is' : 's are'} no longer in the folder and left the corpus: ${named(gone)}`);
    }
    if (parts.length > 0) update({ notice: `${parts.join('; ')}.` });
    return outcome;
  }

  const groupingOptions = (r: Pick<ScanResult, 'settings' | 'k' | 'similarityThreshold' | 'grouping'>) => ({
    settings: r.settings,
    k: r.k,
    similarityThreshold: r.similarityThreshold,
    grouping: r.grouping,
  });

  /**
   * Loads the saved corpus and its groups and has the session show them (state 'done' once restored).
   * `carried`: pairs verified before a change this tab made (a removal), whose Jaccards spare re-reading files.
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
    const revision = (await getCorpusSummary()).revision;
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
          interrupted = {
            id: unfinished.id,
            label: unfinished.label,
            committed: unfinished.committed,
            total: unfinished.total,
            storageFull: unfinished.state === 'storage-full',
            cancelled: unfinished.state === 'cancelled',
          };
        }
      } finally {
        release();
      }
    }
    // Asked at once, before the (possibly long) grouping of the restored corpus.
    update({ interrupted, documentCount: summary.documentCount });
    if (summary.documentCount > 0) {
      const signal = new AbortController().signal;
      const { restored, saved, options, part } = await loadBase(signal, true, carried, phase);
      const { grouped } = restored;
      const result = grouped.result;
      result.timings.totalMs = performance.now() - t0;
      baseRevision = revision;
      // Saved before 'done', so a tab closed right after the restore still finds them next time.
      if (!saved || !savedPairsFit(saved, options)) await saveVerified(part);
      update({ documentCount: summary.documentCount });
      // A scan started meanwhile wins: the session does not show this over it.
      if (scanStore.getSnapshot().state !== 'scanning') {
        // The session regroups the restored corpus like a scan's result (slider, settings panel);
        // its regrouped hook saves the new view over these storage ids.
        // The references the person chose come back with the groups (a regroup keeps them).
        scanStore.update({ pinned: restored.pinned });
        session?.show(grouped);
        // Tables from before (or none yet): written or rebuilt when they pay for this corpus and k.
        track(restoring.then(() => keepTables(part, false)));
        // The fast restore read no file: the short documents' sets (for a regroup at another k) come after.
        if (restored.fast) void loadSmallSets(workers, signal, grouped.corpus).catch(() => undefined);
      }
    } else {
      base = null;
      tables = null;
      baseRevision = revision;
      if (scanStore.getSnapshot().state === 'done') session?.reset();
    }
    update({ status: 'ready', documentCount: summary.documentCount, error: null });
    publishIndex();
    void refreshUsage();
  }

  /**
   * The restore step over what storage holds now: loads the corpus, its Files and saved pairs, groups
   * them (groupSavedCorpus) and makes them `base`. `useSavedView`: take the saved threshold and grouping.
   */
  async function loadBase(signal: AbortSignal, useSavedView: boolean, carried?: VerifiedPairs, phase?: (p: RestorePhase) => void) {
    const loaded = await loadCorpus({ pause: yieldToEventLoop });
    const files = await restoreFiles(loaded, snapshot.keepContents);
    const saved = await getVerifiedPairs();
    const notSaved = await listNotSavedFiles();
    // The last view's threshold and grouping come back with the pairs decided under them.
    if (saved && useSavedView) scanStore.update({ similarityThreshold: saved.threshold, grouping: saved.grouping as Grouping });
    const options = groupingOptions(scanStore.getSnapshot());
    // The references a person chose outlive saved pairs a later write left behind.
    const pins = saved ? null : await getSavedPins();
    const restored = await groupSavedCorpus(workers, signal, loaded, files, saved, options, carried, phase, notSaved, pins);
    const part: Base = { result: restored.grouped.result, storageIds: restored.storageIds, search: restored.grouped.corpus };
    base = part;
    tables = await loadTables();
    return { restored, saved, options, part };
  }

  /**
   * Before a scan writes (holding the lock): when another tab changed the corpus since `base` was
   * read (this tab was busy and skipped its notice), read it again, so the scan merges with it.
   */
  async function refreshBase(signal: AbortSignal): Promise<void> {
    const summary = await getCorpusSummary();
    if (summary.revision === baseRevision) return;
    if (summary.documentCount === 0) {
      base = null;
      tables = null;
    } else await loadBase(signal, false);
    baseRevision = summary.revision;
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

  /** Another tab's change heard while this tab scanned: loaded once the scan's result is on show (see catchUp). */
  let missedChange: { reason: CorpusChangeReason } | null = null;
  /** Loads the corpus another tab changed while this one scanned, so no result stands over a corpus that is gone. */
  const catchUp = async (): Promise<void> => {
    const change = missedChange;
    if (!change || scanStore.getSnapshot().state === 'scanning') return;
    missedChange = null;
    await guarded(async () => {
      await runRestore();
      update({ notice: `The saved corpus was changed in another tab (${change.reason}); this view was refreshed.` });
    });
  };
  const unsubscribe = channel.subscribe((change) => {
    // Another tab wrote: reload from storage; while this tab scans, once its result is on show.
    missedChange = change;
    if (scanStore.getSnapshot().state === 'scanning') return;
    void catchUp();
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
        scanNotice = `Resuming: ${missing.length.toLocaleString('en')} of ${files.length.toLocaleString('en')} files were not saved yet.`;
        update({ interrupted: null, notice: scanNotice });
        if (missing.length > 0) void session?.start({ kind: 'file-list', files: missing });
      });
    },
    async resumeStopped() {
      const source = notSaved;
      if (!source) return;
      notSaved = null;
      update({ storageFull: null, error: null, status: 'ready' });
      await session?.start(source);
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
        leftPaths.clear();
        base = null;
        tables = null;
        session?.reset();
        update({ interrupted: null, error: null, checks: null, index: null, unmeasured: 0, notice: 'The saved corpus was cleared.' });
        notify('cleared');
        await refreshUsage();
      });
    },
    async resetLocalData() {
      try {
        session?.cancel();
        await deleteCorpusDatabase();
        base = null;
        savedSettings = null;
        tables = null;
        session?.reset();
        update({ status: 'ready', documentCount: 0, interrupted: null, error: null, checks: null, unmeasured: 0, notice: 'Local data was reset.' });
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
        const carried = verifiedByStorageId(base.result, base.storageIds, NO_ID);
        // The shown documents, resolved: a copy of a removed original carries the class's fingerprint.
        const outcome = await removeFromCorpus({ docs: base.result.docs, storageIds: base.storageIds }, positions);
        if (!outcome) {
          update({ notice: 'This document is not in the saved corpus (the scan that found it was not saved).' });
          return;
        }
        const removed = outcome.removed;
        if (outcome.rewritten > 0) tablesStale = true;
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
    answer: (ok) => answerPending?.(ok),
    close: () => {
      unsubscribe();
      channel.close();
    },
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
