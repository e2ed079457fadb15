/** Loading the two documents of an opened pair: their texts (read again from the Files) and their exact Jaccard. */
import { useEffect, useState } from 'react';
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { jaccardSorted } from '../core/groups/jaccard.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';

/** Texts above this many characters together get no main-thread Jaccard (it would hold the page too long). */
const JACCARD_CHAR_LIMIT = 400_000;

export type PairTexts =
  | { phase: 'loading' }
  | { phase: 'error'; message: string }
  | { phase: 'ready'; textA: string; textB: string; jaccard: number | null };

/**
 * Reads `fileA` and `fileB` as text and computes the exact Jaccard of their feature sets under
 * `settings` (the features the scan fingerprinted; weights do not change the set), unless `known`
 * (a verified value) is given or the texts are too long.
 */
export function usePairTexts(fileA: File | null, fileB: File | null, settings: SimHashSettings, known: number): PairTexts {
  const [state, setState] = useState<PairTexts>({ phase: 'loading' });
  useEffect(() => {
    if (!fileA || !fileB) return;
    let live = true;
    setState({ phase: 'loading' });
    Promise.all([fileA.text(), fileB.text()]).then(
      ([textA, textB]) => {
        if (!live) return;
        let jaccard: number | null = Number.isNaN(known) ? null : known;
        if (jaccard === null && textA.length + textB.length <= JACCARD_CHAR_LIMIT) {
          const fp = createFingerprinter({ ...settings, weights: 'binary' });
          jaccard = jaccardSorted(fp.featureSet(textA), fp.featureSet(textB));
        }
        setState({ phase: 'ready', textA, textB, jaccard });
      },
      (error: unknown) => {
        if (live) setState({ phase: 'error', message: `Could not read the files again: ${error instanceof Error ? error.message : String(error)}` });
      },
    );
    return () => {
      live = false;
    };
  }, [fileA, fileB, settings, known]);
  return state;
}
