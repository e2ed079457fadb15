/** Human formatting for progress figures (bytes, rates, durations) and the progress line of a running scan. */
import type { ScanPhase, ScanProgress } from '../../scan/scan-store.ts';
import { formatSize } from '../shared/format-size.ts';

/** 1.2 MB, 340 KB, 12 B (decimal units, like file managers): the shared size format. */
export const formatBytes = formatSize;

/** "3 s", "1 min 05 s". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** What each phase is called while it runs. */
export const PHASE_LABEL: Record<ScanPhase, string> = {
  listing: 'Listing files',
  checking: 'Checking which saved files changed (size and modification time)',
  reading: 'Reading and fingerprinting files',
  fingerprinting: 'Fingerprinting the last files',
  indexing: 'Searching for near-duplicate candidates',
  grouping: 'Verifying pairs and grouping',
  saving: 'Saving to the corpus in this browser',
};

/** Below this many files a one-at-a-time quick check is over before a hint could help. */
const HINT_FILES = 5000;

/**
 * While a large folder chosen through the folder input is checked file by file, where the browser gives
 * a dropped folder's handles (Chromium): the drop is checked in the workers instead (the README's again
 * bench: 100,000 files dropped again 25.9 s, chosen again 73.1 s). Null otherwise.
 */
export function checkingHint(p: ScanProgress, dropGivesHandles: boolean): string | null {
  if (p.phase !== 'checking' || !p.checkingOneByOne || p.filesTotal < HINT_FILES || !dropGivesHandles) return null;
  return 'This browser answers a chosen folder’s file sizes and times one file at a time. Next time, drag the folder onto this page instead: a dropped folder is checked faster.';
}

/** The figures of the progress line, each null when it would not be true. */
export interface ProgressFigures {
  /** "1,200 of 20,000 files", or "1,200 files found" while listing. */
  files: string | null;
  /** "63 MB of 252 MB", "63 MB of about 250 MB", or "63 MB read" when the total is unknown or was underestimated. */
  bytes: string | null;
  /** "25 MB/s". */
  rate: string | null;
  /** "about 12 s left" (only beside a total that still holds). */
  left: string | null;
}

/**
 * The progress line's figures. A total is printed only when it is known or its estimate still exceeds
 * what is done: a huge file streaming in while few small ones were read made the extrapolation "63 MB
 * of about 252 KB", and only large files "117 MB of about 0 B"; then only the bytes read are shown,
 * without a time left computed from the wrong total.
 */
export function progressFigures(p: ScanProgress): ProgressFigures {
  const files =
    p.filesTotal > 0
      ? `${p.filesDone.toLocaleString('en')} of ${p.filesTotal.toLocaleString('en')} files`
      : null;
  const reading = p.phase === 'reading' || p.phase === 'fingerprinting';
  if (!reading) return { files: p.phase === 'listing' ? null : files, bytes: null, rate: null, left: null };
  const totalHolds = p.bytesTotal > 0 && p.bytesDone <= p.bytesTotal;
  const bytes = totalHolds
    ? `${formatBytes(p.bytesDone)} of ${p.bytesTotalKnown ? '' : 'about '}${formatBytes(p.bytesTotal)}`
    : `${formatBytes(p.bytesDone)} read`;
  return {
    files,
    bytes,
    rate: p.bytesPerSecond > 0 ? `${formatBytes(p.bytesPerSecond)}/s` : null,
    left: totalHolds && p.secondsLeft !== null ? `about ${formatSeconds(p.secondsLeft)} left` : null,
  };
}
