/**
 * The saved-corpus controller: one per page, over the scan store and the workers. It gives the scan
 * session what saving into the corpus the scan calls (corpus-scan-saving.ts), restores the corpus on
 * load (corpus-loading.ts), and is the corpus panel's actions (resume, clear, reset, keep contents,
 * remove, check). It never writes the scan state (the session does) and never asks the person itself:
 * questions go to the panel through `confirmation`. The panel reads its snapshot through
 * `subscribe`/`getSnapshot`; the state behind it is the one `CorpusContext` (corpus-context.ts).
 */
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { clearCorpus, findStoredPaths } from '../storage/corpus-repository.ts';
import { configureStorage, deleteCorpusDatabase } from '../storage/database.ts';
import { endScanSession } from '../storage/scan-sessions.ts';
import { putSettings } from '../storage/settings-repository.ts';
import type { CorpusSettings } from '../storage/settings-repository.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { ScanHooks } from '../scan/scan-hooks.ts';
import type { ScanSession } from '../scan/scan-session.ts';
import type { ScanStore } from '../scan/scan-store.ts';
import { checkFile } from './check-against-corpus.ts';
import type { CheckResult, CheckTools } from './check-against-corpus.ts';
import { NO_ID } from './corpus-writer.ts';
import { removeFromCorpus } from './corpus-removal.ts';
import { verifiedByStorageId } from './restore-corpus.ts';
import { storedTableSearch } from './stored-tables.ts';
import { createCorpusContext } from './corpus-context.ts';
import type { Base, CorpusContext, PersistenceSnapshot } from './corpus-context.ts';
import { followOtherTabs, runRestore } from './corpus-loading.ts';
import { createScanSaving } from './corpus-scan-saving.ts';

export type { CheckResult, PersistenceSnapshot };

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

/** Creates the controller over the scan store and workers; nothing is read until `start`. */
export function createCorpusPersistence(scanStore: ScanStore, workers: ScanWorkers): CorpusPersistence {
  const c = createCorpusContext(scanStore, workers);
  configureStorage({
    events: {
      onBlocked: () => c.update({ notice: 'Another SimSift tab keeps the saved corpus open. Close or reload it to continue.' }),
      onVersionChange: () => c.update({ notice: 'Another tab is changing the saved corpus; this tab reconnects when needed.' }),
      onTerminated: () => c.update({ error: { kind: 'closed', message: 'The browser closed the saved corpus. Reload this page.' } }),
    },
  });
  const unsubscribe = followOtherTabs(c);
  return {
    hooks: createScanSaving(c),
    subscribe(listener) {
      c.listeners.add(listener);
      return () => c.listeners.delete(listener);
    },
    getSnapshot: () => c.snapshot,
    attach(s) {
      c.session = s;
    },
    start: () => runRestore(c),
    async resume(files) {
      await c.restoring;
      await c.guarded(async () => {
        const paths = files.map((f) => f.webkitRelativePath || f.name);
        const stored = await findStoredPaths(paths);
        const missing = files.filter((_, i) => !stored.has(paths[i]!));
        const marker = c.snapshot.interrupted;
        if (marker) await withWriterLock(() => endScanSession(marker.id, 'interrupted'), { wait: true });
        c.scanNotice = `Resuming: ${missing.length.toLocaleString('en')} of ${files.length.toLocaleString('en')} files were not saved yet.`;
        c.update({ interrupted: null, notice: c.scanNotice });
        if (missing.length > 0) void c.session?.start({ kind: 'file-list', files: missing });
      });
    },
    async resumeStopped() {
      const source = c.notSaved;
      if (!source) return;
      c.notSaved = null;
      c.update({ storageFull: null, error: null, status: 'ready' });
      await c.session?.start(source);
    },
    async keepInterrupted() {
      await c.guarded(async () => {
        const marker = c.snapshot.interrupted;
        if (marker) await withWriterLock(() => endScanSession(marker.id, 'interrupted'), { wait: true });
        c.update({ interrupted: null });
      });
    },
    async clear() {
      await c.guarded(async () => {
        c.session?.cancel();
        await withWriterLock(() => clearCorpus(), { wait: true });
        c.leftPaths.clear();
        c.base = null;
        c.tables = null;
        c.session?.reset();
        c.update({ interrupted: null, error: null, checks: null, index: null, unmeasured: 0, notice: 'The saved corpus was cleared.' });
        c.notify('cleared');
        await c.refreshUsage();
      });
    },
    async resetLocalData() {
      try {
        c.session?.cancel();
        await deleteCorpusDatabase();
        c.base = null;
        c.savedSettings = null;
        c.tables = null;
        c.session?.reset();
        c.update({ status: 'ready', documentCount: 0, interrupted: null, error: null, checks: null, unmeasured: 0, notice: 'Local data was reset.' });
        c.channel.notify('reset', 0);
        await c.refreshUsage();
      } catch (error) {
        c.fail(error);
      }
    },
    async setKeepContents(keep) {
      await c.guarded(async () => {
        const { settings, k } = c.scanStore.getSnapshot();
        const next: CorpusSettings = { fingerprint: c.savedSettings?.fingerprint ?? settings, k: c.savedSettings?.k ?? k, keepContents: keep };
        await withWriterLock(() => putSettings(next), { wait: true });
        c.savedSettings = next;
        c.update({ keepContents: keep });
        c.notify('settings');
        await c.refreshUsage();
      });
    },
    async remove(positions) {
      await c.guarded(async () => {
        if (!c.base) return;
        const carried = verifiedByStorageId(c.base.result, c.base.storageIds, NO_ID);
        // The shown documents, resolved: a copy of a removed original carries the class's fingerprint.
        const outcome = await removeFromCorpus({ docs: c.base.result.docs, storageIds: c.base.storageIds }, positions);
        if (!outcome) {
          c.update({ notice: 'This document is not in the saved corpus (the scan that found it was not saved).' });
          return;
        }
        const removed = outcome.removed;
        if (outcome.rewritten > 0) c.tablesStale = true;
        c.notify('removed');
        // Regrouped from storage: copies of a removed text get a new representative, pairs are searched again.
        await runRestore(c, carried);
        c.update({ notice: `${removed.toLocaleString('en')} document${removed === 1 ? ' was' : 's were'} removed from the saved corpus.` });
      });
    },
    async check(files) {
      await c.guarded(async () => {
        if (!c.base) {
          c.update({ notice: 'There is no saved corpus to check against yet.' });
          return;
        }
        c.update({ checking: true, checks: null });
        try {
          c.update({ checks: await checkFiles(c, c.base, files) });
        } finally {
          c.update({ checking: false });
        }
      });
    },
    dismissNotice: () => c.update({ notice: null }),
    answer: (ok) => c.answerPending?.(ok),
    close: () => {
      unsubscribe();
      c.channel.close();
    },
  };
}

/** Fingerprints the files like the pipeline does (ingest worker), then matches them without adding them. */
async function checkFiles(c: CorpusContext, shown: Base, files: File[]): Promise<CheckResult[]> {
  const { result } = shown;
  const featureSets = createFingerprinter({ ...result.settings, weights: 'binary' });
  const t = c.tables && result.k <= c.tables.k ? c.tables : null;
  const tools: CheckTools = {
    ingest: (name: string, bytes: Uint8Array) => c.workers.ingest.run(undefined, (api) => api.ingestBatch([{ name, bytes }], result.settings, {})),
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
