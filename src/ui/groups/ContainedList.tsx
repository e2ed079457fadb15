/**
 * Contained documents under their containers: each document another lies in, then the documents
 * contained in it with their containment. A contained pair is never a group (an excerpt is not a
 * copy), so it is listed here, beside the groups; a row opens the pair.
 */
import { useMemo } from 'react';
import type { ContainedPairs } from '../../core/groups/contained-pairs.ts';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';
import '../shared/theme.css';

export interface ContainedListProps {
  /** The contained pairs: `inner[i]` lies in `outer[i]` at `containment[i]`. */
  contained: ContainedPairs;
  /** Path of each document id. */
  paths: readonly string[];
  /** The open pair (excerpt, whole), highlighted, or null. */
  selected: { a: number; b: number } | null;
  /** Opens the pair (the contained document, its container). */
  onOpenPair: (inner: number, outer: number) => void;
}

/** Containers shown at most; the CSV has every pair. */
const MAX_CONTAINERS = 500;
const PATH_CHARS = 72;

/** Pair indexes grouped by container: containers in path order, each one's contained documents in path order. */
export function byContainer(contained: ContainedPairs, paths: readonly string[]): { outer: number; pairs: number[] }[] {
  const groups = new Map<number, number[]>();
  for (let i = 0; i < contained.count; i++) {
    const list = groups.get(contained.outer[i]);
    if (list) list.push(i);
    else groups.set(contained.outer[i], [i]);
  }
  const byPath = (x: number, y: number) => (paths[x] < paths[y] ? -1 : paths[x] > paths[y] ? 1 : x - y);
  return [...groups.entries()]
    .sort(([x], [y]) => byPath(x, y))
    .map(([outer, pairs]) => ({ outer, pairs: pairs.sort((x, y) => byPath(contained.inner[x], contained.inner[y])) }));
}

/** The contained documents, listed under their containers. */
export function ContainedList({ contained, paths, selected, onOpenPair }: ContainedListProps) {
  const containers = useMemo(() => byContainer(contained, paths), [contained, paths]);
  if (contained.count === 0) return null;
  const shown = containers.slice(0, MAX_CONTAINERS);
  return (
    <section className="ss-panel ss-contained" aria-label="Contained documents">
      <h2 className="ss-panel-title" style={{ margin: 0 }}>
        Contained documents
      </h2>
      <p className="ss-muted ss-contained-count" role="status">
        {contained.count.toLocaleString('en')} {contained.count === 1 ? 'document lies' : 'documents lie'} inside{' '}
        {containers.length.toLocaleString('en')} other{containers.length === 1 ? '' : 's'} (excerpts, or documents with more appended)
      </p>
      <ul className="ss-contained-list">
        {shown.map(({ outer, pairs }) => (
          <li key={outer} aria-label={`${displayName(paths[outer])} contains ${pairs.length} document${pairs.length === 1 ? '' : 's'}`}>
            <div className="ss-contained-container">
              <PathName path={paths[outer]} maxChars={PATH_CHARS} />
              <span className="ss-tag ss-tag-near">contains {pairs.length.toLocaleString('en')}</span>
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
                      onClick={() => onOpenPair(inner, outer)}
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
      {containers.length > shown.length && (
        <p className="ss-muted">
          {(containers.length - shown.length).toLocaleString('en')} more containers: Export CSV lists every contained pair.
        </p>
      )}
    </section>
  );
}
