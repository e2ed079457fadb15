/**
 * The saved corpus's shared state in this page and the small services every part of it uses (the
 * panel's snapshot, failures, usage, tab notices, questions to the person, writes behind the shown
 * result). The scan's saving (corpus-scan-saving.ts), loading (corpus-loading.ts) and the person's
 * actions (corpus-persistence.ts) all work on one `CorpusContext`; nothing else holds corpus state.
 */
import { getCorpusSummary } from '../storage/corpus-repository.ts';
import type { CorpusSettings } from '../storage/settings-repository.ts';
import { isStorageError } from '../storage/storage-error.ts';
import { getStorageUsage } from '../storage/storage-quota.ts';
import type { StorageUsage } from '../storage/storage-quota.ts';
import { createCorpusChannel } from '../storage/tab-coordination.ts';
import type { CorpusChangeReason } from '../storage/tab-coordination.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { ScanSession, ScanSource } from '../scan/scan-session.ts';
import type { ScanStore } from '../scan/scan-store.ts';
import type { ScanDocs } from '../scan/scan-result.ts';
import type { CheckResult } from './check-against-corpus.ts';
import type { RestorePhase } from './restore-corpus.ts';
import type { BatchWriter } from './corpus-writer.ts';
import type { CorpusPart } from './merge-corpus.ts';
import type { StoredTables } from './stored-tables.ts';
import { createCorpusRunner, panelStatus, writerOf } from './corpus-state.ts';
import type { CorpusAction, CorpusState, PanelStatus } from './corpus-state.ts';
import { heldTransition, NOTHING_HELD } from './corpus-held.ts';
import type { Held, HeldAction, Revision } from './corpus-held.ts';


/** What the corpus panel shows; its status, error and storage-full fields are the state's (corpus-state.ts). */
export interface PersistenceSnapshot extends PanelStatus {
  documentCount: number;
  usage: StorageUsage | null;
  keepContents: boolean;
  /** A scan left 'running' by a closed tab, or stopped by a full storage (`storageFull`): how far it got. */
  interrupted: { id: number; label: string; committed: number; total: number; storageFull: boolean; cancelled: boolean; sync: boolean } | null;
  /** A passing notice (another tab changed the corpus, a scan was not saved, ...). */
  notice: string | null;
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
  /** "Re-read every file" was asked: the next choose of the folder reads every file. */
  rereadAll: boolean;
}

/** A scan's open batch writer, whether it rebuilds the corpus (other fingerprint settings), and the scan's documents. */
export interface Writing {
  writer: BatchWriter;
  rebuild: boolean;
  docs: ScanDocs;
}

/** The current corpus in memory: the shown result, each position's storage id (NO_ID if unsaved), its search state. */
export type Base = CorpusPart;

/** The saved corpus's state in this page (one per page) and its services. */
export interface CorpusContext {
  readonly scanStore: ScanStore;
  readonly workers: ScanWorkers;
  readonly channel: ReturnType<typeof createCorpusChannel>;
  snapshot: PersistenceSnapshot;
  /** The page's scan session, set once by createCorpusPersistence (its saving stage needs this context first). */
  session: ScanSession | null;
  /** The saved corpus as this page holds it (corpus-held.ts); moved only by `hold`. */
  readonly held: Held<Base, NonNullable<StoredTables>, CorpusSettings>;
  /** The corpus on show (null: none); a scan merges into it, a removal or another tab's change reloads it: the held one's. */
  readonly base: Base | null;
  /** The settings storage holds (null: none): the held ones. */
  readonly savedSettings: CorpusSettings | null;
  /** The stored permuted tables (null: none; checks scan linearly), merged into by new batches: the held ones. */
  readonly tables: StoredTables;
  /** The corpus revision `base` was read at (or written up to by this tab; null: never read): the held one. */
  readonly baseRevision: Revision | null;
  /** Paths a folder chosen again no longer held (they left the corpus): named as having come back when they return. */
  leftPaths: Set<string>;
  /** The notice that belongs to the scan about to start (a resume's); any other passing notice ends when a scan starts. */
  scanNotice: string | null;
  /** The last scan's writes that finish behind its results (see finish); never rejects. */
  saving: Promise<void>;
  /** Stops asking the last scan's new files their times (file-times.ts): a new scan starts. */
  stopTimes: () => void;
  /** Where the saved corpus is (corpus-state.ts); moved only by `dispatch`. */
  readonly state: CorpusState<Writing, ScanSource>;
  /** The running (or stopped, not yet ended) scan's writer: the state's. */
  readonly writing: Writing | null;
  /** The files a full storage kept out of the corpus (for resumeStopped): the state's. */
  readonly notSaved: ScanSource | null;
  /** The restore in flight (resume waits for it, so the resumed files merge into the restored corpus). */
  restoring: Promise<void>;
  /** Another tab's change heard while this tab scanned: loaded once the scan's result is on show (see catchUp). */
  missedChange: { reason: CorpusChangeReason } | null;
  readonly listeners: Set<() => void>;
  /** Moves the held corpus (heldTransition). */
  hold(action: HeldAction<Base, NonNullable<StoredTables>, CorpusSettings>): void;
  /** Moves the state (the panel's status fields follow) and starts the scans the transition asks for. */
  dispatch(action: CorpusAction<Writing, ScanSource>): Promise<void>;
  /** Changes the panel's snapshot and tells its listeners (the status fields come from `state` only). */
  update(patch: Partial<Omit<PersistenceSnapshot, keyof PanelStatus>>): void;
  /** Shows a failure: 'off' when this browser stores nothing, else an error the person acts on. */
  fail(error: unknown): void;
  /** Refreshes the storage used and the document count (informative only; never rejects). */
  refreshUsage(): Promise<void>;
  /** Tells other tabs the corpus changed. */
  notify(reason: CorpusChangeReason): void;
  /** Asks the person (the panel shows `confirmation`); false when `signal` aborts first. */
  ask(confirmation: NonNullable<PersistenceSnapshot['confirmation']>, signal: AbortSignal): Promise<boolean>;
  /** Answers the pending question, if any (the panel's buttons). */
  answer(ok: boolean): void;
  /** Counts a write that finishes behind the shown result (`saving` in the snapshot). */
  track(write: Promise<unknown>): void;
  /** Runs `task`, showing its failure instead of rejecting. */
  guarded(task: () => Promise<void>): Promise<void>;
}

