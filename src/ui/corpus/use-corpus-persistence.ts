/** Subscribes a component to the corpus persistence controller's snapshot. */
import { useSyncExternalStore } from 'react';
import type { CorpusPersistence, PersistenceSnapshot } from '../../corpus/corpus-persistence.ts';

/** The controller's current snapshot; re-renders on every change. */
export function useCorpusPersistence(persistence: CorpusPersistence): PersistenceSnapshot {
  return useSyncExternalStore(persistence.subscribe, persistence.getSnapshot);
}
