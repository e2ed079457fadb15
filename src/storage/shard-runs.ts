/**
 * Sorted runs of a permuted table and their shard records, without IndexedDB: sorting entries by
 * (key, id), cutting a run into shards, encoding and decoding shard records, merging runs and dropping
 * removed ids. permuted-shards.ts reads and writes these records in its transactions.
 */
import type { ShardRecord } from './schema.ts';
import { StorageError } from './storage-error.ts';

/** Entries of one permuted table; `hi` (and `lo` for two key words) parallel to `ids`. */
export interface TableEntries {
  table: number;
  hi: Uint32Array;
  /** Second key word; required when the layout has keyWords 2, ignored otherwise. */
  lo?: Uint32Array | null;
  ids: Uint32Array;
}

/** A stored table (or a shard of one), sorted by (hi, lo, id), removed documents filtered out. */
export interface StoredTable {
  table: number;
  hi: Uint32Array;
  lo: Uint32Array | null;
  ids: Uint32Array;
}

/** The shard a key belongs to: the leading `shardBits` bits of its first word. */
export function shardOf(keyHi: number, shardBits: number): number {
  return shardBits === 0 ? 0 : (keyHi >>> 0) >>> (32 - shardBits);
}

/** The entries as a stored table, checked: the key and id arrays have one length (for the layout's key words). */
export function checkEntries(entries: TableEntries, layout: { keyWords: 1 | 2 }): StoredTable {
  const n = entries.ids.length;
  const lo = layout.keyWords === 2 ? (entries.lo ?? null) : null;
  if (entries.hi.length !== n || (layout.keyWords === 2 && (!lo || lo.length !== n))) {
    throw new StorageError('invalid-input', `table ${entries.table}: key and id arrays differ in length`);
  }
  return { table: entries.table, hi: entries.hi, lo, ids: entries.ids };
}

/** Compares entry i of a with entry j of b by (hi, lo, id), all unsigned. */
function compareAt(a: StoredTable, i: number, b: StoredTable, j: number): number {
  const ah = a.hi[i]!;
  const bh = b.hi[j]!;
  if (ah !== bh) return ah < bh ? -1 : 1;
  if (a.lo && b.lo) {
    const al = a.lo[i]!;
    const bl = b.lo[j]!;
    if (al !== bl) return al < bl ? -1 : 1;
  }
  const ai = a.ids[i]!;
  const bi = b.ids[j]!;
  return ai === bi ? 0 : ai < bi ? -1 : 1;
}

/** Returns the entries sorted by (hi, lo, id); already-sorted input is returned as is. */
export function sortEntries(t: StoredTable): StoredTable {
  let sorted = true;
  for (let i = 1; i < t.ids.length; i++) {
    if (compareAt(t, i - 1, t, i) > 0) {
      sorted = false;
      break;
    }
  }
  if (sorted) return t;
  const order = Array.from({ length: t.ids.length }, (_, i) => i);
  order.sort((x, y) => compareAt(t, x, t, y));
  const hi = new Uint32Array(order.length);
  const lo = t.lo ? new Uint32Array(order.length) : null;
  const ids = new Uint32Array(order.length);
  order.forEach((from, to) => {
    hi[to] = t.hi[from]!;
    if (lo) lo[to] = t.lo![from]!;
    ids[to] = t.ids[from]!;
  });
  return { table: t.table, hi, lo, ids };
}

/** Cuts a sorted table into shard records (only non-empty shards). */
export function cutIntoShards(t: StoredTable, shardBits: number): ShardRecord[] {
  const records: ShardRecord[] = [];
  const n = t.ids.length;
  let start = 0;
  while (start < n) {
    const shard = shardOf(t.hi[start]!, shardBits);
    let end = start + 1;
    while (end < n && shardOf(t.hi[end]!, shardBits) === shard) end++;
    records.push(
      encodeShard(t.table, shard, {
        table: t.table,
        hi: t.hi.subarray(start, end),
        lo: t.lo ? t.lo.subarray(start, end) : null,
        ids: t.ids.subarray(start, end),
      }),
    );
    start = end;
  }
  return records;
}

