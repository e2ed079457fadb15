/** The pair view: two documents side by side with their word-level differences marked. */
import { useMemo, useState } from 'react';
import { chunkSegments, chunkStarts, markShared, runsToSegments } from './diff-segments.ts';
import { PairBar, PairPane } from './PairParts.tsx';
import { usePairScroll } from './use-pair-scroll.ts';
import { useWordDiff } from './use-word-diff.ts';
import { displayName } from '../shared/display-name.ts';
import type { DocumentFormat } from '../../core/text/document-format.ts';
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

const STATUS_NOTE: Record<string, string | null> = {
  identical: null,
  words: null,
  'too-large': 'These texts are too large to compare word by word; they are shown without marks.',
  'too-slow': 'The texts differ too much to compare within the time limit; they are shown without marks.',
};

/** Two texts side by side, differences highlighted, scrolling kept in step. Texts render as text only. */
export function PairView({ pathA, pathB, textA, textB, formatA = 'text', formatB = 'text', diffTimeoutMs, onClose, containedInB }: PairViewProps) {
  // Off: words compared as written (case and punctuation count); on: as the fingerprint reads them.
  const [loose, setLoose] = useState(false);
  const diff = useWordDiff(textA, textB, loose, diffTimeoutMs);

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

  const { paneA, paneB, onScroll, jump, anchors, first } = usePairScroll(done, startsA, startsB, contained);

  const note = done ? STATUS_NOTE[done.status] : null;
  return (
    <section className="ss-panel ss-pair" aria-label="Pair view">
      <PairBar diff={diff} done={done} loose={loose} onLoose={setLoose} changes={anchors.length} onJump={jump} contained={contained} onClose={onClose} />
      {note && <p className="ss-pair-notice">{note}</p>}
      {contained && (
        <p className="ss-muted" role="note">
          {displayName(pathA)} is contained in {displayName(pathB)} (containment {containedInB.toFixed(2)}: that share of its
          features lies in it). The passage they share is marked in {displayName(pathB)}.
        </p>
      )}
      <div className="ss-pair-panes">
        <PairPane path={pathA} format={formatA} chunks={chunksA} starts={startsA} pinned={first?.chunkA} pane={paneA} onScroll={onScroll} />
        <PairPane path={pathB} format={formatB} chunks={chunksB} starts={startsB} pinned={first?.chunkB} pane={paneB} onScroll={onScroll} />
      </div>
    </section>
  );
}
