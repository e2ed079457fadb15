/** The file counts the summary and the progress line show, from one place so that they add up. */
import { DocStatus } from '../core/documents/document-status.ts';
import type { ScanResult } from '../scan/scan-result.ts';

/** How many files a result covers; `scanned = compared + skipped`. */
export interface FileCounts {
  /** Every file the scan listed and dealt with: compared + skipped (hidden files included, they are listed as skipped). */
  scanned: number;
  /** Fingerprinted (or identical to a fingerprinted file) and searched for duplicates. */
  compared: number;
  /** Listed in the Skipped panel: binary, empty, too short, unreadable, hidden. */
  skipped: number;
  /** Listed but never read because the scan was cancelled first (not in `scanned`). */
  notRead: number;
}

/** Counts `result`'s files by what happened to them. */
export function fileCounts(result: Pick<ScanResult, 'docs' | 'skipped'>): FileCounts {
  let compared = 0;
  let notRead = 0;
  const { status, count } = result.docs;
  for (let d = 0; d < count; d++) {
    if (status[d] === DocStatus.ok) compared++;
    // A copy still marked as one was never given its original's outcome: the scan stopped before the search.
    else if (status[d] === DocStatus.pending || status[d] === DocStatus.copy) notRead++;
  }
  const skipped = result.skipped.length;
  return { scanned: compared + skipped, compared, skipped, notRead };
}
