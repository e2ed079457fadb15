/**
 * The saved corpus: ingest batches (document columns, contents, table entries and scan progress in
 * one transaction each), the bulk restore, removal and clearing (document details and lookups:
 * corpus-reads.ts). Documents live only in column chunks (see schema.ts for why).
 */
import { RequestGroup, readTransaction, writeTransaction } from './database.ts';
import { CHUNK_FIELD_OF, LOADED_COLUMNS, chunkFromColumns, columnsFromChunk, setModifiedTimes, columnsFromDocuments, concatColumns, documentAt, idsOf, sliceColumns, withoutIds, checkChunk } from './corpus-columns.ts';
import type { Columns, NewDocument, StoredDocument } from './corpus-columns.ts';
import { idsByRecord, indexOfSorted, keyBytesToHalves } from './key-codec.ts';
import { addTombstonesInTransaction, mergeEntriesInTransaction, rewrittenEntriesInTransaction } from './permuted-shards.ts';
import type { EntriesFor } from './permuted-shards.ts';
import type { TableEntries } from './shard-runs.ts';
import { CHUNK_CAPACITY, STORE_NAMES } from './schema.ts';
import type { CorpusDB, CorpusMetaRecord } from './schema.ts';
import type { StoreNames } from 'idb';
import type { CorpusChunkRecord } from './corpus-columns.ts';
import { StorageError } from './storage-error.ts';
import { forgetAllFolderHandlesInTransaction } from './folder-handles.ts';
import { forgetFolderRootsInTransaction } from './folder-roots.ts';
import { contentRecordOf, removeContentsInTransaction, type ContentBatch } from './content-batches.ts';
import { allocateDocColumns, docColumnConstructor, type DocColumns } from '../core/documents/doc-columns.ts';
import { SKETCH_BINS } from '../core/groups/minhash-sketch.ts';

export type { NewDocument, StoredDocument };
export { CHUNK_CAPACITY };

/** One ingest batch: everything in it is committed together or not at all. */
export interface IngestBatch {
  documents: readonly NewDocument[];
  /** The batch's file contents, one Blob for all (see content-batches.ts); dropped when the settings turn keeping contents off. */
  contents?: ContentBatch;
  /** These documents' permuted-table entries, merged into the stored shards in the same transaction. */
  tableEntries?: readonly TableEntries[];
  /** The scan session whose `committed` count this batch advances. */
  sessionId?: number;
  /**
   * Stored documents whose file was read again with the same contents but another modification time
   * (touched, or saved without one): id -> the file's time, set in the same transaction.
   */
  retimed?: ReadonlyMap<number, number>;
}

/** Corpus counters after a write. */
export interface CorpusSummary {
  documentCount: number;
  /** The first id the next batch may use. */
  nextId: number;
  /** Bumped by every write; tabs compare it to know whether to reload. */
  revision: number;
}

/**
 * The corpus restored in bulk: parallel arrays in ascending id order (position p = document ids[p]).
 * The document columns are corpus-columns.ts LOADED_COLUMNS (`modified` optional, for loaders that
 * predate it). Fingerprint halves are 0 for documents without one, content hash halves valid where
 * `storedFlags` has DOC_FLAG_HAS_CONTENT_HASH, `modified` 0 where not recorded.
 */
export interface LoadedCorpus extends CorpusSummary, DocColumns<(typeof LOADED_COLUMNS)[number]>, Partial<DocColumns<'modified'>> {
  count: number;
  ids: Uint32Array;
  /** DOC_FLAG_* bits per document (0 = fingerprinted, distinct bytes, no content hash): the stored flags, not `DocFlag`. */
  storedFlags: Uint8Array;
  paths: string[];
  /** Skip reasons of skipped documents, by position. */
  skipReasons: Map<number, string>;
  /** The message stored with each skip (position -> message; none when empty). */
  skipMessages?: Map<number, string>;
  /** Feature-set size per position (0: not known, e.g. saved before schema v4). */
  setSizes: Uint32Array;
  /** MinHash sketch per position, SKETCH_BINS entries each (all 0: not known). */
  sketches: Uint16Array;
}

const EMPTY_META: CorpusMetaRecord = { key: 'corpus', nextId: 0, documentCount: 0, revision: 0 };

