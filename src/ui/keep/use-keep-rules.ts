/** The person's keep rules: loaded from the saved settings once, saved on every change. */
import { useEffect, useState } from 'react';
import { DEFAULT_KEEP_RULES, type KeepRules } from '../../core/keep/keep-rules.ts';
import { getKeepRules, putKeepRules } from '../../storage/keep-settings.ts';

/** [rules, setRules, loaded]: the rules show the defaults until the saved ones are read. */
export function useKeepRules(): [KeepRules, (next: KeepRules) => void, boolean] {
  const [rules, setRules] = useState<KeepRules>(DEFAULT_KEEP_RULES);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    getKeepRules()
      .catch(() => DEFAULT_KEEP_RULES)
      .then((saved) => {
        if (!live) return;
        setRules(saved);
        setLoaded(true);
      });
    return () => {
      live = false;
    };
  }, []);
  const change = (next: KeepRules) => {
    setRules(next);
    // A failed save keeps the rules for this visit; the next one starts from what was saved.
    void putKeepRules(next).catch(() => undefined);
  };
  return [rules, change, loaded];
}
