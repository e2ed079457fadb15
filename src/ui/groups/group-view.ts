/**
 * What the group list shows: sorting and filtering of groups (the core's typed-array GroupTable),
 * the flattening into fixed-height rows and keyboard steps.
 */
import { UNKNOWN_DISTANCE, type GroupTable } from '../../core/groups/group-table.ts';

/** The parts of a group table the list reads (the core's GroupTable satisfies it). */
export type GroupView = Pick<GroupTable, 'count' | 'offsets' | 'members' | 'jaccardToReference' | 'distanceToReference'>;

/** How the group list is ordered. */
export type GroupSort = 'size' | 'closeness' | 'path';

/** Lower-cased copy of every path, computed once per corpus so filtering does not allocate per keystroke. */
export function lowerCasePaths(paths: readonly string[]): string[] {
  return paths.map((p) => p.toLowerCase());
}

/**
 * Group indexes to show, in display order: groups with a member whose path contains `filter`
 * (case-insensitive; empty shows all), sorted by size (largest first), closeness (smallest mean
 * distance to the reference first) or reference path. Ties keep group order, so the result is stable.
 */
export function orderGroups(
  table: GroupView,
  lowerPaths: readonly string[],
  sort: GroupSort,
  filter: string,
): Uint32Array {
  const n = table.count;
  const { offsets, members, distanceToReference: distances } = table;
  const needle = filter.trim().toLowerCase();
  let order = new Uint32Array(n);
  let kept = 0;
  for (let g = 0; g < n; g++) {
    if (needle !== '') {
      let hit = false;
      for (let s = offsets[g]; s < offsets[g + 1]; s++) {
        if (lowerPaths[members[s]].includes(needle)) {
          hit = true;
          break;
        }
      }
      if (!hit) continue;
    }
    order[kept++] = g;
  }
  order = order.slice(0, kept);

  if (sort === 'size') {
    order.sort((a, b) => offsets[b + 1] - offsets[b] - (offsets[a + 1] - offsets[a]) || a - b);
  } else if (sort === 'closeness') {
    // Mean distance of the non-reference members (unknown counts as 64); precomputed so the
    // comparator does no loops.
    const mean = new Float64Array(n);
    for (let i = 0; i < kept; i++) {
      const g = order[i];
      let sum = 0;
      for (let s = offsets[g] + 1; s < offsets[g + 1]; s++) sum += distances[s] === UNKNOWN_DISTANCE ? 64 : distances[s];
      const others = offsets[g + 1] - offsets[g] - 1;
      mean[g] = others > 0 ? sum / others : 0;
    }
    order.sort((a, b) => mean[a] - mean[b] || offsets[b + 1] - offsets[b] - (offsets[a + 1] - offsets[a]) || a - b);
  } else {
    order.sort((a, b) => {
      const pa = lowerPaths[members[offsets[a]]];
      const pb = lowerPaths[members[offsets[b]]];
      return pa < pb ? -1 : pa > pb ? 1 : a - b;
    });
  }
  return order;
}

/** The list's rows: for each shown group a header row (slot -1) then one row per member slot. */
export interface GroupRows {
  /** Group index of each row. */
  readonly group: Uint32Array;
  /** Member slot of each row, or -1 for a group's header row. */
  readonly slot: Int32Array;
  /** 1-based position of each member row among all member rows (aria-posinset), 0 for header rows. */
  readonly position: Uint32Array;
  /** Number of rows, and of member rows only. */
  readonly count: number;
  readonly memberCount: number;
}

/** Flattens the shown groups into rows, so the virtual list can use one fixed row height. */
export function flattenRows(table: Pick<GroupView, 'offsets'>, order: Uint32Array): GroupRows {
  const { offsets } = table;
  let count = 0;
  for (let i = 0; i < order.length; i++) count += offsets[order[i] + 1] - offsets[order[i]] + 1;
  const group = new Uint32Array(count);
  const slot = new Int32Array(count);
  const position = new Uint32Array(count);
  let r = 0;
  let p = 0;
  for (let i = 0; i < order.length; i++) {
    const g = order[i];
    group[r] = g;
    slot[r++] = -1;
    for (let s = offsets[g]; s < offsets[g + 1]; s++) {
      group[r] = g;
      position[r] = ++p;
      slot[r++] = s;
    }
  }
  return { group, slot, position, count, memberCount: p };
}

/**
 * The member row keyboard navigation lands on when moving `step` rows from `from`: header rows are
 * skipped in the direction of travel (`prefer` when step is 0), and the result is clamped to the
 * first/last member row. Returns -1 when there are no member rows.
 */
export function stepRow(rows: GroupRows, from: number, step: number, prefer: 1 | -1 = step < 0 ? -1 : 1): number {
  if (rows.memberCount === 0) return -1;
  const last = rows.count - 1;
  let target = Math.max(0, Math.min(last, from + step));
  let dir: number = step === 0 ? prefer : step > 0 ? 1 : -1;
  while (rows.slot[target] < 0) {
    if ((dir > 0 && target === last) || (dir < 0 && target === 0)) dir = -dir; // ran off an end: turn back
    target += dir;
  }
  return target;
}