/**
 * Chunks holding fewer documents than this are joined by `compactChunks` (a scan's chunks hold one
 * batch each, ~256 documents, until the scan's writer closes).
 */
const SMALL_CHUNK = CHUNK_CAPACITY / 4;

/**
 * Stores one ingest batch in ONE transaction: the documents (appended to the corpus chunks), contents
 * (if kept), shard merges and the session's progress. On any failure (quota included) nothing of the
 * batch is stored and a StorageError is thrown; earlier batches are untouched.
 */
export async function addBatch(batch: IngestBatch): Promise<CorpusSummary> {
  const docs = batch.documents;
  // Compute everything first: the transaction below only reads small records and writes.
  const columns = columnsFromDocuments(docs);
  const contents = batch.contents && batch.contents.ids.length > 0 ? contentRecordOf(batch.contents) : null;
  const inBatch = new Set(docs.map((d) => d.id));
  for (const id of batch.contents?.ids ?? []) {
    if (!inBatch.has(id)) throw new StorageError('invalid-input', `content for id ${id} outside the batch`);
  }
  const tableEntries = batch.tableEntries ?? [];
  const stores = STORE_NAMES.filter((s) => s !== 'shards' || tableEntries.length > 0);
  const now = Date.now();

  return writeTransaction(stores, async (tx) => {
    const metaStore = tx.objectStore('meta');
    const [metaRecord, settings, session] = await Promise.all([
      metaStore.get('corpus'),
      tx.objectStore('settings').get('current'),
      batch.sessionId === undefined ? undefined : tx.objectStore('scan-sessions').get(batch.sessionId),
    ]);
    const meta = metaRecord ? checkCorpusMeta(metaRecord) : EMPTY_META;
    if (docs.length > 0 && docs[0]!.id < meta.nextId) {
      throw new StorageError('invalid-input', `id ${docs[0]!.id} is below nextId ${meta.nextId}`);
    }
    const writes = new RequestGroup();
    if (contents && (settings?.keepContents ?? true)) writes.add(tx.objectStore('content-batches').put(contents));
    const chunks = tx.objectStore('corpus-chunks');
    // Append-only: the batch's own chunks (ids above every stored one); no stored chunk is read or rewritten.
    for (const chunk of chunksOf(columns)) writes.add(chunks.put(chunk));
    if (session && batch.sessionId !== undefined) {
      writes.add(
        tx.objectStore('scan-sessions').put({ ...session, committed: session.committed + docs.length, updatedAt: now }),
      );
    }
    const next: CorpusMetaRecord = {
      key: 'corpus',
      nextId: docs.length > 0 ? docs[docs.length - 1]!.id + 1 : meta.nextId,
      documentCount: meta.documentCount + docs.length,
      revision: meta.revision + 1,
    };
    writes.add(metaStore.put(next));
    writes.add(mergeEntriesInTransaction(tx, tableEntries));
    if (batch.retimed && batch.retimed.size > 0) writes.add(retimeInTransaction(chunks, batch.retimed));
    await writes.done();
    return summaryOf(next);
  });
}

/**
 * Stores modification times (storage id -> ms) learnt after the documents were written. The revision
 * stays: a time changes no pair, so the saved pairs stay valid (see verified-pairs.ts).
 */
export async function retimeDocuments(times: ReadonlyMap<number, number>): Promise<void> {
  if (times.size === 0) return;
  await writeTransaction(['corpus-chunks'], (tx) => retimeInTransaction(tx.objectStore('corpus-chunks'), times));
}

/** The corpus-chunks store as a write transaction holds it (only what the retime uses). */
interface ChunkStore {
  getAllKeys(): Promise<number[]>;
  get(key: number): Promise<CorpusChunkRecord | undefined>;
  put(record: CorpusChunkRecord): Promise<unknown>;
}

/** Rewrites the chunks holding the documents `times` names with their new modification times. */
async function retimeInTransaction(chunks: ChunkStore, times: ReadonlyMap<number, number>): Promise<void> {
  const keys = await chunks.getAllKeys();
  const byChunk = idsByRecord(keys, [...times.keys()].sort((x, y) => x - y));
  const records = await Promise.all([...byChunk.keys()].map((key) => chunks.get(key)));
  const puts: Promise<unknown>[] = [];
  for (const record of records) {
    if (!record) continue;
    const cols = columnsFromChunk(record);
    if (setModifiedTimes(cols, times)) puts.push(chunks.put(chunkFromColumns(record.chunk, cols)));
  }
  await Promise.all(puts);
}

