/**
 * Permuted tables as sorted binary shards: each table is cut by the leading bits of its first key word,
 * one ArrayBuffer record per (table, shard). Writes a whole table set, reads only the shards a query
 * key hits, merges new entries into shards (still sorted), and restores whole tables in bulk. Generic
 * over the index's format: a table is (sorted key words, doc ids) as Uint32Arrays.
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import { RequestGroup, readTransaction, writeTransaction } from './database.ts';
import type { CorpusDB, ShardRecord, TablesMetaRecord } from './schema.ts';
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

/** One shard as read back. */
export interface ShardSlice extends StoredTable {
  shard: number;
}

/** How the table set is cut into shards, plus the index's own parameters. */
export interface TableSetLayout {
  tableCount: number;
  keyWords: 1 | 2;
  /** 0..16: shard = the first key word's leading `shardBits` bits. */
  shardBits: number;
  /** The index's parameters (k, blocks, permutations...), stored and returned as given. */
  params?: Record<string, unknown>;
}

/** The stored layout and how many removed ids are still filtered out of the shards. */
export interface StoredTableLayout extends Required<TableSetLayout> {
  tombstoneCount: number;
}

const MAX_SHARD_BITS = 16;

/** The shard a key belongs to: the leading `shardBits` bits of its first word. */
export function shardOf(keyHi: number, shardBits: number): number {
  return shardBits === 0 ? 0 : (keyHi >>> 0) >>> (32 - shardBits);
}

/**
 * Shard bits so that a table of `entries` entries has about `target` entries per shard. The default
 * (64k entries, 256-512 KiB per shard) is from bench/restore.bench.ts in Chromium: 32 KiB shards made
 * restoring 1M documents' tables 2-3x slower (many small records), while one shard read for a query
 * stays a few milliseconds.
 */
export function chooseShardBits(entries: number, target = 65536): number {
  if (entries <= target) return 0;
  return Math.min(MAX_SHARD_BITS, Math.ceil(Math.log2(entries / target)));
}

/**
 * Replaces the whole stored table set (all shards, the layout, the tombstones) in one transaction.
 * Tables need not be sorted; unsorted ones are sorted first. Use after a full index build.
 */
export async function writeTableSet(layout: TableSetLayout, tables: readonly TableEntries[]): Promise<void> {
  validateLayout(layout);
  if (tables.length !== layout.tableCount) {
    throw new StorageError('invalid-input', `expected ${layout.tableCount} tables, got ${tables.length}`);
  }
  // Compute every shard first; the transaction then only writes. One table per task: sorting and
  // cutting every table in one task was a long task of a regroup at a new k (the main-thread bench).
  const records: ShardRecord[] = [];
  for (const [i, entries] of tables.entries()) {
    if (i > 0) await new Promise((next) => setTimeout(next, 0));
    const sorted = sortEntries(checkEntries(entries, layout));
    for (const record of cutIntoShards(sorted, layout.shardBits)) records.push(record);
  }
  const meta: TablesMetaRecord = {
    key: 'tables',
    tableCount: layout.tableCount,
    keyWords: layout.keyWords,
    shardBits: layout.shardBits,
    params: layout.params ?? {},
    tombstones: new ArrayBuffer(0),
  };
  await writeTransaction(['shards', 'meta'], async (tx) => {
    const shards = tx.objectStore('shards');
    const requests = new RequestGroup();
    requests.add(shards.clear());
    for (const record of records) requests.add(shards.put(record));
    requests.add(tx.objectStore('meta').put(meta));
    await requests.done();
  });
}

/** The stored layout, or null when no table set was written. */
export async function readTableLayout(): Promise<StoredTableLayout | null> {
  const meta = await readTransaction(['meta'], (tx) => tx.objectStore('meta').get('tables'));
  if (!meta) return null;
  const tables = checkTablesMeta(meta);
  return {
    tableCount: tables.tableCount,
    keyWords: tables.keyWords,
    shardBits: tables.shardBits,
    params: tables.params,
    tombstoneCount: tables.tombstones.byteLength / 4,
  };
}