const INITIAL: PersistenceSnapshot = {
  ...panelStatus({ kind: 'starting' }),
  documentCount: 0,
  usage: null,
  keepContents: true,
  interrupted: null,
  notice: null,
  checks: null,
  checking: false,
  restore: null,
  index: null,
  saving: false,
  confirmation: null,
  unmeasured: 0,
  rereadAll: false,
};

/** A context with nothing loaded yet. */
export function createCorpusContext(scanStore: ScanStore, workers: ScanWorkers): CorpusContext {
  // The panel's status fields are the state's, written with every change of it and nowhere else.
  const runner = createCorpusRunner<Writing, ScanSource>((state) => {
    c.snapshot = { ...c.snapshot, ...panelStatus(state) };
    for (const l of [...c.listeners]) l();
  });
  /** The pending question's answer; the panel renders `snapshot.confirmation` and calls `answer`. */
  let answerPending: ((ok: boolean) => void) | null = null;
  /** Writes behind the shown result still running (the panel says "Saving…" while there are any). */
  let pendingSaves = 0;
  let held: CorpusContext['held'] = NOTHING_HELD;
  const c: CorpusContext = {
    scanStore,
    workers,
    channel: createCorpusChannel(),
    snapshot: INITIAL,
    session: null,
    get held() {
      return held;
    },
    get base() {
      return held.on.kind === 'shown' ? held.on.base : null;
    },
    get savedSettings() {
      return held.settings;
    },
    get tables() {
      return held.on.kind === 'shown' ? held.on.tables : null;
    },
    get baseRevision() {
      return held.revision;
    },
    hold(action) {
      held = heldTransition(held, action);
    },
    leftPaths: new Set(),
    scanNotice: null,
    saving: Promise.resolve(),
    stopTimes: () => undefined,
    get state() {
      return runner.state;
    },
    get writing() {
      return writerOf(runner.state);
    },
    get notSaved() {
      const s = runner.state;
      return s.kind === 'storage-full' ? s.rest : null;
    },
    restoring: Promise.resolve(),
    missedChange: null,
    listeners: new Set(),
    async dispatch(action) {
      for (const write of runner.dispatch(action)) await c.session?.start(write.source);
    },
    update(patch) {
      c.snapshot = { ...c.snapshot, ...patch };
      for (const l of [...c.listeners]) l();
    },
    fail(error) {
      if (isStorageError(error)) {
        void c.dispatch({ type: 'failed', off: error.kind === 'unavailable', error: { kind: error.kind, message: error.userMessage } });
      } else {
        void c.dispatch({ type: 'failed', off: false, error: { kind: 'other', message: `The saved corpus could not be used: ${String(error)}` } });
      }
    },
    refreshUsage: async () => {
      try {
        const [usage, summary] = await Promise.all([getStorageUsage(), getCorpusSummary()]);
        c.update({ usage, documentCount: summary.documentCount });
      } catch {
        // Usage is informative only.
      }
    },
    notify(reason) {
      getCorpusSummary()
        .then((s) => c.channel.notify(reason, s.revision))
        .catch(() => undefined);
    },
    ask: (confirmation, signal) =>
      new Promise((resolve) => {
        const done = (ok: boolean) => {
          answerPending = null;
          signal.removeEventListener('abort', onAbort);
          c.update({ confirmation: null });
          resolve(ok);
        };
        const onAbort = () => done(false);
        answerPending = done;
        signal.addEventListener('abort', onAbort);
        c.update({ confirmation });
      }),
    answer: (ok) => answerPending?.(ok),
    track(write) {
      // Writes that finish behind the shown result are counted, so the panel can say "Saving…" and a
      // person (or a test) knows when a reload would keep everything.
      if (pendingSaves++ === 0) c.update({ saving: true });
      void write
        .catch(() => undefined)
        .then(() => {
          if (--pendingSaves === 0) c.update({ saving: false });
        });
    },
    async guarded(task) {
      try {
        await task();
      } catch (error) {
        c.fail(error);
      }
    },
  };
  return c;
}
