/** The duplicate-group list: a virtualized listbox of groups and their members, with sort and filter. */
import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { UNKNOWN_DISTANCE } from '../../core/groups/group-table.ts';
import { similarityEstimate } from '../../core/simhash/fingerprint64.ts';
import {
  flattenRows,
  lowerCasePaths,
  orderGroups,
  stepRow,
  type GroupSort,
  type GroupView,
} from './group-view.ts';
import { displayName } from '../shared/display-name.ts';
import { formatSize } from '../shared/format-size.ts';
import { PathName } from '../shared/PathName.tsx';
import { useMediaQuery } from '../shared/use-media-query.ts';
import '../shared/theme.css';

export interface GroupListProps {
  /** The groups (the relation's GroupTable), reference document first in each. */
  table: GroupView;
  /** Per group, 1 for an exact-duplicate group (shown with its own tag); all near-duplicate groups when absent. */
  exact?: Uint8Array;
  /** Per member slot, 1 when the member's text is identical to its reference's. */
  identical?: Uint8Array;
  /** Per document, how many of its near-duplicates lie outside its group (0 or absent: none). */
  outside?: Uint32Array;
  /** Per group, 1 when the group chains (members linked through others, not all near-duplicates of each other). */
  chained?: Uint8Array;
  /** Per document, the documents it was marked "not duplicates of each other" with (absent: none). */
  separated?: ReadonlyMap<number, readonly number[]>;
  /** Path of each document id. */
  paths: readonly string[];
  /** File size in bytes of each document id (no size column values when absent). */
  sizes?: ArrayLike<number>;
  /** The member slot whose pair is open (highlighted), or null. */
  selectedSlot: number | null;
  /** Opens the pair (reference, member) of a group; `slot` is a non-reference member slot. */
  onOpenPair: (group: number, slot: number) => void;
  /** Receives the shown group indexes, in display order, whenever sort or filter change them. */
  onViewChange?: (order: Uint32Array) => void;
  /** Largest height of the scrolling list in pixels (default 480); shorter lists shrink to fit. */
  height?: number;
}

const ROW = 30;
/** A document row on a narrow screen: the path on a line of its own, the figures under it (theme.css). */
const NARROW_ROW = 46;
/** The screens where document rows take two lines (keep in step with theme.css). */
const NARROW = '(max-width: 600px)';
/** Longest path shown in a row, in characters (the folder is shortened in the middle; the title has it all). */
const PATH_CHARS = 72;

/** The members of group `g` among `partners` (a member's "not duplicates of each other" marks shown in its group). */
function partnersInGroup(table: GroupView, g: number, partners: readonly number[] | undefined): number[] {
  if (!partners) return [];
  const out: number[] = [];
  for (let s = table.offsets[g]; s < table.offsets[g + 1]; s++) if (partners.includes(table.members[s])) out.push(table.members[s]);
  return out;
}