/**
 * Reads only the shards that the given (table, first key word) pairs fall in, each once, with removed
 * documents filtered out. Returns [] when no table set is stored.
 */
export async function readShardsForKeys(keys: readonly { table: number; hi: number }[]): Promise<ShardSlice[]> {
  return readTransaction(['shards', 'meta'], async (tx) => {
    const meta = await tx.objectStore('meta').get('tables');
    if (!meta) return [];
    const layout = checkTablesMeta(meta);
    const wanted = new Map<string, [number, number]>();
    for (const { table, hi } of keys) {
      const shard = shardOf(hi, layout.shardBits);
      wanted.set(`${table}:${shard}`, [table, shard]);
    }
    const shards = tx.objectStore('shards');
    const records = await Promise.all([...wanted.values()].map((key) => shards.get(key)));
    const removed = tombstoneFilter(layout.tombstones);
    const slices: ShardSlice[] = [];
    for (const record of records) {
      if (!record) continue;
      const slice = decodeShard(record, layout.keyWords);
      slices.push({ ...filterRemoved(slice, removed), shard: record.shard });
    }
    return slices;
  });
}

/**
 * Reads the whole table set back, each table one sorted run (its shards concatenated in order), for
 * restoring the in-memory index. Null when no table set is stored.
 */
export async function readTableSet(): Promise<{ layout: StoredTableLayout; tables: StoredTable[] } | null> {
  return readTransaction(['shards', 'meta'], async (tx) => {
    const meta = await tx.objectStore('meta').get('tables');
    if (!meta) return null;
    const layout = checkTablesMeta(meta);
    const shards = tx.objectStore('shards');
    const removed = tombstoneFilter(layout.tombstones);
    const perTable = await Promise.all(
      Array.from({ length: layout.tableCount }, (_, table) =>
        shards.getAll(IDBKeyRange.bound([table, 0], [table, Infinity])).then((records) => {
          const stored = concatShards(table, records, layout.keyWords);
          return filterRemoved(stored, removed);
        }),
      ),
    );
    return {
      layout: {
        tableCount: layout.tableCount,
        keyWords: layout.keyWords,
        shardBits: layout.shardBits,
        params: layout.params,
        tombstoneCount: layout.tombstones.byteLength / 4,
      },
      tables: perTable,
    };
  });
}

/**
 * Merges new entries into their shards, all in one transaction; each touched shard stays sorted and
 * drops removed documents. Fails with 'invalid-input' when no table set layout is stored.
 */
export async function mergeIntoShards(entries: readonly TableEntries[]): Promise<void> {
  await writeTransaction(['shards', 'meta'], (tx) => mergeEntriesInTransaction(tx, entries));
}

type ShardTx = IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'readwrite'>;

/**
 * The body of a shard merge inside a caller's transaction (which must include 'shards' and 'meta'):
 * only IndexedDB requests are awaited. Used by mergeIntoShards and by the corpus's addBatch.
 */
export async function mergeEntriesInTransaction(tx: ShardTx, entries: readonly TableEntries[]): Promise<void> {
  if (entries.length === 0) return;
  const meta = await tx.objectStore('meta').get('tables');
  if (!meta) throw new StorageError('invalid-input', 'write a table set (writeTableSet) before merging into it');
  const layout = checkTablesMeta(meta);
  // Group the new entries by shard, sorted, before touching the store.
  const groups = new Map<string, { table: number; shard: number; add: StoredTable }>();
  for (const raw of entries) {
    if (raw.table < 0 || raw.table >= layout.tableCount) {
      throw new StorageError('invalid-input', `table ${raw.table} outside 0..${layout.tableCount - 1}`);
    }
    const sorted = sortEntries(checkEntries(raw, layout));
    for (const shard of cutIntoShards(sorted, layout.shardBits)) {
      const add = decodeShard(shard, layout.keyWords);
      const key = `${shard.table}:${shard.shard}`;
      const previous = groups.get(key);
      groups.set(key, {
        table: shard.table,
        shard: shard.shard,
        add: previous ? mergeSorted(previous.add, add, null) : add,
      });
    }
  }
  const removed = tombstoneFilter(layout.tombstones);
  const store = tx.objectStore('shards');
  const targets = [...groups.values()];
  const existing = await Promise.all(targets.map((g) => store.get([g.table, g.shard])));
  const puts = new RequestGroup();
  targets.forEach((group, i) => {
    const old = existing[i];
    const merged = old ? mergeSorted(decodeShard(old, layout.keyWords), group.add, removed) : group.add;
    puts.add(store.put(encodeShard(group.table, group.shard, merged)));
  });
  await puts.done();
}

