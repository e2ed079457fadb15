/**
 * The person's marks and "not a duplicate" lists (documents and pairs) for the documents shown, and the keep-panel exclusions:
 * read from storage once per set of documents (by path, so they survive a reload and a rescan), saved on
 * every change.
 */
import { useEffect, useState } from 'react';
import { NO_EXCLUSIONS, type Exclusions } from '../../core/documents/exclusions.ts';
import { marksFromSaved, marksToSaved, type SeparatedPair } from '../../core/keep/keep-marks.ts';
import { getKeepExclusions, getSavedMarks, putKeepExclusions, putSavedMarks } from '../../storage/keep-marks.ts';

export interface KeepMarksState {
  marks: Map<number, boolean>;
  ignored: Set<number>;
  /** Pairs said not to be duplicates of each other. */
  separated: readonly SeparatedPair[];
  exclusions: Exclusions;
  setMarks(next: Map<number, boolean>): void;
  setIgnored(next: Set<number>): void;
  setSeparated(next: readonly SeparatedPair[]): void;
  setExclusions(next: Exclusions): void;
}

const NO_MARKS = { marks: new Map<number, boolean>(), ignored: new Set<number>(), separated: [] as readonly SeparatedPair[] };
type MarksState = { for: readonly string[]; marks: Map<number, boolean>; ignored: Set<number>; separated: readonly SeparatedPair[] };

/** Marks and ignore list by document id of `paths`, and exclusions; saved as they change. */
export function useKeepMarks(paths: readonly string[]): KeepMarksState {
  const [state, setState] = useState<MarksState>({ for: paths, ...NO_MARKS });
  const [exclusions, setExclusionsState] = useState<Exclusions>(NO_EXCLUSIONS);
  if (state.for !== paths) setState({ for: paths, ...NO_MARKS });
  useEffect(() => {
    let live = true;
    getSavedMarks()
      .then((saved) => {
        // Nothing saved: no new state (a render of the panel and a new decision after every scan otherwise).
        if (!live || (saved.marks.length === 0 && saved.ignored.length === 0 && saved.separated.length === 0)) return;
        setState({ for: paths, ...marksFromSaved(saved, paths) });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [paths]);
  useEffect(() => {
    let live = true;
    getKeepExclusions()
      .then((saved) => {
        if (live && saved !== NO_EXCLUSIONS) setExclusionsState(saved);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [paths]);
  // A failed save keeps the marks for this visit; the next one starts from what was saved.
  const save = (next: MarksState) => {
    setState(next);
    void putSavedMarks(marksToSaved(next.marks, next.ignored, paths, next.separated)).catch(() => undefined);
  };
  return {
    marks: state.marks,
    ignored: state.ignored,
    separated: state.separated,
    exclusions,
    setMarks: (marks) => save({ ...state, for: paths, marks }),
    setIgnored: (ignored) => save({ ...state, for: paths, ignored }),
    setSeparated: (separated) => save({ ...state, for: paths, separated }),
    setExclusions(next) {
      setExclusionsState(next);
      void putKeepExclusions(next).catch(() => undefined);
    },
  };
}
