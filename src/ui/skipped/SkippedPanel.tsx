/**
 * The "Skipped" panel: every file left out of the comparison, with its reason, and counts per reason;
 * then the notes on files that were compared but not read exactly as they are (invalid UTF-8 replaced).
 */
import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { DocNote, SkippedFile } from '../../scan/scan-result.ts';
import type { SkipReason } from '../../core/documents/document-status.ts';
import { PathName } from '../shared/PathName.tsx';

export interface SkippedPanelProps {
  skipped: readonly SkippedFile[];
  /** Notes on compared files (none when absent). */
  notes?: readonly DocNote[];
}

/** Notes listed at most (they are rare; the rest are counted). */
const MAX_NOTES = 500;

function NotesList({ notes }: { notes: readonly DocNote[] }) {
  const shown = notes.length > MAX_NOTES ? notes.slice(0, MAX_NOTES) : notes;
  return (
    <section className="skipped__notes" aria-labelledby="notes-heading">
      <h2 id="notes-heading">Notes ({notes.length.toLocaleString('en')})</h2>
      <p className="ss-muted">These files were compared, but their text is not exactly their bytes:</p>
      <ul aria-label="Notes on compared files">
        {shown.map((n) => (
          <li key={n.docId} className="skipped__row">
            <PathName path={n.path} maxChars={80} className="skipped__path" />
            <span className="skipped__reason">{n.message}</span>
          </li>
        ))}
      </ul>
      {shown.length < notes.length && <p className="ss-muted">and {(notes.length - shown.length).toLocaleString('en')} more.</p>}
    </section>
  );
}

const REASON_LABEL: Record<SkipReason, string> = {
  binary: 'Binary',
  'too-short': 'Too short',
  'too-large': 'Too large',
  // A browser's 0-byte file may be a FIFO or device, not an empty file (document-status.ts).
  empty: '0 bytes',
  unreadable: 'Unreadable',
  hidden: 'Hidden',
  'not-regular': 'Not a regular file',
  encrypted: 'Encrypted',
  damaged: 'Damaged',
  'no-text': 'No text',
  'over-limit': 'Safety limit',
};

const ROW_HEIGHT = 44;
/** The list's height once it holds more rows than fit (px). */
const SCROLL_HEIGHT = 320;

/** Lists skipped files in a virtual list (there can be tens of thousands). */
export function SkippedPanel({ skipped, notes = [] }: SkippedPanelProps) {
  const counts = useMemo(() => {
    const c = new Map<SkipReason, number>();
    for (const s of skipped) c.set(s.reason, (c.get(s.reason) ?? 0) + 1);
    return [...c.entries()].sort((x, y) => y[1] - x[1]);
  }, [skipped]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: skipped.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Before layout (and in headless runs) render a first screenful instead of nothing.
    initialRect: { width: 800, height: SCROLL_HEIGHT },
  });
  if (skipped.length === 0) return notes.length > 0 ? <NotesList notes={notes} /> : null;
  return (
    <>
      <section className="skipped" aria-labelledby="skipped-heading">
        <h2 id="skipped-heading">Skipped ({skipped.length.toLocaleString('en')})</h2>
        <ul className="skipped__counts" aria-label="Skipped by reason">
          {counts.map(([reason, count]) => (
            <li key={reason}>
              {REASON_LABEL[reason]}: {count.toLocaleString('en')}
            </li>
          ))}
        </ul>
        {/* As tall as its rows up to a screenful: one skipped file sat in a 320 px empty box. */}
        <div ref={scrollRef} className="skipped__scroll" role="list" aria-label="Skipped files" style={{ height: Math.min(SCROLL_HEIGHT, skipped.length * ROW_HEIGHT + 2) }}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const s = skipped[row.index];
              return (
                <div
                  key={row.key}
                  role="listitem"
                  className="skipped__row"
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                >
                  <PathName path={s.path} maxChars={80} className="skipped__path" />
                  <span className="skipped__reason">{s.message}</span>
                </div>
              );
            })}
          </div>
        </div>
      </section>
      {notes.length > 0 && <NotesList notes={notes} />}
    </>
  );
}