/** Adds removed ids to the tombstones (inside a caller's transaction holding 'meta'). */
export async function addTombstonesInTransaction(tx: ShardTx, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const meta = await tx.objectStore('meta').get('tables');
  if (!meta) return;
  const layout = checkTablesMeta(meta);
  const all = new Set<number>(new Uint32Array(layout.tombstones));
  for (const id of ids) all.add(id >>> 0);
  const sorted = Uint32Array.from(all).sort();
  await tx.objectStore('meta').put({ ...layout, tombstones: sorted.buffer });
}

// ---------------------------------------------------------------------------------------------------

function validateLayout(layout: TableSetLayout): void {
  if (!Number.isInteger(layout.tableCount) || layout.tableCount < 1 || layout.tableCount > 65535) {
    throw new StorageError('invalid-input', `tableCount ${layout.tableCount}`);
  }
  if (layout.keyWords !== 1 && layout.keyWords !== 2) {
    throw new StorageError('invalid-input', `keyWords ${String(layout.keyWords)}`);
  }
  if (!Number.isInteger(layout.shardBits) || layout.shardBits < 0 || layout.shardBits > MAX_SHARD_BITS) {
    throw new StorageError('invalid-input', `shardBits ${layout.shardBits}`);
  }
}

function checkTablesMeta(meta: unknown): TablesMetaRecord {
  const m = meta as Partial<TablesMetaRecord> | undefined;
  if (
    !m ||
    m.key !== 'tables' ||
    !Number.isInteger(m.tableCount) ||
    (m.keyWords !== 1 && m.keyWords !== 2) ||
    !Number.isInteger(m.shardBits) ||
    !(m.tombstones instanceof ArrayBuffer) ||
    m.tombstones.byteLength % 4 !== 0
  ) {
    throw new StorageError('corrupt', 'table set layout record');
  }
  return m as TablesMetaRecord;
}

function checkEntries(entries: TableEntries, layout: { keyWords: 1 | 2 }): StoredTable {
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
function sortEntries(t: StoredTable): StoredTable {
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
function cutIntoShards(t: StoredTable, shardBits: number): ShardRecord[] {
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

function encodeShard(table: number, shard: number, t: StoredTable): ShardRecord {
  return {
    table,
    shard,
    count: t.ids.length,
    hi: ownBuffer(t.hi),
    lo: t.lo ? ownBuffer(t.lo) : null,
    ids: ownBuffer(t.ids),
  };
}

function decodeShard(record: ShardRecord, keyWords: 1 | 2): StoredTable {
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

function concatShards(table: number, records: ShardRecord[], keyWords: 1 | 2): StoredTable {
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
function mergeSorted(a: StoredTable, b: StoredTable, removed: Set<number> | null): StoredTable {
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

function tombstoneFilter(tombstones: ArrayBuffer): Set<number> | null {
  return tombstones.byteLength === 0 ? null : new Set(new Uint32Array(tombstones));
}

function filterRemoved(t: StoredTable, removed: Set<number> | null): StoredTable {
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

/** Deletes the stored table set (shards, layout, tombstones) in one transaction; the corpus stays. */
export async function deleteTableSet(): Promise<void> {
  await writeTransaction(['shards', 'meta'], async (tx) => {
    const requests = new RequestGroup();
    requests.add(tx.objectStore('shards').clear());
    requests.add(tx.objectStore('meta').delete('tables'));
    await requests.done();
  });
}
