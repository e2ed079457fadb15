/** The hooks that subscribe to the corpus's keep marks store (corpus/keep-marks-store.ts). */
import { useSyncExternalStore } from 'react';
import type { KeepMarksSnapshot, KeepMarksStore } from '../../corpus/keep-marks-store.ts';

/** One field of the store, re-rendering the caller only when that field changes. */
export function useKeepMarksField<K extends keyof KeepMarksSnapshot>(store: KeepMarksStore, field: K): KeepMarksSnapshot[K] {
  return useSyncExternalStore(store.subscribe, () => store.getSnapshot()[field]);
}

/** The whole store's state, for the keep panel. */
export function useKeepMarks(store: KeepMarksStore): KeepMarksSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
