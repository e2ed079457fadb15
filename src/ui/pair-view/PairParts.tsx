/** The pair view's parts: a pane (title, format, text with its marks) and the bar above the panes. */
import type { RefObject, UIEvent } from 'react';
import { REMOVED, ADDED, type DiffResult } from '../../core/text/diff-runs.ts';
import { SHARED, type DiffSegment } from './diff-segments.ts';
import type { WordDiffState } from './use-word-diff.ts';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';
import { FORMAT_LABELS, isExtractedFormat, type DocumentFormat } from '../../core/text/document-format.ts';

/** Longest path above a pane, in characters (the folder loses its middle first). */
const PANE_PATH_CHARS = 64;

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

export interface PairPaneProps {
  path: string;
  format: DocumentFormat;
  chunks: readonly DiffSegment[][];
  starts: Uint32Array;
  /** The block always laid out (holding the first difference or the shared passage), or undefined. */
  pinned: number | undefined;
  pane: RefObject<HTMLPreElement | null>;
  onScroll: (event: UIEvent<HTMLPreElement>) => void;
}

/** One document: its path, what it is, and its text with the differences marked. */
export function PairPane({ path, format, chunks, starts, pinned, pane, onScroll }: PairPaneProps) {
  return (
    <div className="ss-pair-pane">
      <h3 aria-label={displayName(path)}>
        <PathName path={path} maxChars={PANE_PATH_CHARS} />
      </h3>
      <FormatNote format={format} />
      <pre ref={pane} className="ss-pair-text" tabIndex={0} role="region" aria-label={`Text of ${displayName(path)}`} onScroll={onScroll}>
        <ChunkedText chunks={chunks} starts={starts} pinned={pinned} />
      </pre>
    </div>
  );
}

export interface PairBarProps {
  diff: WordDiffState;
  /** The diff of the texts on show, or null while it is pending (or is of texts no longer shown). */
  done: DiffResult | null;
  loose: boolean;
  onLoose: (loose: boolean) => void;
  changes: number;
  onJump: (direction: 1 | -1) => void;
  contained: boolean;
  onClose?: () => void;
}

/** The bar over the panes: what the diff found, the changes and their buttons, the options and legend. */
export function PairBar({ diff, done, loose, onLoose, changes, onJump, contained, onClose }: PairBarProps) {
  return (
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
      {changes > 0 && (
        <>
          <span>
            {changes.toLocaleString()} {changes === 1 ? 'change' : 'changes'}
          </span>
          <button type="button" className="ss-button" onClick={() => onJump(-1)}>
            Previous change
          </button>
          <button type="button" className="ss-button" onClick={() => onJump(1)}>
            Next change
          </button>
        </>
      )}
      <label>
        <input type="checkbox" checked={loose} onChange={(event) => onLoose(event.currentTarget.checked)} /> Ignore case and
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
  );
}
