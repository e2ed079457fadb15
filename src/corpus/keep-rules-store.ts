/**
 * The person's keep rules, kept with the corpus's settings: read once when first watched, saved on every
 * change. The corpus is their only writer; the keep panel subscribes (ui/keep/use-keep-rules.ts).
 */
import { DEFAULT_KEEP_RULES, type KeepRules } from '../core/keep/keep-rules.ts';
import { getKeepRules, putKeepRules } from '../storage/keep-settings.ts';

/** The rules (the defaults until the saved ones are read) and whether the saved ones were read. */
export interface KeepRulesSnapshot {
  rules: KeepRules;
  loaded: boolean;
}

export interface KeepRulesStore {
  getSnapshot(): KeepRulesSnapshot;
  subscribe(listener: () => void): () => void;
  setRules(next: KeepRules): void;
}

/** A store of the keep rules: reads the saved rules at its first subscriber, saves each change. */
export function createKeepRulesStore(): KeepRulesStore {
  let state: KeepRulesSnapshot = { rules: DEFAULT_KEEP_RULES, loaded: false };
  let reading = false;
  const listeners = new Set<() => void>();
  const set = (next: KeepRulesSnapshot) => {
    state = next;
    for (const l of listeners) l();
  };
  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      if (!reading) {
        reading = true;
        void getKeepRules()
          .catch(() => DEFAULT_KEEP_RULES)
          .then((saved) => set({ rules: saved, loaded: true }));
      }
      return () => listeners.delete(listener);
    },
    setRules(rules) {
      set({ rules, loaded: state.loaded });
      // A failed save keeps the rules for this visit; the next one starts from what was saved.
      void putKeepRules(rules).catch(() => undefined);
    },
  };
}
