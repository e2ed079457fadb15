/** The person's marks on a result, and what they change in what is exported and counted. */
import { useMemo } from 'react';
import type { ScanResult } from '../scan/scan-result.ts';
import { exportedPairCount } from '../core/export/csv.ts';
import type { KeepMarksStore } from '../corpus/keep-marks-store.ts';
import { useKeepMarksField } from '../ui/keep/use-keep-marks.ts';
import { flatPairs, separatedPartners } from '../core/keep/keep-marks.ts';

/**
 * The marks store of `result`'s documents (the corpus's, from `keepMarks`) (shared by the keep panel and the pair view), the "not a
 * duplicate" documents and pairs the CSV exports leave out, each document's "not duplicates of each
 * other" partners, and the number of rows Export CSV writes after those marks.
 */
export function useResultMarks(result: ScanResult, keepMarks: (paths: readonly string[]) => KeepMarksStore) {
  const { docs } = result;
  const marksStore = useMemo(() => keepMarks(docs.paths), [keepMarks, docs.paths]);
  const ignoredDocs = useKeepMarksField(marksStore, 'ignored');
  const separatedPairs = useKeepMarksField(marksStore, 'separated');
  const notDuplicates = useMemo(() => {
    if (ignoredDocs.size === 0 && separatedPairs.length === 0) return undefined;
    const flags = new Uint8Array(docs.count);
    for (const d of ignoredDocs) flags[d] = 1;
    return { docs: flags, pairs: flatPairs(separatedPairs) };
  }, [ignoredDocs, separatedPairs, docs.count]);
  const separatedFrom = useMemo(() => separatedPartners(separatedPairs), [separatedPairs]);
  // The summary and the Export caption say this number.
  const exportedPairs = useMemo(
    () => (notDuplicates ? exportedPairCount(result.relation, notDuplicates.docs, notDuplicates.pairs) : result.relation.pairCount),
    [result.relation, notDuplicates],
  );
  return { marksStore, notDuplicates, separatedFrom, exportedPairs };
}