/**
 * Restores the corpus in bulk from the chunk records (a few dozen big buffers, not one record per
 * document). Throws StorageError 'corrupt' when a chunk is damaged. `pause`, when given, is awaited
 * after each chunk is decoded (after the read transaction has ended), so the main thread can slice
 * a large corpus's decode into short steps.
 */
export async function loadCorpus(options: { pause?: () => Promise<void> } = {}): Promise<LoadedCorpus> {
  const [chunkRecords, metaRecord] = await readTransaction(['corpus-chunks', 'meta'], (tx) =>
    Promise.all([tx.objectStore('corpus-chunks').getAll(), tx.objectStore('meta').get('corpus')]),
  );
  const meta = metaRecord ? checkCorpusMeta(metaRecord) : EMPTY_META;
  let count = 0;
  for (const record of chunkRecords) count += checkChunk(record).count;
  const ids = new Uint32Array(count);
  const storedFlags = new Uint8Array(count);
  const paths: string[] = new Array<string>(count);
  const cols = allocateDocColumns([...LOADED_COLUMNS, 'modified'], count);
  const { hi, lo, hashHi, hashLo } = cols;
  const skipReasons = new Map<number, string>();
  const skipMessages = new Map<number, string>();
  const setSizes = new Uint32Array(count);
  const sketches = new Uint16Array(count * SKETCH_BINS);
  let at = 0;
  for (const chunk of chunkRecords) {
    for (const [c, field] of Object.entries(CHUNK_FIELD_OF) as [keyof typeof CHUNK_FIELD_OF, (typeof CHUNK_FIELD_OF)[keyof typeof CHUNK_FIELD_OF]][]) {
      cols[c].set(new (docColumnConstructor(c))(chunk[field]), at);
    }
    if (chunk.skips.length > 2) {
      const chunkIds = new Uint32Array(chunk.ids);
      let skips: [number, string, string][];
      try {
        skips = JSON.parse(chunk.skips) as [number, string, string][];
      } catch {
        throw new StorageError('corrupt', `skip notes of chunk ${chunk.chunk}`);
      }
      for (const [id, reason, message] of skips) {
        const i = indexOfSorted(chunkIds, id);
        if (i < 0) throw new StorageError('corrupt', `skip entry of chunk ${chunk.chunk}`);
        skipReasons.set(at + i, reason);
        if (message) skipMessages.set(at + i, message);
      }
    }
    ids.set(new Uint32Array(chunk.ids), at);
    keyBytesToHalves(chunk.fingerprints, hi, lo, at);
    keyBytesToHalves(chunk.contentHashes, hashHi, hashLo, at);
    storedFlags.set(new Uint8Array(chunk.flags), at);
    // A chunk saved before v4 has neither: its documents stay "not known" (zeros).
    if (chunk.setSizes) setSizes.set(new Uint32Array(chunk.setSizes), at);
    if (chunk.sketches) sketches.set(new Uint16Array(chunk.sketches), at * SKETCH_BINS);
    const parts = chunk.count === 0 ? [] : chunk.paths.split('\0');
    if (parts.length !== chunk.count) throw new StorageError('corrupt', `paths of chunk ${chunk.chunk}`);
    for (let i = 0; i < parts.length; i++) paths[at + i] = parts[i]!;
    at += chunk.count;
    if (options.pause) await options.pause();
  }
  for (let i = 1; i < count; i++) {
    if (ids[i]! <= ids[i - 1]!) throw new StorageError('corrupt', 'document ids out of order');
  }
  if (count !== meta.documentCount) {
    throw new StorageError('corrupt', `chunks hold ${count} documents, counters say ${meta.documentCount}`);
  }
  return { count, ids, storedFlags, paths, ...cols, skipReasons, skipMessages, setSizes, sketches, ...summaryOf(meta) };
}

