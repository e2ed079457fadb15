/** Shows a running scan's phase, files and bytes done, speed and time left, with Cancel. */
import type { ScanProgress as Progress, ScanState } from '../../scan/scan-store.ts';
import { checkingHint, formatBytes, formatSeconds, PHASE_LABEL, progressFigures } from './format-progress.ts';
import { dropGivesHandles } from '../../scan/collect-files.ts';

export interface ScanProgressProps {
  state: ScanState;
  progress: Progress | null;
  onCancel(): void;
  /** Why the scan stopped when the person did not cancel it (shown as an error instead of "Scan cancelled"). */
  stopped?: string | null;
}

/**
 * "Scanned 18 files in 3 s (15 read, 2.1 MB; 3 hidden or unreadable, not read)." The files this scan dealt
 * with, as the Summary counts them (compared + skipped) when the result is this scan's alone; files the
 * quick check found unchanged are among them (a folder chosen again is the whole folder, not the few
 * files read); the files the exclusions left out are named apart (they are not documents).
 */
export function doneLine(p: Progress): string {
  const scanned = p.filesTotal + p.filesListedOnly + p.filesUnchanged;
  const time = formatSeconds(p.elapsedMs / 1000);
  const unchanged = p.filesUnchanged > 0 ? `; ${p.filesUnchanged.toLocaleString('en')} unchanged since saved, not read` : '';
  const read = `${p.filesTotal.toLocaleString('en')} read, ${formatBytes(p.bytesTotal)}${unchanged}`;
  const unread = p.filesListedOnly > 0 ? `; ${p.filesListedOnly.toLocaleString('en')} hidden or unreadable, not read` : '';
  const excluded = p.filesExcluded > 0 ? `; ${p.filesExcluded.toLocaleString('en')} left out by your exclusions, not read` : '';
  return `Scanned ${scanned.toLocaleString('en')} file${scanned === 1 ? '' : 's'} in ${time} (${read}${unread}${excluded}).`;
}

/** The progress panel; renders nothing when idle. */
export function ScanProgress({ state, progress, onCancel, stopped = null }: ScanProgressProps) {
  if (state === 'idle') return null;
  const p = progress;
  const fraction = !p ? 0 : p.bytesTotalKnown && p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 0;
  const measurable = p?.phase === 'checking' || p?.phase === 'reading' || p?.phase === 'fingerprinting';
  const figures = p ? Object.values(progressFigures(p)).filter((f): f is string => f !== null) : null;
  const hint = p && checkingHint(p, dropGivesHandles());
  return (
    <section className="scan-progress" aria-label="Scan progress">
      {state === 'scanning' && (
        <>
          <p className="scan-progress__phase">{p ? PHASE_LABEL[p.phase] : 'Starting'}…</p>
          <progress aria-label="Scan progress" max={1} value={measurable && p.filesTotal > 0 ? fraction : undefined} />
          {figures && figures.length > 0 && <p className="scan-progress__figures">{figures.join(' · ')}</p>}
          {hint && <p className="scan-progress__hint">{hint}</p>}
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        </>
      )}
      {state === 'cancelled' && !stopped && <p role="status">Scan cancelled. Files finished before the cancel are listed below.</p>}
      {state === 'cancelled' && stopped && (
        <p role="alert" className="app-error">
          {stopped}
        </p>
      )}
      {state === 'done' && p && (
        <p role="status">
          {doneLine(p)}
        </p>
      )}
    </section>
  );
}
