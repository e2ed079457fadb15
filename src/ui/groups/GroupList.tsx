/** The duplicate-group list: a virtualized listbox of groups and their members, with sort and filter. */
import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { flattenRows, lowerCasePaths, orderGroups, type GroupSort, type GroupView } from './group-view.ts';
import { GroupHeadRow, GroupListControls, GroupListCounts, GroupMemberRow } from './GroupListRows.tsx';
import { memberRow } from './member-row.ts';
import { useListKeys } from './use-list-keys.ts';
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
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => onViewChange?.(order), [order, onViewChange]);

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
  const page = Math.max(1, Math.floor(height / (narrow ? NARROW_ROW : ROW)) - 1);
  const keys = useListKeys(rows, page, (row) => virtualizer.scrollToIndex(row, { align: 'auto' }), open);
  const { active } = keys;
  const marks = { identical, outside, separated };

  const total = table.count;
  const items = virtualizer.getVirtualItems();
  return (
    <section className="ss-panel ss-groups" aria-label="Duplicate groups">
      <h2 className="ss-panel-title" style={{ margin: 0 }}>
        Duplicate groups
      </h2>
      <GroupListControls filter={filter} onFilter={setFilter} sort={sort} onSort={setSort} />
      <GroupListCounts shown={order.length} total={total} documents={rows.memberCount} />
      <div
        ref={scroller}
        className="ss-groups-scroller"
        style={{ height: rows.count === 0 ? 80 : Math.min(height, virtualizer.getTotalSize() + 2) }}
        role="listbox"
        aria-label="Groups and their documents"
        tabIndex={0}
        aria-activedescendant={active >= 0 && rows.slot[active] >= 0 ? `${id}-r${active}` : undefined}
        onKeyDown={keys.onKeyDown}
        onPointerDown={keys.onPointerDown}
        onFocus={keys.onFocus}
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
                return (
                  <GroupHeadRow
                    key={item.key}
                    group={g}
                    size={table.offsets[g + 1] - table.offsets[g]}
                    exact={exact?.[g] === 1}
                    chained={chained?.[g] === 1}
                    style={style}
                  />
                );
              }
              return (
                <GroupMemberRow
                  key={item.key}
                  id={`${id}-r${row}`}
                  row={memberRow(table, g, s, paths, sizes, marks)}
                  setSize={rows.memberCount}
                  position={rows.position[row]}
                  selected={s === selectedSlot}
                  active={row === active}
                  style={style}
                  onClick={() => {
                    keys.setActive(row);
                    open(row);
                  }}
                />
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}
