/** The pair view: two documents side by side with their word-level differences marked. */
import { useCallback, useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { REMOVED, ADDED, type DiffResult } from '../../core/text/diff-runs.ts';
import { chunkIndexOf, chunkSegments, chunkStarts, mapOffset, markShared, runsToSegments, sharedPassageStart, syncedScrollTop, SHARED, type DiffSegment } from './diff-segments.ts';
import { offsetAtTop, scrollOffsetTo } from './text-position.ts';
import { useWordDiff } from './use-word-diff.ts';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';
import { FORMAT_LABELS, isExtractedFormat, type DocumentFormat } from '../../core/text/document-format.ts';
import '../shared/theme.css';

export interface PairViewProps {
  /** Path of the left document (usually the group's reference). */
  pathA: string;
  /** Path of the right document. */
  pathB: string;
  textA: string;
  textB: string;
  /** What each document is (named above its text when it is not plain text). */
  formatA?: DocumentFormat;
  formatB?: DocumentFormat;
  /** Time budget for the word diff, in milliseconds (default 1500). */
  diffTimeoutMs?: number;
  /** Called by the "Close" button; no button when absent. */
  onClose?: () => void;
  /**
   * A contained pair: A lies in B at this containment (|A ∩ B| / |A|). The passage of B shared with A
   * is marked, and B is scrolled to it when the diff arrives (not to the first change).
   */
  containedInB?: number;
}

/** Longest path above a pane, in characters (the folder loses its middle first). */
const PANE_PATH_CHARS = 64;

const STATUS_NOTE: Record<string, string | null> = {
  identical: null,
  words: null,
  'too-large': 'These texts are too large to compare word by word; they are shown without marks.',
  'too-slow': 'The texts differ too much to compare within the time limit; they are shown without marks.',
};

/** The line under a pane's title naming what the document is and how its text was read. */
function FormatNote({ format }: { format: DocumentFormat }) {
  const how = isExtractedFormat(format) ? 'text extracted' : format === 'html' ? 'tags removed' : null;
  return (
    <p className="ss-muted ss-pair-format">
      {FORMAT_LABELS[format]}
      {how && ` (${how})`}
    </p>
  );
}

const words = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'word' : 'words'}`;

/** What the diff found, in words (line breaks and spacing never count). */
function DiffSummary({ result, loose }: { result: DiffResult; loose: boolean }) {
  if (result.status !== 'words') return null;
  if (result.removedWords + result.addedWords === 0) {
    return loose ? 'The same words, ignoring case and punctuation.' : 'The same words; only line breaks and spacing differ.';
  }
  return `${words(result.removedWords)} removed, ${words(result.addedWords)} added`;
}

/** One pane's text as blocks of a few KB; off-screen blocks skip layout (content-visibility: auto). */
function ChunkedText({ chunks, starts, pinned = -1 }: { chunks: readonly DiffSegment[][]; starts: Uint32Array; pinned?: number }) {
  return chunks.map((chunk, c) => (
    <span key={c} className={c === pinned ? 'ss-pair-chunk ss-pair-chunk--pinned' : 'ss-pair-chunk'} data-start={starts[c]}>
      {chunk.map((s, i) =>
        s.kind === REMOVED ? (
          <del key={i}>{s.text}</del>
        ) : s.kind === ADDED ? (
          <ins key={i}>{s.text}</ins>
        ) : s.kind === SHARED ? (
          <mark key={i} className="ss-pair-shared">
            {s.text}
          </mark>
        ) : (
          s.text
        ),
      )}
    </span>
  ));
}

/** Two texts side by side, differences highlighted, scrolling kept in step. Texts render as text only. */
export function PairView({ pathA, pathB, textA, textB, formatA = 'text', formatB = 'text', diffTimeoutMs, onClose, containedInB }: PairViewProps) {
  // Off: words compared as written (case and punctuation count); on: as the fingerprint reads them.
  const [loose, setLoose] = useState(false);
  const diff = useWordDiff(textA, textB, loose, diffTimeoutMs);
  const paneA = useRef<HTMLPreElement>(null);
  const paneB = useRef<HTMLPreElement>(null);
  // The pane the user is scrolling leads; the echo scroll event of the follower is ignored.
  const leader = useRef<HTMLPreElement | null>(null);
  // Where a contained pair's shared passage starts in B (0 otherwise): set once the diff is known.
  const sharedFloor = useRef(0);

  const done = diff.phase === 'done' && diff.a === textA && diff.b === textB && diff.loose === loose ? diff.result : null;
  const chunksA = useMemo(
    () => chunkSegments(done ? runsToSegments(textA, done.aLengths, done.aKinds) : [{ text: textA, kind: 0 }]),
    [done, textA],
  );
  const contained = containedInB !== undefined;
  const chunksB = useMemo(() => {
    const segments = done ? runsToSegments(textB, done.bLengths, done.bKinds) : [{ text: textB, kind: 0 }];
    // Marked before chunking: a chunk boundary may cut a passage, and each piece stays marked.
    return chunkSegments(contained && done ? markShared(segments) : segments);
  }, [done, textB, contained]);

  const startsA = useMemo(() => chunkStarts(chunksA), [chunksA]);
  const startsB = useMemo(() => chunkStarts(chunksB), [chunksB]);

  // The text at the top of the pane being scrolled is brought to the top of the other pane (matched
  // through the diff's unchanged runs); before the diff is known, the relative position is kept.
  const onScroll = useCallback((event: UIEvent<HTMLPreElement>) => {
    const source = event.currentTarget;
    if (leader.current !== null && leader.current !== source) return;
    leader.current = source;
    const fromA = source === paneA.current;
    const target = fromA ? paneB.current : paneA.current;
    if (target) {
      const top = done ? offsetAtTop(source) : null;
      const aligned =
        done !== null &&
        top !== null &&
        scrollOffsetTo(
          target,
          fromA ? startsB : startsA,
          // A contained pair's excerpt lies no earlier in the whole than their shared passage (its first
          // words alone may align with an earlier place in the whole).
          fromA ? Math.max(sharedFloor.current, mapOffset(done.alignA, done.alignB, top.offset)) : mapOffset(done.alignB, done.alignA, top.offset),
          top.y,
        );
      if (!aligned) {
        target.scrollTop = syncedScrollTop(
          source.scrollTop,
          source.scrollHeight,
          source.clientHeight,
          target.scrollHeight,
          target.clientHeight,
        );
      }
    }
    requestAnimationFrame(() => {
      requestAnimationFrame(() => {
        if (leader.current === source) leader.current = null;
      });
    });
  }, [done, startsA, startsB]);

  const anchors = useMemo(() => done?.changes ?? new Uint32Array(0), [done]);
  // The change last jumped to, valid while the left pane has not been scrolled since.
  const lastJump = useRef<{ offset: number; scrollTop: number } | null>(null);
  const jump = (direction: 1 | -1) => {
    const pane = paneA.current;
    if (!pane || anchors.length === 0) return;
    const base =
      lastJump.current && lastJump.current.scrollTop === pane.scrollTop
        ? lastJump.current.offset
        : (offsetAtTop(pane)?.offset ?? 0);
    let i = -1;
    if (direction > 0) {
      for (let k = 0; k < anchors.length; k++) if (anchors[k] > base) { i = k; break; }
    } else {
      for (let k = anchors.length - 1; k >= 0; k--) if (anchors[k] < base) { i = k; break; }
    }
    if (i < 0) return;
    leader.current = null;
    scrollOffsetTo(pane, startsA, anchors[i], 48);
    lastJump.current = { offset: anchors[i], scrollTop: pane.scrollTop };
  };

  // The blocks holding the first difference are always laid out: a skipped block (content-visibility)
  // has a placeholder height, and scrolling to a place inside it would land beside the difference.
  // A contained pair opens at the passage of B shared with A; other pairs at their first difference.
  const sharedAt = useMemo(() => (done && contained ? sharedPassageStart(done.bLengths, done.bKinds) : -1), [done, contained]);
  sharedFloor.current = Math.max(0, sharedAt);
  const first = useMemo(() => {
    if (sharedAt >= 0) return { chunkA: 0, chunkB: chunkIndexOf(startsB, sharedAt) };
    if (!done || anchors.length === 0) return null;
    const offsetB = mapOffset(done.alignA, done.alignB, anchors[0]);
    return { chunkA: chunkIndexOf(startsA, anchors[0]), chunkB: chunkIndexOf(startsB, offsetB) };
  }, [done, anchors, startsA, startsB, sharedAt]);

  // When a pair's diff arrives, the first difference is brought into view (once per diff: scrolling
  // afterwards is the person's). Pane A leads; pane B follows through onScroll's alignment.
  const scrolledFor = useRef<unknown>(null);
  useEffect(() => {
    const pane = paneA.current;
    if (!done || !pane || scrolledFor.current === done) return;
    scrolledFor.current = done;
    const target = sharedAt >= 0 ? { pane: paneB.current, starts: startsB, offset: sharedAt } : { pane, starts: startsA, offset: anchors[0] };
    if (!target.pane || target.offset === undefined) return;
    // Blocks just above the target get laid out once they are scrolled near (content-visibility), which
    // moves the target: scroll again over the next few frames (each rAF sees the layout of the frame before).
    let frame = 0;
    const settle = (tries: number) => {
      leader.current = null;
      if (!scrollOffsetTo(target.pane!, target.starts, target.offset!, 48)) return;
      if (target.pane === pane) lastJump.current = { offset: target.offset!, scrollTop: pane.scrollTop };
      if (tries > 0) frame = requestAnimationFrame(() => settle(tries - 1));
    };
    settle(6);
    return () => cancelAnimationFrame(frame);
  }, [done, anchors, startsA, startsB, sharedAt]);

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
          {done && done.status !== 'identical' && <DiffSummary result={done} loose={loose} />}
        </span>
        <span className="ss-spacer" />
        {anchors.length > 0 && (
          <>
            <span>
              {anchors.length.toLocaleString()} {anchors.length === 1 ? 'change' : 'changes'}
            </span>
            <button type="button" className="ss-button" onClick={() => jump(-1)}>
              Previous change
            </button>
            <button type="button" className="ss-button" onClick={() => jump(1)}>
              Next change
            </button>
          </>
        )}
        <label>
          <input type="checkbox" checked={loose} onChange={(event) => setLoose(event.currentTarget.checked)} /> Ignore case and
          punctuation
        </label>
        <span>
          <span className="ss-pair-legend-del">removed</span> <span className="ss-pair-legend-ins">added</span>
          {contained && (
            <>
              {' '}
              <span className="ss-pair-legend-shared">shared passage</span>
            </>
          )}
        </span>
        {onClose && (
          <button type="button" className="ss-button" onClick={onClose}>
            Close
          </button>
        )}
      </div>
      {note && <p className="ss-pair-notice">{note}</p>}
      {contained && (
        <p className="ss-muted" role="note">
          {displayName(pathA)} is contained in {displayName(pathB)} (containment {containedInB.toFixed(2)}: that share of its
          features lies in it). The passage they share is marked in {displayName(pathB)}.
        </p>
      )}
      <div className="ss-pair-panes">
        <div className="ss-pair-pane">
          <h3 aria-label={displayName(pathA)}>
            <PathName path={pathA} maxChars={PANE_PATH_CHARS} />
          </h3>
          <FormatNote format={formatA} />
          <pre
            ref={paneA}
            className="ss-pair-text"
            tabIndex={0}
            role="region"
            aria-label={`Text of ${displayName(pathA)}`}
            onScroll={onScroll}
          >
            <ChunkedText chunks={chunksA} starts={startsA} pinned={first?.chunkA} />
          </pre>
        </div>
        <div className="ss-pair-pane">
          <h3 aria-label={displayName(pathB)}>
            <PathName path={pathB} maxChars={PANE_PATH_CHARS} />
          </h3>
          <FormatNote format={formatB} />
          <pre
            ref={paneB}
            className="ss-pair-text"
            tabIndex={0}
            role="region"
            aria-label={`Text of ${displayName(pathB)}`}
            onScroll={onScroll}
          >
            <ChunkedText chunks={chunksB} starts={startsB} pinned={first?.chunkB} />
          </pre>
        </div>
      </div>
    </section>
  );
}
