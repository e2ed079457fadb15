/** The keep rules for a keep panel: subscribes to the corpus's keep rules store (corpus/keep-rules-store.ts). */
import { useSyncExternalStore } from 'react';
import type { KeepRules } from '../../core/keep/keep-rules.ts';
import type { KeepRulesStore } from '../../corpus/keep-rules-store.ts';

/** [rules, setRules, loaded]: the rules show the defaults until the saved ones are read. */
export function useKeepRules(store: KeepRulesStore): [KeepRules, (next: KeepRules) => void, boolean] {
  const { rules, loaded } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return [rules, store.setRules, loaded];
}
