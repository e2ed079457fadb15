/** Subscribes a component to the word diff of two texts, computed in its own diff worker. */
import { useEffect, useRef, useState } from 'react';
import type { DiffResult } from '../../core/text/diff-runs.ts';
import { createDiffClient, type DiffClient } from './diff-client.ts';

export type WordDiffState =
  | { phase: 'pending' }
  | { phase: 'done'; result: DiffResult; a: string; b: string; loose: boolean }
  | { phase: 'error'; message: string };

/**
 * The diff of `a` and `b` (`ignoreCaseAndPunctuation`: compared as the fingerprint reads them);
 * recomputed (and the previous one abandoned) when any input changes.
 */
export function useWordDiff(a: string, b: string, ignoreCaseAndPunctuation: boolean, timeoutMs = 1500): WordDiffState {
  const [state, setState] = useState<WordDiffState>({ phase: 'pending' });
  const client = useRef<DiffClient | null>(null);

  useEffect(() => {
    // The worker lives as long as the component; created here so StrictMode's remount gets a new one.
    const own = createDiffClient();
    client.current = own;
    return () => {
      own.dispose();
      if (client.current === own) client.current = null;
    };
  }, []);

  useEffect(() => {
    const current = client.current;
    if (!current) return;
    const controller = new AbortController();
    setState({ phase: 'pending' });
    current.diff(a, b, { timeoutMs, ignoreCaseAndPunctuation }, controller.signal).then(
      (result) => setState({ phase: 'done', result, a, b, loose: ignoreCaseAndPunctuation }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ phase: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [a, b, ignoreCaseAndPunctuation, timeoutMs]);
  return state;
}
