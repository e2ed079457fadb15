import { describe, expect, it } from 'vitest';
import {
  concatShards,
  cutIntoShards,
  decodeShard,
  filterRemoved,
  mergeSorted,
  shardOf,
  sortEntries,
  tombstoneFilter,
} from '../../../src/storage/shard-runs.ts';
import type { StoredTable } from '../../../src/storage/shard-runs.ts';

const run = (hi: number[], lo: number[] | null, ids: number[]): StoredTable => ({
  table: 0,
  hi: Uint32Array.from(hi),
  lo: lo ? Uint32Array.from(lo) : null,
  ids: Uint32Array.from(ids),
});
const triples = (t: StoredTable) => [...t.ids].map((id, i) => [t.hi[i], t.lo ? t.lo[i] : null, id]);

describe('sorted runs of a permuted table, without IndexedDB', () => {
  it('sorts by (hi, lo, id) unsigned, keeping an already sorted run as is', () => {
    const t = run([0x80000000, 1, 1, 1], [0, 7, 2, 2], [0, 1, 3, 2]);
    expect(triples(sortEntries(t))).toEqual([[1, 2, 2], [1, 2, 3], [1, 7, 1], [0x80000000, 0, 0]]);
    const sorted = sortEntries(t);
    expect(sortEntries(sorted)).toBe(sorted);
  });

  it('merges two runs in order and drops removed ids from both', () => {
    const a = run([1, 5, 9], null, [10, 11, 12]);
    const b = run([2, 5, 10], null, [20, 9, 21]);
    const merged = mergeSorted(a, b, new Set([11, 21]));
    expect(triples(merged)).toEqual([[1, null, 10], [2, null, 20], [5, null, 9], [9, null, 12]]);
  });

  it('cuts a run into shards by leading bits and joins them back unchanged', () => {
    const t = sortEntries(run([0x00000001, 0x40000000, 0x40000002, 0xc0000000], [4, 3, 2, 1], [0, 1, 2, 3]));
    const records = cutIntoShards(t, 2);
    expect(records.map((r) => [r.shard, r.count])).toEqual([[0, 1], [1, 2], [3, 1]]);
    for (const r of records) expect([...decodeShard(r, 2).hi].every((h) => shardOf(h, 2) === r.shard)).toBe(true);
    expect(triples(concatShards(0, records, 2))).toEqual(triples(t));
  });

  it('refuses a shard record whose arrays do not match its count, and shards out of order', () => {
    const [record] = cutIntoShards(run([1, 2], null, [0, 1]), 0);
    expect(() => decodeShard({ ...record!, count: 3 }, 1)).toThrow(/shard/);
    const records = cutIntoShards(run([1, 0x80000000], null, [0, 1]), 1);
    expect(() => concatShards(0, [...records].reverse(), 1)).toThrow(/order/);
  });

  it('filters tombstoned ids, and no tombstones means no filter', () => {
    expect(tombstoneFilter(new ArrayBuffer(0))).toBeNull();
    const removed = tombstoneFilter(Uint32Array.from([1]).buffer);
    expect([...filterRemoved(run([1, 2, 3], null, [0, 1, 2]), removed).ids]).toEqual([0, 2]);
  });
});
