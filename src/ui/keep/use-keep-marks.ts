/**
 * The person's marks and "not a duplicate" list for the documents shown, and the keep-panel exclusions:
 * read from storage once per set of documents (by path, so they survive a reload and a rescan), saved on
 * every change.
 */
import { useEffect, useState } from 'react';
import { NO_EXCLUSIONS, type Exclusions } from '../../core/documents/exclusions.ts';
import { marksFromSaved, marksToSaved } from '../../core/keep/keep-marks.ts';
import { getKeepExclusions, getSavedMarks, putKeepExclusions, putSavedMarks } from '../../storage/keep-marks.ts';

export interface KeepMarksState {
  marks: Map<number, boolean>;
  ignored: Set<number>;
  exclusions: Exclusions;
  setMarks(next: Map<number, boolean>): void;
  setIgnored(next: Set<number>): void;
  setExclusions(next: Exclusions): void;
}

const NO_MARKS = { marks: new Map<number, boolean>(), ignored: new Set<number>() };

/** Marks and ignore list by document id of `paths`, and exclusions; saved as they change. */
export function useKeepMarks(paths: readonly string[]): KeepMarksState {
  const [state, setState] = useState<{ for: readonly string[]; marks: Map<number, boolean>; ignored: Set<number> }>({ for: paths, ...NO_MARKS });
  const [exclusions, setExclusionsState] = useState<Exclusions>(NO_EXCLUSIONS);
  if (state.for !== paths) setState({ for: paths, ...NO_MARKS });
  useEffect(() => {
    let live = true;
    getSavedMarks()
      .then((saved) => {
        // Nothing saved: no new state (a render of the panel and a new decision after every scan otherwise).
        if (!live || (saved.marks.length === 0 && saved.ignored.length === 0)) return;
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
  }, []);
  // A failed save keeps the marks for this visit; the next one starts from what was saved.
  const save = (marks: Map<number, boolean>, ignored: Set<number>) => void putSavedMarks(marksToSaved(marks, ignored, paths)).catch(() => undefined);
  return {
    marks: state.marks,
    ignored: state.ignored,
    exclusions,
    setMarks(marks) {
      setState({ for: paths, marks, ignored: state.ignored });
      save(marks, state.ignored);
    },
    setIgnored(ignored) {
      setState({ for: paths, marks: state.marks, ignored });
      save(state.marks, ignored);
    },
    setExclusions(next) {
      setExclusionsState(next);
      void putKeepExclusions(next).catch(() => undefined);
    },
  };
}