/** The corpus counters without loading anything else. */
export async function getCorpusSummary(): Promise<CorpusSummary> {
  const meta = await readTransaction(['meta'], (tx) => tx.objectStore('meta').get('corpus'));
  return summaryOf(meta ? checkCorpusMeta(meta) : EMPTY_META);
}

/**
 * Removes documents (chunk entries and contents) in one transaction. Their table entries are
 * tombstoned: filtered out of every shard read, dropped when a shard is merged or the set rewritten.
 * `rewrite`: stored documents written anew in the same transaction (same ids; e.g. an exact copy that
 * takes over the fingerprint of its removed original), with their table entries `rewrittenEntries`
 * (without them, or made for another layout, the stored table set goes in the same transaction).
 * Returns the counters, how many of the ids were stored, and what became of the stored tables.
 */
export async function removeDocuments(
  ids: readonly number[],
  rewrite: readonly NewDocument[] = [],
  rewrittenEntries: EntriesFor | null = null,
): Promise<CorpusSummary & { removed: number; tables: 'kept' | 'dropped' }> {
  const wanted = [...new Set(ids.map((id) => id >>> 0))];
  const replacing = new Map(rewrite.map((doc) => [doc.id >>> 0, doc]));
  return writeTransaction(['content-batches', 'corpus-chunks', 'shards', 'meta'], async (tx) => {
    const chunks = tx.objectStore('corpus-chunks');
    const [chunkKeys, metaRecord] = await Promise.all([chunks.getAllKeys(), tx.objectStore('meta').get('corpus')]);
    const meta = metaRecord ? checkCorpusMeta(metaRecord) : EMPTY_META;
    // Each chunk is keyed by the first id it was created with: id -> the last chunk key <= id.
    const byChunk = idsByRecord(chunkKeys, [...new Set([...wanted, ...replacing.keys()])].sort((x, y) => x - y));
    const touched = await Promise.all([...byChunk.keys()].map((key) => chunks.get(key)));
    const writes = new RequestGroup();
    const removedIds: number[] = [];
    const removing = new Set(wanted);
    for (const record of touched) {
      if (!record) continue;
      let cols = columnsFromChunk(record);
      const inChunk = byChunk.get(record.chunk)!;
      let rewritten = false;
      if ([...inChunk].some((id) => replacing.has(id))) {
        const docs: NewDocument[] = [];
        for (let i = 0; i < cols.count; i++) {
          const doc = documentAt(cols, i);
          const next = replacing.get(doc.id);
          rewritten ||= next !== undefined;
          docs.push(next ?? doc);
        }
        if (rewritten) cols = columnsFromDocuments(docs);
      }
      const kept = withoutIds(cols, new Set([...inChunk].filter((id) => removing.has(id))));
      if (kept.count === cols.count && !rewritten) continue;
      const keptIds = new Set(idsOf(kept));
      for (const id of idsOf(cols)) if (!keptIds.has(id)) removedIds.push(id);
      writes.add<unknown>(kept.count === 0 ? chunks.delete(record.chunk) : chunks.put(chunkFromColumns(record.chunk, kept)));
    }
    writes.add(removeContentsInTransaction(tx, removedIds));
    writes.add(addTombstonesInTransaction(tx, removedIds));
    const next: CorpusMetaRecord = {
      key: 'corpus',
      nextId: meta.nextId,
      documentCount: meta.documentCount - removedIds.length,
      revision: meta.revision + 1,
    };
    writes.add(tx.objectStore('meta').put(next));
    await writes.done();
    // After the tombstones (both write the tables' layout record): the successors' entries, or no tables.
    const tables = rewrite.length > 0 ? await rewrittenEntriesInTransaction(tx, rewrittenEntries) : 'kept';
    return { ...summaryOf(next), removed: removedIds.length, tables };
  });
}

/**
 * Clears the whole corpus (documents, contents, tables, scan sessions) in one transaction, keeping
 * the settings; `withFolders`: the folders' handles and CLI roots kept for it go in the same
 * transaction (Clear corpus). Ask the person first.
 */
