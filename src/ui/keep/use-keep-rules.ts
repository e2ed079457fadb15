/** The keep rules for a keep panel: subscribes to a corpus keep rules store of its own (corpus/keep-rules-store.ts). */
import { useState, useSyncExternalStore } from 'react';
import type { KeepRules } from '../../core/keep/keep-rules.ts';
import { createKeepRulesStore } from '../../corpus/keep-rules-store.ts';

/** [rules, setRules, loaded]: the rules show the defaults until the saved ones are read. */
export function useKeepRules(): [KeepRules, (next: KeepRules) => void, boolean] {
  const [store] = useState(createKeepRulesStore);
  const { rules, loaded } = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return [rules, store.setRules, loaded];
}
