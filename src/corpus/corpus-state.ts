/**
 * The saved corpus's states in this page, the one pure transition between them, and the runner that
 * holds the current state. The panel's status, error and storage-full fields are derived from the
 * state (panelStatus), never written beside it. Plain data and functions: no storage, DOM or React.
 */
import type { StorageErrorKind } from '../storage/storage-error.ts';

/** A storage failure the person must act on; `kind` chooses the action (e.g. reset local data). */
export interface StorageProblem {
  kind: StorageErrorKind | 'other';
  message: string;
}

/**
 * Where the saved corpus is. `W` is a scan's open batch writer, `S` a source of files to scan again.
 * A writer is held from the moment it opens until the scan lets go of it (`writer-released`); a
 * full storage or a failure during a scan keeps it, so the scan's end still closes it.
 */
export type CorpusState<W, S> =
  /** Nothing read yet (the page just loaded). */
  | { kind: 'starting' }
  /** The saved corpus is being read and grouped. */
  | { kind: 'restoring' }
  /** Storage is usable; the corpus on show (if any) is the saved one. */
  | { kind: 'ready' }
  /** A scan writes into the corpus through `writer`; `restoring`: a restore begun before it is still running. */
  | { kind: 'scanning'; writer: W; restoring: boolean }
  /**
   * A commit hit the full quota: `saved` of the scan's files are in the corpus, `rest` (null: none)
   * can be scanned again once space is freed. `writer`: the stopped scan's, until the scan ends.
   */
  | { kind: 'storage-full'; message: string; saved: number; notSaved: number; rest: S | null; writer: W | null }
  /** Storage failed (`off`: this browser stores nothing). `writer`: a stopped scan's, until it ends. */
  | { kind: 'failed'; error: StorageProblem; off: boolean; writer: W | null };

/** What happens to the saved corpus, as data. */
export type CorpusAction<W, S> =
  | { type: 'restore-started' }
  | { type: 'restored' }
  | { type: 'writer-opened'; writer: W }
  /** The scan let go of `writer` (its result is on show, or it ended without one). */
  | { type: 'writer-released'; writer: W }
  | { type: 'storage-full'; message: string; saved: number; notSaved: number; rest: S | null }
  | { type: 'failed'; error: StorageProblem; off: boolean }
  /** The person asked to scan again what a full storage kept out. */
  | { type: 'resume-stopped' }
  | { type: 'cleared' }
  | { type: 'reset' }
  /** Opening a CLI result failed before anything changed: the corpus is as it was. */
  | { type: 'bundle-refused' };

/** What the runner does once the state has moved, in order. */
export type CorpusWrite<S> = { kind: 'scan'; source: S };

/** The next state and what it asks for. */
export interface Transition<W, S> {
  state: CorpusState<W, S>;
  writes: CorpusWrite<S>[];
}

/** The writer the state holds (open, or of a stopped scan that has not ended yet). */
export function writerOf<W, S>(s: CorpusState<W, S>): W | null {
  return s.kind === 'scanning' || s.kind === 'storage-full' || s.kind === 'failed' ? s.writer : null;
}

/**
 * Whether a scan may open a writer: storage is not off, and no failure but a full quota stands. A
 * stopped scan's writer does not forbid it: the writer lock makes the new one wait for it to close.
 */
export function mayWrite<W, S>(s: CorpusState<W, S>): boolean {
  return s.kind !== 'failed' || (!s.off && s.error.kind === 'quota');
}

const READY = { kind: 'ready' } as const;
const stay = <W, S>(state: CorpusState<W, S>): Transition<W, S> => ({ state, writes: [] });
const to = <W, S>(state: CorpusState<W, S>, writes: CorpusWrite<S>[] = []): Transition<W, S> => ({ state, writes });

/**
 * The one transition: the state after `action` and what it asks for. An action that does not apply
 * to the state (a restore's end while a stopped scan still holds its writer, say) leaves it as it is.
 */