export async function clearCorpus(options: { withFolders?: boolean } = {}): Promise<CorpusSummary> {
  const stores: StoreNames<CorpusDB>[] = ['content-batches', 'corpus-chunks', 'shards', 'meta', 'scan-sessions'];
  return writeTransaction(options.withFolders ? [...stores, 'settings'] : stores, async (tx) => {
    const meta = tx.objectStore('meta');
    const old = await meta.get('corpus');
    const next: CorpusMetaRecord = {
      key: 'corpus',
      nextId: 0,
      documentCount: 0,
      revision: (old ? checkCorpusMeta(old).revision : 0) + 1,
    };
    const writes = new RequestGroup();
    writes.add(tx.objectStore('content-batches').clear());
    writes.add(tx.objectStore('corpus-chunks').clear());
    writes.add(tx.objectStore('shards').clear());
    writes.add(tx.objectStore('scan-sessions').clear());
    writes.add(meta.delete('tables'));
    writes.add(meta.delete('verified'));
    writes.add(meta.put(next));
    if (options.withFolders) {
      writes.add(forgetAllFolderHandlesInTransaction(tx));
      writes.add(forgetFolderRootsInTransaction(tx));
    }
    await writes.done();
    return summaryOf(next);
  });
}

/**
 * A batch's documents as new chunks of up to CHUNK_CAPACITY, each keyed by its first id. Why not top up
 * the last stored chunk: that rewrote it whole for every batch (decoded, re-encoded and cloned on the
 * main thread, O(n^2) bytes over a scan); `compactChunks` joins a scan's small chunks once, at its end.
 */
export function chunksOf(cols: Columns): CorpusChunkRecord[] {
  const out: CorpusChunkRecord[] = [];
  const ids = idsOf(cols);
  for (let from = 0; from < cols.count; from += CHUNK_CAPACITY) {
    const to = Math.min(cols.count, from + CHUNK_CAPACITY);
    out.push(chunkFromColumns(ids[from]!, from === 0 && to === cols.count ? cols : sliceColumns(cols, from, to)));
  }
  return out;
}

/**
 * Joins runs of small chunks (fewer than SMALL_CHUNK documents each, as a scan's batches leave them)
 * among the chunks keyed `fromId` and up, into chunks of up to CHUNK_CAPACITY, in one transaction: a
 * restore then reads a few big records, not one per batch. The documents and counters do not change
 * (no revision bump); a crash before or during it leaves the small chunks, which read the same.
 * Returns how many chunks were joined away. The chunks are read one by one (a cursor) and each run is
 * joined as it closes: every step is a main-thread task of one chunk's size, not one the size of the scan.
 */
export async function compactChunks(fromId = 0): Promise<number> {
  return writeTransaction(['corpus-chunks'], async (tx) => {
    const store = tx.objectStore('corpus-chunks');
    let joined = 0;
    let run: CorpusChunkRecord[] = [];
    let runCount = 0;
    const close = async () => {
      const parts = run;
      run = [];
      runCount = 0;
      if (parts.length < 2) return;
      const cols = concatColumns(...parts.map((r) => columnsFromChunk(r)));
      const writes = new RequestGroup();
      for (const r of parts.slice(1)) writes.add(store.delete(r.chunk));
      writes.add(store.put(chunkFromColumns(parts[0]!.chunk, cols)));
      await writes.done();
      joined += parts.length - 1;
    };
    for (let cursor = await store.openCursor(IDBKeyRange.lowerBound(fromId)); cursor; cursor = await cursor.continue()) {
      const record = checkChunk(cursor.value);
      if (record.count >= SMALL_CHUNK || runCount + record.count > CHUNK_CAPACITY) await close();
      if (record.count >= SMALL_CHUNK) continue;
      run.push(record);
      runCount += record.count;
    }
    await close();
    return joined;
  });
}

export function checkCorpusMeta(record: unknown): CorpusMetaRecord {
  const m = record as Partial<CorpusMetaRecord>;
  if (
    m.key !== 'corpus' ||
    !Number.isInteger(m.nextId) ||
    !Number.isInteger(m.documentCount) ||
    !Number.isInteger(m.revision)
  ) {
    throw new StorageError('corrupt', 'corpus counters');
  }
  return m as CorpusMetaRecord;
}

export function summaryOf(meta: CorpusMetaRecord): CorpusSummary {
  return { documentCount: meta.documentCount, nextId: meta.nextId, revision: meta.revision };
}
