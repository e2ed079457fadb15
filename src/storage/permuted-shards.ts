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
import { checkEntries, concatShards, cutIntoShards, decodeShard, encodeShard, filterRemoved, mergeSorted, shardOf, sortEntries, tombstoneFilter } from './shard-runs.ts';
import type { StoredTable, TableEntries } from './shard-runs.ts';

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

/** Deletes the stored table set (shards, layout, tombstones) in one transaction; the corpus stays. */
export async function deleteTableSet(): Promise<void> {
  await writeTransaction(['shards', 'meta'], async (tx) => {
    const requests = new RequestGroup();
    requests.add(tx.objectStore('shards').clear());
    requests.add(tx.objectStore('meta').delete('tables'));
    await requests.done();
  });
}

/** Table entries made for the stored layout with these index parameters (permutedEntries). */
export interface EntriesFor {
  k: number;
  blocks: number;
  entries: readonly TableEntries[];
}

/**
 * Inside a removal's transaction, after its tombstones: the entries of documents written anew with a
 * fingerprint (a removed original's successor) are merged when they were made for the stored layout;
 * otherwise the table set goes, so the tables never miss a stored document ('kept' also when none is stored).
 */
export async function rewrittenEntriesInTransaction(tx: ShardTx, made: EntriesFor | null): Promise<'kept' | 'dropped'> {
  const meta = await tx.objectStore('meta').get('tables');
  if (!meta) return 'kept';
  const params = checkTablesMeta(meta).params as { k?: unknown; blocks?: unknown };
  if (made && params.k === made.k && params.blocks === made.blocks) {
    await mergeEntriesInTransaction(tx, made.entries);
    return 'kept';
  }
  const requests = new RequestGroup();
  requests.add(tx.objectStore('shards').clear());
  requests.add(tx.objectStore('meta').delete('tables'));
  await requests.done();
  return 'dropped';
}