export function transition<W, S>(state: CorpusState<W, S>, action: CorpusAction<W, S>): Transition<W, S> {
  const writer = writerOf(state);
  switch (action.type) {
    case 'restore-started':
      if (state.kind === 'scanning') return state.restoring ? stay(state) : to({ ...state, restoring: true });
      // A stopped scan's report stays until its writer is closed.
      return writer === null ? to({ kind: 'restoring' }) : stay(state);
    case 'restored':
      if (state.kind === 'scanning') return state.restoring ? to({ ...state, restoring: false }) : stay(state);
      return writer === null ? to(READY) : stay(state);
    case 'writer-opened':
      if (!mayWrite(state)) return stay(state);
      return to({ kind: 'scanning', writer: action.writer, restoring: state.kind === 'restoring' });
    case 'writer-released':
      if (writer === null || writer !== action.writer) return stay(state);
      if (state.kind === 'scanning') return to(state.restoring ? { kind: 'restoring' } : READY);
      return to({ ...state, writer: null } as CorpusState<W, S>);
    case 'storage-full':
      return to({ kind: 'storage-full', message: action.message, saved: action.saved, notSaved: action.notSaved, rest: action.rest, writer });
    case 'failed':
      return to({ kind: 'failed', error: action.error, off: action.off, writer });
    case 'resume-stopped':
      if (state.kind !== 'storage-full' || state.rest === null || writer !== null) return stay(state);
      return to(READY, [{ kind: 'scan', source: state.rest }]);
    case 'cleared':
    case 'reset':
      // The running scan was cancelled first; its writer still closes when the scan ends.
      return writer === null ? to(READY) : stay(state);
    case 'bundle-refused':
      return state.kind === 'restoring' || state.kind === 'starting' ? to(READY) : stay(state);
  }
}

/** The panel's status fields, as the state says them. */
export interface PanelStatus {
  /** 'restoring' while the saved corpus loads; 'off' when this browser cannot store anything. */
  status: 'starting' | 'restoring' | 'ready' | 'off' | 'error';
  error: StorageProblem | null;
  /**
   * The last scan stopped because the storage is full: how many of its files are in the corpus, and
   * whether a resume can scan the rest (the files are still at hand in this page, and the stopped scan has ended).
   */
  storageFull: { saved: number; notSaved: number; canResume: boolean } | null;
}

/** The panel's status, error and storage-full fields of `s`. */
export function panelStatus<W, S>(s: CorpusState<W, S>): PanelStatus {
  switch (s.kind) {
    case 'starting':
    case 'restoring':
    case 'ready':
      return { status: s.kind, error: null, storageFull: null };
    case 'scanning':
      return { status: s.restoring ? 'restoring' : 'ready', error: null, storageFull: null };
    case 'storage-full':
      return { status: 'error', error: { kind: 'quota', message: s.message }, storageFull: { saved: s.saved, notSaved: s.notSaved, canResume: s.rest !== null && s.writer === null } };
    case 'failed':
      return { status: s.off ? 'off' : 'error', error: s.error, storageFull: null };
  }
}

/** Holds the state and moves it only through `transition`. */
export interface CorpusRunner<W, S> {
  readonly state: CorpusState<W, S>;
  /** Applies `action`; returns what the transition asks for (the caller performs it). */
  dispatch(action: CorpusAction<W, S>): CorpusWrite<S>[];
}

/** A runner from 'starting'; `changed` hears every new state (not an action that left it as it was). */
export function createCorpusRunner<W, S>(changed: (state: CorpusState<W, S>) => void): CorpusRunner<W, S> {
  let state: CorpusState<W, S> = { kind: 'starting' };
  return {
    get state() {
      return state;
    },
    dispatch(action) {
      const next = transition(state, action);
      if (next.state !== state) {
        state = next.state;
        changed(state);
      }
      return next.writes;
    },
  };
}