/** An exactly-sized copy of the view's bytes (cloning a view would store its whole buffer). */
function ownBuffer(view: Uint32Array): ArrayBuffer {
  return view.slice().buffer;
}

/** One shard record of a sorted run, its arrays copied to exactly-sized buffers. */
export function encodeShard(table: number, shard: number, t: StoredTable): ShardRecord {
  return {
    table,
    shard,
    count: t.ids.length,
    hi: ownBuffer(t.hi),
    lo: t.lo ? ownBuffer(t.lo) : null,
    ids: ownBuffer(t.ids),
  };
}

/** A shard record read back as a run, checked (a wrong size is a corrupt record). */
export function decodeShard(record: ShardRecord, keyWords: 1 | 2): StoredTable {
  const ok =
    record &&
    Number.isInteger(record.count) &&
    record.hi instanceof ArrayBuffer &&
    record.ids instanceof ArrayBuffer &&
    record.hi.byteLength === record.count * 4 &&
    record.ids.byteLength === record.count * 4 &&
    (keyWords === 1 || (record.lo instanceof ArrayBuffer && record.lo.byteLength === record.count * 4));
  if (!ok) throw new StorageError('corrupt', `shard ${record?.table}/${record?.shard}`);
  return {
    table: record.table,
    hi: new Uint32Array(record.hi),
    lo: keyWords === 2 ? new Uint32Array(record.lo!) : null,
    ids: new Uint32Array(record.ids),
  };
}

/** One table's shard records (in shard order) joined into one sorted run. */
export function concatShards(table: number, records: ShardRecord[], keyWords: 1 | 2): StoredTable {
  let total = 0;
  for (const record of records) total += record.count;
  const hi = new Uint32Array(total);
  const lo = keyWords === 2 ? new Uint32Array(total) : null;
  const ids = new Uint32Array(total);
  let at = 0;
  let previousShard = -1;
  for (const record of records) {
    if (record.shard <= previousShard) throw new StorageError('corrupt', `shard order in table ${table}`);
    previousShard = record.shard;
    const part = decodeShard(record, keyWords);
    hi.set(part.hi, at);
    if (lo) lo.set(part.lo!, at);
    ids.set(part.ids, at);
    at += part.ids.length;
  }
  return { table, hi, lo, ids };
}

/** Merges two sorted runs into one, dropping ids in `removed` (from `a` and `b`). */
export function mergeSorted(a: StoredTable, b: StoredTable, removed: Set<number> | null): StoredTable {
  const n = a.ids.length + b.ids.length;
  const hi = new Uint32Array(n);
  const lo = a.lo ? new Uint32Array(n) : null;
  const ids = new Uint32Array(n);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.ids.length || j < b.ids.length) {
    const takeA = j >= b.ids.length || (i < a.ids.length && compareAt(a, i, b, j) <= 0);
    const src = takeA ? a : b;
    const at = takeA ? i++ : j++;
    const id = src.ids[at]!;
    if (removed && removed.has(id)) continue;
    hi[k] = src.hi[at]!;
    if (lo) lo[k] = src.lo![at]!;
    ids[k] = id;
    k++;
  }
  return { table: a.table, hi: hi.subarray(0, k), lo: lo ? lo.subarray(0, k) : null, ids: ids.subarray(0, k) };
}

/** The removed ids as a set, or null when none are removed. */
export function tombstoneFilter(tombstones: ArrayBuffer): Set<number> | null {
  return tombstones.byteLength === 0 ? null : new Set(new Uint32Array(tombstones));
}

/** The run without the removed ids (compacted in place). */
export function filterRemoved(t: StoredTable, removed: Set<number> | null): StoredTable {
  if (!removed) return t;
  let k = 0;
  for (let i = 0; i < t.ids.length; i++) {
    const id = t.ids[i]!;
    if (removed.has(id)) continue;
    t.hi[k] = t.hi[i]!;
    if (t.lo) t.lo[k] = t.lo[i]!;
    t.ids[k] = id;
    k++;
  }
  if (k === t.ids.length) return t;
  return { table: t.table, hi: t.hi.subarray(0, k), lo: t.lo ? t.lo.subarray(0, k) : null, ids: t.ids.subarray(0, k) };
}
