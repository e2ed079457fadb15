/** The pair view: two documents side by side with their word-level differences marked. */
import { useCallback, useMemo, useRef, type UIEvent } from 'react';
import { REMOVED, ADDED } from '../../workers/diff-api.ts';
import { runsToSegments, syncedScrollTop, type DiffSegment } from './diff-segments.ts';
import { useWordDiff } from './use-word-diff.ts';

export interface PairViewProps {
  /** Path of the left document (usually the group's reference). */
  pathA: string;
  /** Path of the right document. */
  pathB: string;
  textA: string;
  textB: string;
  /** Time budget for the word diff, in milliseconds (default 1500). */
  diffTimeoutMs?: number;
  /** Called by the "Close" button; no button when absent. */
  onClose?: () => void;
}

const STATUS_NOTE: Record<string, string | null> = {
  identical: null,
  words: null,
  lines: 'Some large changed blocks are marked whole: the word-level diff reached its time limit there.',
  'too-large': 'These texts are too large to compare word by word; they are shown without marks.',
  'too-slow': 'The texts differ too much to compare within the time limit; they are shown without marks.',
};

function Segments({ segments }: { segments: readonly DiffSegment[] }) {
  return segments.map((s, i) =>
    s.kind === REMOVED ? <del key={i}>{s.text}</del> : s.kind === ADDED ? <ins key={i}>{s.text}</ins> : s.text,
  );
}

/** Two texts side by side, differences highlighted, scrolling kept in step. Texts render as text only. */
export function PairView({ pathA, pathB, textA, textB, diffTimeoutMs, onClose }: PairViewProps) {
  const diff = useWordDiff(textA, textB, diffTimeoutMs);
  const paneA = useRef<HTMLPreElement>(null);
  const paneB = useRef<HTMLPreElement>(null);
  // The pane the user is scrolling leads; the echo scroll event of the follower is ignored.
  const leader = useRef<HTMLPreElement | null>(null);

  const done = diff.phase === 'done' && diff.a === textA && diff.b === textB ? diff.result : null;
  const segA = useMemo(() => (done ? runsToSegments(textA, done.aLengths, done.aKinds) : null), [done, textA]);
  const segB = useMemo(() => (done ? runsToSegments(textB, done.bLengths, done.bKinds) : null), [done, textB]);

  const onScroll = useCallback((event: UIEvent<HTMLPreElement>) => {
    const source = event.currentTarget;
    if (leader.current !== null && leader.current !== source) return;
    leader.current = source;
    const target = source === paneA.current ? paneB.current : paneA.current;
    if (target) {
      target.scrollTop = syncedScrollTop(
        source.scrollTop,
        source.scrollHeight,
        source.clientHeight,
        target.scrollHeight,
        target.clientHeight,
      );
    }
    requestAnimationFrame(() => {
      requestAnimationFrame(() => {
        if (leader.current === source) leader.current = null;
      });
    });
  }, []);

  const note = done ? STATUS_NOTE[done.status] : null;
  return (
    <section className="ss-panel ss-pair" aria-label="Pair view">
      <div className="ss-pair-bar">
        <h2 className="ss-panel-title" style={{ margin: 0 }}>
          Pair
        </h2>
        <span role="status">
          {diff.phase === 'pending' && 'Comparing…'}
          {diff.phase === 'error' && `Could not compare the texts: ${diff.message}`}
          {done?.status === 'identical' && 'The texts are identical.'}
          {done && done.status !== 'identical' &&
            `${done.removedChars.toLocaleString()} characters removed, ${done.addedChars.toLocaleString()} added (${Math.round(done.ms)} ms)`}
        </span>
        <span className="ss-spacer" />
        <span>
          <span className="ss-pair-legend-del">removed</span> <span className="ss-pair-legend-ins">added</span>
        </span>
        {onClose && (
          <button type="button" className="ss-button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
      {note && <p className="ss-pair-notice">{note}</p>}
      <div className="ss-pair-panes">
        <div className="ss-pair-pane">
          <h3 title={pathA}>{pathA}</h3>
          <pre
            ref={paneA}
            className="ss-pair-text"
            tabIndex={0}
            aria-label={`Text of ${pathA}`}
            onScroll={onScroll}
          >
            {segA ? <Segments segments={segA} /> : textA}
          </pre>
        </div>
        <div className="ss-pair-pane">
          <h3 title={pathB}>{pathB}</h3>
          <pre
            ref={paneB}
            className="ss-pair-text"
            tabIndex={0}
            aria-label={`Text of ${pathB}`}
            onScroll={onScroll}
          >
            {segB ? <Segments segments={segB} /> : textB}
          </pre>
        </div>
      </div>
    </section>
  );
}
