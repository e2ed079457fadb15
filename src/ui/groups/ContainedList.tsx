/**
 * Contained documents under their containers: each document another lies in, then the documents
 * contained in it with their containment. A contained pair is never a group (an excerpt is not a
 * copy), so it is listed here, beside the groups; a row opens the pair.
 */
import { useMemo, useState } from 'react';
import type { ContainedPairs } from '../../core/groups/contained-pairs.ts';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';
import '../shared/theme.css';
import { byContainer, CONTAINED_ROWS_STEP, shownContainers, type Container } from './contained-rows.ts';
import { containedCounts } from '../../core/groups/contained-pairs.ts';
import type { DocId } from '../../core/ids.ts';

export interface ContainedListProps {
  /** The contained pairs: `inner[i]` lies in `outer[i]` at `containment[i]`. */
  contained: ContainedPairs;
  /** Path of each document id. */
  paths: readonly string[];
  /** The open pair (excerpt, whole), highlighted, or null. */
  selected: { a: DocId; b: DocId } | null;
  /** Opens the pair (the contained document, its container). */
  onOpenPair: (inner: DocId, outer: DocId) => void;
}

const PATH_CHARS = 72;

/** The contained documents, listed under their containers. */
export function ContainedList({ contained, paths, selected, onOpenPair }: ContainedListProps) {
  const containers = useMemo(() => byContainer(contained, paths), [contained, paths]);
  // A bounded number of rows at a time: rendering every pair of a large result held the page.
  const [more, setMore] = useState<{ of: readonly Container[]; budget: number }>({ of: containers, budget: CONTAINED_ROWS_STEP });
  // A new result starts again from the first rows.
  const budget = more.of === containers ? more.budget : CONTAINED_ROWS_STEP;
  const { shown, hiddenPairs } = useMemo(() => shownContainers(containers, budget), [containers, budget]);
  const counts = useMemo(() => containedCounts(contained), [contained]);
  if (contained.count === 0) return null;
  return (
    <section className="ss-panel ss-contained" aria-label="Contained documents">
      <h2 className="ss-panel-title" style={{ margin: 0 }}>
        Contained documents
      </h2>
      <p className="ss-muted ss-contained-count" role="status">
        {counts.documents.toLocaleString('en')} {counts.documents === 1 ? 'document lies' : 'documents lie'} inside{' '}
        {counts.containers.toLocaleString('en')} other{counts.containers === 1 ? '' : 's'} (excerpts, or documents with more appended)
        {counts.pairs > counts.documents && `: ${counts.pairs.toLocaleString('en')} pairs, as some lie in several`}
      </p>
      <ul className="ss-contained-list">
        {shown.map(({ outer, pairs, total }) => (
          <li key={outer} aria-label={`${displayName(paths[outer])} contains ${total} document${total === 1 ? '' : 's'}`}>
            <div className="ss-contained-container">
              <PathName path={paths[outer]} maxChars={PATH_CHARS} />
              <span className="ss-tag ss-tag-near">contains {total.toLocaleString('en')}</span>
            </div>
            <ul>
              {pairs.map((i) => {
                const inner = contained.inner[i];
                const value = contained.containment[i].toFixed(2);
                const open = selected?.a === inner && selected?.b === outer;
                return (
                  <li key={inner}>
                    <button
                      type="button"
                      className={`ss-contained-row${open ? ' is-active' : ''}`}
                      aria-pressed={open}
                      aria-label={`${displayName(paths[inner])}, contained in ${displayName(paths[outer])}, containment ${value}`}
                      onClick={() => onOpenPair(inner as DocId, outer as DocId)}
                    >
                      <PathName path={paths[inner]} maxChars={PATH_CHARS} />
                      <span className="ss-muted">contained in it · containment {value}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
      {hiddenPairs > 0 && (
        <p className="ss-muted">
          {hiddenPairs.toLocaleString('en')} more contained {hiddenPairs === 1 ? 'pair' : 'pairs'} not shown (Export CSV lists every contained pair).{' '}
          <button type="button" className="ss-button" onClick={() => setMore({ of: containers, budget: budget + CONTAINED_ROWS_STEP })}>
            Show {Math.min(hiddenPairs, CONTAINED_ROWS_STEP).toLocaleString('en')} more
          </button>
        </p>
      )}
    </section>
  );
}
