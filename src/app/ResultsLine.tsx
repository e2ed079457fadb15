/** The notes around the results: the line under them (documents compared, where the time went) and the chained groups. */
import { useMemo } from 'react';
import { DocStatus } from '../core/documents/document-status.ts';
import type { ScanResult } from '../scan/scan-result.ts';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** `compared`: the documents compared (the file counts' figure, so the summary and this line agree). */
export function ResultsLine({ result, compared }: { result: ScanResult; compared: number }) {
  const { docs, timings } = result;
  const distinct = useMemo(() => {
    let n = 0;
    for (let i = 0; i < docs.count; i++) if (docs.status[i] === DocStatus.ok && result.representative[i] === i) n++;
    return n;
  }, [docs, result.representative]);
  return (
    <div className="app-results-line">
      <p>
        {compared.toLocaleString('en')} documents compared ({distinct.toLocaleString('en')} distinct texts)
      </p>
      <p className="results__timings ss-muted">
        {/* A restore, or a second scan whose files were all unchanged, read nothing: said so, not "Reading 0.00 s". */}
        {timings.readingMs === 0 && timings.fingerprintingMs === 0 ? (
          'No file read (the saved corpus stood for every file)'
        ) : (
          <>
            Reading {seconds(timings.readingMs)} (fingerprinting alongside) · fingerprinting the rest {seconds(timings.fingerprintingMs)}
          </>
        )}{' '}
        · indexing {seconds(timings.indexingMs)} · grouping {seconds(timings.groupingMs)} · total {seconds(timings.totalMs)}
      </p>
    </div>
  );
}

/** Says how many groups chain (tagged "chains"), and what that means; nothing when none does. */
export function ChainedNote({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="ss-panel app-note app-note--warn" role="note">
      {count.toLocaleString('en')} {count === 1 ? 'group chains' : 'groups chain'} (tagged “chains”): its members are linked
      through others, but not all of them are near-duplicates of each other. Grouping around a reference (in Settings) never
      chains.
    </p>
  );
}
