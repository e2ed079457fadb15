/** The pair view's list of every near-duplicate of one document (the relation's pairs), each one click away. */
import type { Neighbour } from '../../core/groups/duplicate-relation.ts';
import { UNKNOWN_DISTANCE } from '../../core/groups/group-table.ts';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';
import '../shared/theme.css';
import type { DocId } from '../../core/ids.ts';

export interface NeighbourListProps {
  /** The document whose near-duplicates are listed. */
  doc: number;
  /** Its near-duplicates (identical copies first), from `neighboursOf`. */
  neighbours: readonly Neighbour[];
  paths: readonly string[];
  /** The document the pair view compares `doc` with now (marked as current). */
  current: number;
  /** Opens the pair (doc, other). */
  onOpen: (other: DocId) => void;
  /** Marks `doc` as the reference of its group (regroups); no button when absent. */
  onMakeReference?: () => void;
  /** True when `doc` already is a group's reference. */
  isReference: boolean;
}

/** Rendering more buttons than this at once costs more than it helps; the CSV has them all. */
const MAX_SHOWN = 500;

function relationText(n: Neighbour): string {
  if (n.identical) return 'identical';
  const d = n.distance === UNKNOWN_DISTANCE ? '—' : String(n.distance);
  return `d ${d} · J ${Number.isNaN(n.jaccard) ? '—' : n.jaccard.toFixed(2)}`;
}

/** Every near-duplicate of `doc`, with distance and Jaccard; clicking one opens that pair. */
export function NeighbourList({ doc, neighbours, paths, current, onOpen, onMakeReference, isReference }: NeighbourListProps) {
  const shown = neighbours.length > MAX_SHOWN ? neighbours.slice(0, MAX_SHOWN) : neighbours;
  return (
    <section className="ss-panel ss-neighbours" aria-label={`Near-duplicates of ${displayName(paths[doc])}`}>
      <div className="ss-neighbours-head">
        <h3 className="ss-panel-title" aria-label={`${neighbours.length.toLocaleString()} near-duplicate${neighbours.length === 1 ? '' : 's'} of ${displayName(paths[doc])}`}>
          {neighbours.length.toLocaleString()} near-duplicate{neighbours.length === 1 ? '' : 's'} of <PathName path={paths[doc]} maxChars={64} />
        </h3>
        {onMakeReference &&
          (isReference ? (
            <span className="ss-muted">reference of its group ★</span>
          ) : (
            <button type="button" className="ss-button" aria-label={`Make ${displayName(paths[doc])} the reference`} onClick={onMakeReference}>
              Make <PathName path={paths[doc]} maxChars={40} /> the reference
            </button>
          ))}
      </div>
      <ul className="ss-neighbours-list">
        {shown.map((n) => (
          <li key={n.doc}>
            <button
              type="button"
              className="ss-link-button ss-neighbour"
              aria-label={`${displayName(paths[n.doc])} ${relationText(n)}`}
              aria-current={n.doc === current ? 'true' : undefined}
              onClick={() => onOpen(n.doc)}
            >
              <PathName path={paths[n.doc]} maxChars={64} className="ss-neighbour-path" />
              <span className="ss-groups-metric">{relationText(n)}</span>
            </button>
          </li>
        ))}
      </ul>
      {shown.length < neighbours.length && (
        <p className="ss-muted">
          {(neighbours.length - shown.length).toLocaleString()} more are not listed here; Export CSV has every pair.
        </p>
      )}
    </section>
  );
}
