import { describe, expect, it } from 'vitest';
import {
  flattenRows,
  lowerCasePaths,
  orderGroups,
  stepRow,
  type GroupView,
} from '../../../src/ui/groups/group-view.ts';

// Three groups: g0 = {0 ref, 1 d2, 2 d4}, g1 = {3 ref, 4 d0} (exact), g2 = {5 ref, 6 d1, 7 d1, 8 d3}.
const paths = ['b/alpha.txt', 'b/alpha2.txt', 'x/Zeta.txt', 'a/Exact.txt', 'a/exact-copy.txt', 'c/m.txt', 'c/n.txt', 'c/o.txt', 'c/p.txt'];
const table: GroupView = {
  count: 3,
  offsets: Int32Array.from([0, 3, 5, 9]),
  members: Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]),
  distanceToReference: Uint8Array.from([0, 2, 4, 0, 0, 0, 1, 1, 3]),
  jaccardToReference: Float32Array.from([1, 0.8, 0.6, 1, 1, 1, 0.9, 0.9, 0.7]),
};
const lower = lowerCasePaths(paths);

describe('orderGroups', () => {
  it('sorts by size, largest first, ties in group order', () => {
    expect([...orderGroups(table, lower, 'size', '')]).toEqual([2, 0, 1]);
  });
  it('sorts by closeness (mean distance of members to the reference)', () => {
    // means: g0 = 3, g1 = 0, g2 = 5/3
    expect([...orderGroups(table, lower, 'closeness', '')]).toEqual([1, 2, 0]);
  });
  it('sorts by reference path, case-insensitively', () => {
    expect([...orderGroups(table, lower, 'path', '')]).toEqual([1, 0, 2]);
  });
  it('filters by any member path, case-insensitively, trimming the query', () => {
    expect([...orderGroups(table, lower, 'size', ' ZETA ')]).toEqual([0]);
    expect([...orderGroups(table, lower, 'path', 'c/')]).toEqual([2]);
    expect([...orderGroups(table, lower, 'size', 'nothing-like-this')]).toEqual([]);
  });
  it('keeps 100,000 groups in typed arrays', () => {
    const n = 100_000;
    const offsets = new Int32Array(n + 1);
    for (let g = 0; g <= n; g++) offsets[g] = g * 2;
    const big: GroupView = {
      count: n,
      offsets,
      members: Int32Array.from({ length: 2 * n }, (_, i) => i),
      distanceToReference: Uint8Array.from({ length: 2 * n }, (_, i) => (i % 2 ? (i >> 1) % 7 : 0)),
      jaccardToReference: new Float32Array(2 * n).fill(Number.NaN),
    };
    const order = orderGroups(big, lowerCasePaths(Array.from({ length: 2 * n }, (_, i) => `f${i}`)), 'closeness', '');
    expect(order.length).toBe(n);
    let sorted = true;
    for (let i = 1; i < n; i++) {
      if (big.distanceToReference[offsets[order[i - 1]] + 1] > big.distanceToReference[offsets[order[i]] + 1]) sorted = false;
    }
    expect(sorted).toBe(true);
  });
});

describe('orderGroups with unknown distances', () => {
  it('counts an unknown distance (255) as 64 when sorting by closeness', () => {
    const t: GroupView = {
      count: 2,
      offsets: Int32Array.from([0, 2, 4]),
      members: Int32Array.from([0, 1, 2, 3]),
      distanceToReference: Uint8Array.from([0, 255, 0, 20]),
      jaccardToReference: Float32Array.from([1, 0.9, 1, 0.8]),
    };
    expect([...orderGroups(t, ['a', 'b', 'c', 'd'], 'closeness', '')]).toEqual([1, 0]);
  });
});

describe('flattenRows and stepRow', () => {
  const rows = flattenRows(table, Uint32Array.from([2, 0]));
  it('puts a header row before each group and numbers member rows', () => {
    expect([...rows.slot]).toEqual([-1, 5, 6, 7, 8, -1, 0, 1, 2]);
    expect([...rows.group]).toEqual([2, 2, 2, 2, 2, 0, 0, 0, 0]);
    expect([...rows.position]).toEqual([0, 1, 2, 3, 4, 0, 5, 6, 7]);
    expect(rows.memberCount).toBe(7);
  });
  it('skips header rows and clamps at both ends', () => {
    expect(stepRow(rows, 0, 0)).toBe(1);
    expect(stepRow(rows, 4, 1)).toBe(6); // over the header of the second group
    expect(stepRow(rows, 6, -1)).toBe(4);
    expect(stepRow(rows, 1, -1)).toBe(1); // header 0 above: turn back
    expect(stepRow(rows, 8, 5)).toBe(8);
    expect(stepRow(rows, rows.count - 1, 0, -1)).toBe(8);
    expect(stepRow(flattenRows(table, new Uint32Array(0)), 0, 1)).toBe(-1);
  });
});

