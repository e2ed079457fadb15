/**
 * The person's marks and "not a duplicate" lists (documents and pairs) for the documents shown, and the
 * keep-panel exclusions: one small store per set of documents, read from storage once (by path, so they
 * survive a reload and a rescan) and saved on every change. The corpus is their only writer; the keep
 * panel, the pair view's "not a duplicate" button and the results' counts each subscribe to it
 * (ui/keep/use-keep-marks.ts), so a mark re-renders only its readers.
 */
import { NO_EXCLUSIONS, type Exclusions } from '../core/documents/exclusions.ts';
import { marksFromSaved, marksToSaved, type SeparatedPair } from '../core/keep/keep-marks.ts';
import { getKeepExclusions, getSavedMarks, putKeepExclusions, putSavedMarks } from '../storage/keep-marks.ts';

/** What the store holds; each field is replaced (never mutated) when it changes. */
export interface KeepMarksSnapshot {
  marks: Map<number, boolean>;
  ignored: Set<number>;
  /** Pairs said not to be duplicates of each other. */
  separated: readonly SeparatedPair[];
  exclusions: Exclusions;
}

export interface KeepMarksStore {
  getSnapshot(): KeepMarksSnapshot;
  subscribe(listener: () => void): () => void;
  setMarks(next: Map<number, boolean>): void;
  setIgnored(next: Set<number>): void;
  setSeparated(next: readonly SeparatedPair[]): void;
  setExclusions(next: Exclusions): void;
}

/** A store for the documents `paths` names: starts empty, then holds what was saved for them. */
export function createKeepMarksStore(paths: readonly string[]): KeepMarksStore {
  let state: KeepMarksSnapshot = { marks: new Map(), ignored: new Set(), separated: [], exclusions: NO_EXCLUSIONS };
  // A change made before the saved marks arrive wins over them (it was made on what the person saw).
  let marksChanged = false;
  let exclusionsChanged = false;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<KeepMarksSnapshot>) => {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  };
  // Saved in a task of its own, once for the changes of one task: copying thousands of marks into
  // IndexedDB made the click's task long (the main-thread bench's "keep one, mark the rest").
  // A failed save keeps the marks for this visit; the next one starts from what was saved.
  let saving: ReturnType<typeof setTimeout> | null = null;
  const saveMarks = (patch: Partial<KeepMarksSnapshot>) => {
    marksChanged = true;
    set(patch);
    saving ??= setTimeout(() => {
      saving = null;
      void putSavedMarks(marksToSaved(state.marks, state.ignored, paths, state.separated)).catch(() => undefined);
    }, 0);
  };
  getSavedMarks()
    .then((saved) => {
      // Nothing saved: no new state (a render of the panel and a new decision after every scan otherwise).
      if (marksChanged || (saved.marks.length === 0 && saved.ignored.length === 0 && saved.separated.length === 0)) return;
      set(marksFromSaved(saved, paths));
    })
    .catch(() => undefined);
  getKeepExclusions()
    .then((saved) => {
      if (!exclusionsChanged && saved !== NO_EXCLUSIONS) set({ exclusions: saved });
    })
    .catch(() => undefined);
  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setMarks: (marks) => saveMarks({ marks }),
    setIgnored: (ignored) => saveMarks({ ignored }),
    setSeparated: (separated) => saveMarks({ separated }),
    setExclusions(exclusions) {
      exclusionsChanged = true;
      set({ exclusions });
      void putKeepExclusions(exclusions).catch(() => undefined);
    },
  };
}
