/**
 * The saved-corpus controller: one per page, over the scan store and the workers. It owns the page's
 * scan session, built with saving into the corpus as one of its stages (corpus-scan-saving.ts), restores
 * the corpus on load (corpus-loading.ts), and is the corpus panel's actions (resume, clear, reset, keep
 * contents, remove, check). It never writes the scan state (the session does) and never asks the person itself:
 * questions go to the panel through `confirmation`. The panel reads its snapshot through
 * `subscribe`/`getSnapshot`; the state behind it is the one `CorpusContext` (corpus-context.ts), and
 * each panel action is a function of it (corpus-actions.ts).
 */
import { configureStorage } from '../storage/database.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { createScanSession, type ScanSession } from '../scan/scan-session.ts';
import type { ScanStore } from '../scan/scan-store.ts';
import type { CheckResult } from './check-against-corpus.ts';
import { createCorpusContext, type Base, type CorpusContext } from './corpus-context.ts';
import type { PersistenceSnapshot } from './corpus-context.ts';
import { followOtherTabs, keepTables, runRestore, saveVerified } from './corpus-loading.ts';
import type { ShownCorpus } from '../scan/scan-run.ts';
import type { DocId } from '../core/ids.ts';
import { createScanSaving } from './corpus-scan-saving.ts';
import * as actions from './corpus-actions.ts';
import { openBundle, type OpenOutcome } from './open-bundle.ts';
import type { ScanBundle } from '../core/export/scan-bundle.ts';
import type { ScanSource } from '../scan/scan-session.ts';
import { createKeepMarksStore, type KeepMarksStore } from './keep-marks-store.ts';
import { createKeepRulesStore, type KeepRulesStore } from './keep-rules-store.ts';

export type { CheckResult, OpenOutcome, PersistenceSnapshot };

/** The persistence controller the app wires into the scan session and the corpus panel. */
export interface CorpusPersistence {
  /** The page's scan session: every scan saves into this corpus. */
  readonly session: ScanSession;
  subscribe(listener: () => void): () => void;
  getSnapshot(): PersistenceSnapshot;
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
  remove(positions: readonly DocId[]): Promise<void>;
  /** Matches files against the corpus without adding them. */
  check(files: File[]): Promise<void>;
  dismissNotice(): void;
  /**
   * "Re-read every file": the next choose of the folder reads every file, not only those whose size or
   * modification time changed (an edit that kept both is invisible to the quick check).
   */
  rereadAll(): void;
  /**
   * Opens a `simsift scan` bundle beside its folder (open-bundle.ts): replaces the saved corpus (asked
   * first) and syncs the folder. A failure to store it is refused with why; the saved corpus is then as it was.
   */
  openBundle(bundle: ScanBundle, folder: ScanSource): Promise<OpenOutcome>;
  /**
   * The person's marks, "not a duplicate" lists and exclusions for the documents `paths` names, read
   * from storage and saved on every change (keep-marks-store.ts): the corpus is their only writer.
   */
  keepMarks(paths: readonly string[]): KeepMarksStore;
  /** The page's keep rules, read at the first subscriber and saved on every change (keep-rules-store.ts). */
  readonly keepRules: KeepRulesStore;
  /** Answers the pending `confirmation` (true: go on). */
  answer(ok: boolean): void;
  /** Stops listening to other tabs (the page goes away). */
  close(): void;
}

/** The corpus on show was regrouped (same documents, same positions): the next load shows this view. */
function keepRegrouped(c: CorpusContext, shown: ShownCorpus | null): void {
  // Coalesced regroups hand their one result to every caller: kept once.
  if (!shown || !c.base || c.base.result.docs !== shown.result.docs || c.base.result === shown.result) return;
  const next: Base = { result: shown.result, storageIds: c.base.storageIds, search: shown.corpus };
  c.hold({ type: 'replaced', base: next });
  c.track(c.saving.then(() => saveVerified(c, next)).then(() => keepTables(c, next, false)));
}

/** Creates the controller and its scan session over the scan store and workers; nothing is read until `start`. */
export function createCorpusPersistence(scanStore: ScanStore, workers: ScanWorkers): CorpusPersistence {
  const c = createCorpusContext(scanStore, workers);
  configureStorage({
    events: {
      onBlocked: () => c.update({ notice: 'Another SimSift tab keeps the saved corpus open. Close or reload it to continue.' }),
      onVersionChange: () => c.update({ notice: 'Another tab is changing the saved corpus; this tab reconnects when needed.' }),
      onTerminated: () => void c.dispatch({ type: 'failed', off: false, error: { kind: 'closed', message: 'The browser closed the saved corpus. Reload this page.' } }),
    },
  });
  const unsubscribe = followOtherTabs(c);
  const scan = createScanSession(scanStore, workers, createScanSaving(c));
  // A regroup of the corpus on show is kept, by this controller, once the scan session has done it.
  const session: ScanSession = { ...scan, regroup: (options) => scan.regroup(options).then((shown) => (keepRegrouped(c, shown), shown)) };
  c.session = session;
  return {
    session,
    subscribe(listener) {
      c.listeners.add(listener);
      return () => c.listeners.delete(listener);
    },
    getSnapshot: () => c.snapshot,
    start: () => runRestore(c),
    resume: (files) => actions.resume(c, files),
    resumeStopped: () => actions.resumeStopped(c),
    keepInterrupted: () => actions.keepInterrupted(c),
    clear: () => actions.clear(c),
    resetLocalData: () => actions.resetLocalData(c),
    setKeepContents: (keep) => actions.setKeepContents(c, keep),
    remove: (positions) => actions.remove(c, positions),
    check: (files) => actions.check(c, files),
    dismissNotice: () => c.update({ notice: null }),
    rereadAll: () =>
      c.update({ rereadAll: true, notice: 'The next time you choose the folder, every file is read again, not only the files whose size or modification time changed.' }),
    openBundle: (bundle, folder) =>
      openBundle(c, bundle, folder).catch((error: unknown): OpenOutcome => {
        void c.dispatch({ type: 'bundle-refused' });
        return { kind: 'refused', message: `The CLI result could not be stored (${error instanceof Error ? error.message : String(error)}); the saved corpus is as it was.` };
      }),
    keepMarks: (paths) => createKeepMarksStore(paths),
    keepRules: createKeepRulesStore(),
    answer: (ok) => c.answer(ok),
    close: () => {
      unsubscribe();
      c.channel.close();
    },
  };
}