/** Groups as a keyboard-navigable listbox (arrows, Page Up/Down, Home/End, Enter opens the pair). */
export function GroupList({
  table,
  exact,
  identical,
  outside,
  chained,
  separated,
  paths,
  sizes,
  selectedSlot,
  onOpenPair,
  onViewChange,
  height = 480,
}: GroupListProps) {
  const id = useId();
  const [sort, setSort] = useState<GroupSort>('size');
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter);
  const lowerPaths = useMemo(() => lowerCasePaths(paths), [paths]);
  const order = useMemo(
    () => orderGroups(table, lowerPaths, sort, deferredFilter),
    [table, lowerPaths, sort, deferredFilter],
  );
  const rows = useMemo(() => flattenRows(table, order), [table, order]);
  const [active, setActive] = useState(-1);
  const scroller = useRef<HTMLDivElement>(null);
  const focusByPointer = useRef(false);

  useEffect(() => onViewChange?.(order), [order, onViewChange]);
  // A new view starts at its first member row.
  useEffect(() => setActive(stepRow(rows, 0, 0)), [rows]);

  const narrow = useMediaQuery(NARROW);
  // Stable identity per layout: a new estimateSize on every render makes the virtualizer re-measure every row.
  const estimateRow = useCallback((row: number) => (narrow && rows.slot[row] >= 0 ? NARROW_ROW : ROW), [narrow, rows]);
  const virtualizer = useVirtualizer({
    count: rows.count,
    getScrollElement: () => scroller.current,
    estimateSize: estimateRow,
    overscan: 12,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, estimateRow]);

  const open = (row: number) => {
    if (row < 0) return;
    const g = rows.group[row];
    const s = rows.slot[row];
    const first = table.offsets[g];
    const target = s === first ? first + 1 : s; // the reference opens its pair with the first member
    if (target < table.offsets[g + 1]) onOpenPair(g, target);
  };

  const moveTo = (row: number) => {
    if (row < 0) return;
    setActive(row);
    virtualizer.scrollToIndex(row, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor(height / (narrow ? NARROW_ROW : ROW)) - 1);
    const from = active < 0 ? 0 : active;
    let next: number | null = null;
    if (e.key === 'ArrowDown') next = stepRow(rows, from, active < 0 ? 0 : 1);
    else if (e.key === 'ArrowUp') next = stepRow(rows, from, -1);
    else if (e.key === 'PageDown') next = stepRow(rows, from, page);
    else if (e.key === 'PageUp') next = stepRow(rows, from, -page);
    else if (e.key === 'Home') next = stepRow(rows, 0, 0);
    else if (e.key === 'End') next = stepRow(rows, rows.count - 1, 0, -1);
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(active);
      return;
    }
    if (next !== null) {
      e.preventDefault();
      moveTo(next);
    }
  };

  const total = table.count;
  const items = virtualizer.getVirtualItems();
  return (
    <section className="ss-panel ss-groups" aria-label="Duplicate groups">
      <h2 className="ss-panel-title" style={{ margin: 0 }}>
        Duplicate groups
      </h2>
      <div className="ss-groups-controls">
        <label className="ss-field ss-groups-filter">
          Filter by path
          <input
            className="ss-input"
            type="search"
            value={filter}
            placeholder="part of a file or folder name"
            onChange={(e) => setFilter(e.currentTarget.value)}
          />
        </label>
        <label className="ss-field">
          Sort by
          <select className="ss-select" value={sort} onChange={(e) => setSort(e.currentTarget.value as GroupSort)}>
            <option value="size">Size (largest first)</option>
            <option value="closeness">Closeness (closest first)</option>
            <option value="path">Path (A–Z)</option>
          </select>
        </label>
      </div>
      <div className="ss-groups-count" role="status">
        {order.length === total
          ? `${total.toLocaleString()} ${total === 1 ? 'group' : 'groups'}`
          : `${order.length.toLocaleString()} of ${total.toLocaleString()} groups match`}
        , {rows.memberCount.toLocaleString()} documents
      </div>
      <div className="ss-groups-columns" aria-hidden="true">
        <span />
        <span>Document</span>
        <span title="File size">size</span>
        <span title="Hamming distance of the fingerprints to the group's reference (of 64 bits)">distance</span>
        <span title="Similarity estimated from the distance: cos(π·d/64)">estimate</span>
        <span title="Exact Jaccard similarity of the feature sets with the reference">Jaccard</span>
      </div>
      <div
        ref={scroller}
        className="ss-groups-scroller"
        style={{ height: rows.count === 0 ? 80 : Math.min(height, virtualizer.getTotalSize() + 2) }}
        role="listbox"
        aria-label="Groups and their documents"
        tabIndex={0}
        aria-activedescendant={active >= 0 && rows.slot[active] >= 0 ? `${id}-r${active}` : undefined}
        onKeyDown={onKeyDown}
        onPointerDown={() => (focusByPointer.current = true)}
        onFocus={() => {
          // Tabbing in shows the active row. A click focuses the list too, between its mousedown and
          // mouseup: scrolling then would move another row under the pointer and lose the click.
          if (!focusByPointer.current && active >= 0) virtualizer.scrollToIndex(active, { align: 'auto' });
          focusByPointer.current = false;
        }}
      >
        {rows.count === 0 ? (
          <div className="ss-groups-empty">{total === 0 ? 'No duplicate groups.' : 'No group matches the filter.'}</div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = item.index;
              const g = rows.group[row];
              const s = rows.slot[row];
              const style = { transform: `translateY(${item.start}px)`, top: 0, height: item.size };
              if (s < 0) {
                const size = table.offsets[g + 1] - table.offsets[g];
                const isExact = exact?.[g] === 1;
                return (
                  <div key={item.key} className="ss-groups-row ss-groups-head" style={style} aria-hidden="true">
                    <span>
                      Group {(g + 1).toLocaleString()} · {size} documents
                    </span>
                    <span className="ss-groups-tags">
                      {chained?.[g] === 1 && <span className="ss-tag ss-tag-chain">chains</span>}
                      <span className={`ss-tag ${isExact ? 'ss-tag-exact' : 'ss-tag-near'}`}>
                        {isExact ? 'exact duplicates' : 'near-duplicates'}
                      </span>
                    </span>
                  </div>
                );
              }
              const isRef = s === table.offsets[g];
              const d = table.distanceToReference[s];
              const known = d !== UNKNOWN_DISTANCE;
              const j = table.jaccardToReference[s];
              const doc = table.members[s];
              const path = paths[doc];
              const shownPath = displayName(path);
              const size = sizes ? formatSize(sizes[doc]) : '';
              const same = !isRef && identical?.[s] === 1;
              const elsewhere = outside?.[doc] ?? 0;
              const apart = isRef ? [] : partnersInGroup(table, g, separated?.get(doc));
              const apartFrom = apart.map((p) => displayName(paths[p])).join(', ');
              const name =
                (isRef
                  ? `${shownPath}, reference of group ${g + 1}`
                  : same
                    ? `${shownPath}, identical to the reference`
                    : known
                      ? `${shownPath}, distance ${d}, similarity ${similarityEstimate(d).toFixed(3)}`
                      : `${shownPath}, Jaccard ${j.toFixed(2)}`) +
                (elsewhere > 0 ? `, ${elsewhere} more near-duplicate${elsewhere === 1 ? '' : 's'} in other groups` : '') +
                (apart.length > 0 ? `, not duplicates of each other with ${apartFrom}` : '');
              return (
                <div
                  key={item.key}
                  id={`${id}-r${row}`}
                  role="option"
                  aria-label={name}
                  aria-description={size ? `File size ${size}` : undefined}
                  aria-selected={s === selectedSlot}
                  aria-setsize={rows.memberCount}
                  aria-posinset={rows.position[row]}
                  className={`ss-groups-row ss-groups-option${isRef ? ' ss-groups-ref' : ''}${row === active ? ' is-active' : ''}`}
                  style={style}
                  onClick={() => {
                    setActive(row);
                    open(row);
                  }}
                >
                  <span className="ss-groups-role" aria-hidden="true" title={isRef ? 'Reference document' : undefined}>
                    {isRef ? '★' : '·'}
                  </span>
                  <span className="ss-groups-pathcell">
                    <PathName path={path} maxChars={PATH_CHARS} className="ss-groups-path" />
                    {elsewhere > 0 && (
                    <span
                      className="ss-tag ss-tag-outside"
                      title={`${elsewhere} near-duplicate${elsewhere === 1 ? '' : 's'} of this document ${elsewhere === 1 ? 'is' : 'are'} in other groups; the pair view lists them all`}
                    >
                      +{elsewhere.toLocaleString()} elsewhere
                    </span>
                    )}
                    {apart.length > 0 && (
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
                        {isRef ? 'ref' : known ? d : '—'}
                      </span>
                      <span className="ss-groups-metric" title="Similarity estimate cos(π·d/64)">
                        {isRef || !known ? '' : similarityEstimate(d).toFixed(3)}
                      </span>
                      <span className="ss-groups-metric" title="Exact Jaccard with the reference">
                        {isRef || Number.isNaN(j) ? '' : j.toFixed(2)}
                      </span>
                    </>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
