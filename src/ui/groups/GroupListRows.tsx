/** The group list's parts: its controls and counts, a group's heading row and a document's row. */
import type { CSSProperties } from 'react';
import { similarityEstimate } from '../../core/simhash/fingerprint64.ts';
import type { GroupSort } from './group-view.ts';
import { PathName } from '../shared/PathName.tsx';
import type { MemberRow } from './member-row.ts';

/** Longest path shown in a row, in characters (the folder is shortened in the middle; the title has it all). */
const PATH_CHARS = 72;

/** Filter by path and Sort by. */
export function GroupListControls({ filter, onFilter, sort, onSort }: { filter: string; onFilter: (f: string) => void; sort: GroupSort; onSort: (s: GroupSort) => void }) {
  return (
    <div className="ss-groups-controls">
      <label className="ss-field ss-groups-filter">
        Filter by path
        <input
          className="ss-input"
          type="search"
          value={filter}
          placeholder="part of a file or folder name"
          onChange={(e) => onFilter(e.currentTarget.value)}
        />
      </label>
      <label className="ss-field">
        Sort by
        <select className="ss-select" value={sort} onChange={(e) => onSort(e.currentTarget.value as GroupSort)}>
          <option value="size">Size (largest first)</option>
          <option value="closeness">Closeness (closest first)</option>
          <option value="path">Path (A–Z)</option>
        </select>
      </label>
    </div>
  );
}

/** How many groups match the filter, their documents, and the columns' headings. */
export function GroupListCounts({ shown, total, documents }: { shown: number; total: number; documents: number }) {
  return (
    <>
      <div className="ss-groups-count" role="status">
        {shown === total ? `${total.toLocaleString()} ${total === 1 ? 'group' : 'groups'}` : `${shown.toLocaleString()} of ${total.toLocaleString()} groups match`}
        , {documents.toLocaleString()} documents
      </div>
      <div className="ss-groups-columns" aria-hidden="true">
        <span />
        <span>Document</span>
        <span title="File size">size</span>
        <span title="Hamming distance of the fingerprints to the group's reference (of 64 bits)">distance</span>
        <span title="Similarity estimated from the distance: cos(π·d/64)">estimate</span>
        <span title="Exact Jaccard similarity of the feature sets with the reference">Jaccard</span>
      </div>
    </>
  );
}

/** A group's heading row: its number, size and kind. */
export function GroupHeadRow({ group, size, exact, chained, style }: { group: number; size: number; exact: boolean; chained: boolean; style: CSSProperties }) {
  return (
    <div className="ss-groups-row ss-groups-head" style={style} aria-hidden="true">
      <span>
        Group {(group + 1).toLocaleString()} · {size} documents
      </span>
      <span className="ss-groups-tags">
        {chained && <span className="ss-tag ss-tag-chain">chains</span>}
        <span className={`ss-tag ${exact ? 'ss-tag-exact' : 'ss-tag-near'}`}>{exact ? 'exact duplicates' : 'near-duplicates'}</span>
      </span>
    </div>
  );
}

export interface GroupMemberRowProps {
  id: string;
  row: MemberRow;
  /** Documents in the shown groups (the listbox's set size) and this one's position among them. */
  setSize: number;
  position: number;
  selected: boolean;
  active: boolean;
  style: CSSProperties;
  onClick: () => void;
}

/** One document of a group: an option of the listbox, with its path, size, distance, estimate and Jaccard. */
export function GroupMemberRow({ id, row, setSize, position, selected, active, style, onClick }: GroupMemberRowProps) {
  const { isRef, same, distance, jaccard, size, elsewhere, apart, apartFrom } = row;
  return (
    <div
      id={id}
      role="option"
      aria-label={row.label}
      aria-description={size ? `File size ${size}` : undefined}
      aria-selected={selected}
      aria-setsize={setSize}
      aria-posinset={position}
      className={`ss-groups-row ss-groups-option${isRef ? ' ss-groups-ref' : ''}${active ? ' is-active' : ''}`}
      style={style}
      onClick={onClick}
    >
      <span className="ss-groups-role" aria-hidden="true" title={isRef ? 'Reference document' : undefined}>
        {isRef ? '★' : '·'}
      </span>
      <span className="ss-groups-pathcell">
        <PathName path={row.path} maxChars={PATH_CHARS} className="ss-groups-path" />
        {elsewhere > 0 && (
          <span
            className="ss-tag ss-tag-outside"
            title={`${elsewhere} near-duplicate${elsewhere === 1 ? '' : 's'} of this document ${elsewhere === 1 ? 'is' : 'are'} in other groups; the pair view lists them all`}
          >
            +{elsewhere.toLocaleString()} elsewhere
          </span>
        )}
        {apart && (
          <span className="ss-tag ss-tag-apart" title={`Marked not duplicates of each other with ${apartFrom}: the pair is left out of the exported pairs and the counts`}>
            Not duplicates of each other
          </span>
        )}
      </span>
      <span className="ss-groups-metric" title="File size">
        {size}
      </span>
      {same ? (
        <span className="ss-groups-metric ss-groups-identical" title="Same text as the reference (after normalization)">
          identical
        </span>
      ) : (
        <>
          <span className="ss-groups-metric" title="Hamming distance to the reference">
            {isRef ? 'ref' : distance ?? '—'}
          </span>
          <span className="ss-groups-metric" title="Similarity estimate cos(π·d/64)">
            {isRef || distance === null ? '' : similarityEstimate(distance).toFixed(3)}
          </span>
          <span className="ss-groups-metric" title="Exact Jaccard with the reference">
            {isRef || Number.isNaN(jaccard) ? '' : jaccard.toFixed(2)}
          </span>
        </>
      )}
    </div>
  );
}
