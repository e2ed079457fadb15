/**
 * The saved corpus: ingest batches (documents, contents, table entries, scan progress in one
 * transaction each), the bulk restore, listing, exact-duplicate and path lookups, removal and clearing.
 */
import { RequestGroup, readTransaction, writeTransaction } from './database.ts';
import { FINGERPRINT_BYTES, halvesToKey, halvesToKeyBytes, keyBytesToHalves } from './key-codec.ts';
import { addTombstonesInTransaction, mergeEntriesInTransaction } from './permuted-shards.ts';
import type { TableEntries } from './permuted-shards.ts';
import {
  DOC_FLAG_EXACT_DUPLICATE,
  DOC_FLAG_SKIPPED,
  DOC_FLAG_TOO_SHORT,
  STORE_NAMES,
} from './schema.ts';
import type {
  CorpusChunkRecord,
  CorpusMetaRecord,
  DocumentRecord,
  DocumentStatus,
} from './schema.ts';
import { StorageError } from './storage-error.ts';

/** Documents per corpus chunk: big enough that 1,000,000 documents are ~60 records. */
export const CHUNK_CAPACITY = 16384;

const MAX_ID = 0xffffffff;

/** A document as the scan hands it over (fingerprint as halves; storage encodes it). */
export interface NewDocument {
  /** Given by the scan from `nextId` upward, ascending within a batch; never reused. */
  id: number;
  path: string;
  size: number;
  lastModified: number;
  /** XXH64 of the bytes, 16 lowercase hex digits, or null when the bytes were not read. */
  contentHash: string | null;
  status: DocumentStatus;
  /** Fingerprint halves; ignored unless status is 'ok'. */
  hi: number;
  lo: number;
  words: number;
  features: number;
  skipReason?: string;
  skipMessage?: string;
  duplicateOf?: number;
}

/** One ingest batch: everything in it is committed together or not at all. */
export interface IngestBatch {
  documents: readonly NewDocument[];
  /** File contents by document id; dropped when the settings turn keeping contents off. */
  contents?: readonly { id: number; blob: Blob }[];
  /** These documents' permuted-table entries, merged into the stored shards in the same transaction. */
  tableEntries?: readonly TableEntries[];
  /** The scan session whose `committed` count this batch advances. */
  sessionId?: number;
}

/** Corpus counters after a write. */
export interface CorpusSummary {
  documentCount: number;
  /** The first id the next batch may use. */
  nextId: number;
  /** Bumped by every write; tabs compare it to know whether to reload. */
  revision: number;
}

/** The corpus restored in bulk: parallel arrays in ascending id order. */
export interface LoadedCorpus extends CorpusSummary {
  count: number;
  ids: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
  /** DOC_FLAG_* bits per document (0 = fingerprinted, distinct bytes). */
  flags: Uint8Array;
  paths: string[];
}

const EMPTY_META: CorpusMetaRecord = { key: 'corpus', nextId: 0, documentCount: 0, revision: 0 };

/**
 * Stores one ingest batch in ONE transaction: document records, corpus chunk columns, contents (if
 * kept), shard merges and the session's progress. On any failure (quota included) nothing of the
 * batch is stored and a StorageError is thrown; earlier batches are untouched.
 */
export async function addBatch(batch: IngestBatch): Promise<CorpusSummary> {
  const docs = batch.documents;
  // Compute everything first: the transaction below only reads small records and writes.
  validateBatch(docs);
  const now = Date.now();
  const records: DocumentRecord[] = docs.map((d) => toRecord(d, now));
  const columns = toColumns(docs);
  const contents = batch.contents ?? [];
  const inBatch = new Set(docs.map((d) => d.id));
  for (const c of contents) {
    if (!inBatch.has(c.id)) throw new StorageError('invalid-input', `content for id ${c.id} outside the batch`);
  }
  const tableEntries = batch.tableEntries ?? [];
  const stores = STORE_NAMES.filter((s) => s !== 'shards' || tableEntries.length > 0);

  return writeTransaction(stores, async (tx) => {
    const metaStore = tx.objectStore('meta');
    const [metaRecord, settings, lastChunkCursor, session] = await Promise.all([
      metaStore.get('corpus'),
      tx.objectStore('settings').get('current'),
      tx.objectStore('corpus-chunks').openCursor(null, 'prev'),
      batch.sessionId === undefined ? undefined : tx.objectStore('scan-sessions').get(batch.sessionId),
    ]);
    const meta = metaRecord ? checkCorpusMeta(metaRecord) : EMPTY_META;
    if (docs.length > 0 && docs[0]!.id < meta.nextId) {
      throw new StorageError('invalid-input', `id ${docs[0]!.id} is below nextId ${meta.nextId}`);
    }
    const writes = new RequestGroup();
    const documents = tx.objectStore('documents');
    for (const record of records) writes.add(documents.add(record));
    if (settings?.keepContents ?? true) {
      const store = tx.objectStore('contents');
      for (const c of contents) writes.add(store.put({ id: c.id, blob: c.blob }));
    }
    const chunks = tx.objectStore('corpus-chunks');
    const last = lastChunkCursor ? checkChunk(lastChunkCursor.value) : null;
    for (const chunk of appendToChunks(last, columns)) writes.add(chunks.put(chunk));
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
    await writes.done();
    return { documentCount: next.documentCount, nextId: next.nextId, revision: next.revision };
  });
}

/**
 * Restores the corpus in bulk from the chunk records (a few big buffers, not one record per
 * document). Throws StorageError 'corrupt' when a chunk is damaged.
 */
export async function loadCorpus(): Promise<LoadedCorpus> {
  const [chunkRecords, metaRecord] = await readTransaction(['corpus-chunks', 'meta'], (tx) =>
    Promise.all([tx.objectStore('corpus-chunks').getAll(), tx.objectStore('meta').get('corpus')]),
  );
  const meta = metaRecord ? checkCorpusMeta(metaRecord) : EMPTY_META;
  let count = 0;
  for (const record of chunkRecords) count += checkChunk(record).count;
  const ids = new Uint32Array(count);
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  const flags = new Uint8Array(count);
  const paths: string[] = new Array<string>(count);
  let at = 0;
  for (const chunk of chunkRecords) {
    ids.set(new Uint32Array(chunk.ids), at);
    keyBytesToHalves(chunk.fingerprints, hi, lo, at);
    flags.set(new Uint8Array(chunk.flags), at);
    const parts = chunk.count === 0 ? [] : chunk.paths.split('\0');
    if (parts.length !== chunk.count) throw new StorageError('corrupt', `paths of chunk ${chunk.chunk}`);
    for (let i = 0; i < parts.length; i++) paths[at + i] = parts[i]!;
    at += chunk.count;
  }
  for (let i = 1; i < count; i++) {
    if (ids[i]! <= ids[i - 1]!) throw new StorageError('corrupt', 'document ids out of order');
  }
  if (count !== meta.documentCount) {
    throw new StorageError('corrupt', `chunks hold ${count} documents, counters say ${meta.documentCount}`);
  }
  return { count, ids, hi, lo, flags, paths, ...summaryOf(meta) };
}

/** The corpus counters without loading anything else. */
export async function getCorpusSummary(): Promise<CorpusSummary> {
  const meta = await readTransaction(['meta'], (tx) => tx.objectStore('meta').get('corpus'));
  return summaryOf(meta ? checkCorpusMeta(meta) : EMPTY_META);
}

/** Document records in id order, `limit` at a time, starting after `afterId` (for detail lists). */
export async function listDocuments(options: { afterId?: number; limit?: number } = {}): Promise<DocumentRecord[]> {
  const range = options.afterId === undefined ? null : IDBKeyRange.lowerBound(options.afterId, true);
  const records = await readTransaction(['documents'], (tx) => tx.objectStore('documents').getAll(range, options.limit));
  return records.map(checkDocument);
}

/** The records of the given ids (undefined where an id is not stored), in the given order. */
export async function getDocuments(ids: readonly number[]): Promise<(DocumentRecord | undefined)[]> {
  const records = await readTransaction(['documents'], (tx) => {
    const store = tx.objectStore('documents');
    return Promise.all(ids.map((id) => store.get(id)));
  });
  return records.map((record) => (record === undefined ? undefined : checkDocument(record)));
}

/** Stored documents whose bytes have this XXH64 (exact duplicates of a new file). */
export async function findDocumentsByContentHash(contentHash: string): Promise<DocumentRecord[]> {
  const records = await readTransaction(['documents'], (tx) =>
    tx.objectStore('documents').index('by-content-hash').getAll(contentHash),
  );
  return records.map(checkDocument);
}

/** Which of these paths are already stored (a resumed scan skips them). */
export async function findStoredPaths(paths: readonly string[]): Promise<Set<string>> {
  return readTransaction(['documents'], async (tx) => {
    const index = tx.objectStore('documents').index('by-path');
    const keys = await Promise.all(paths.map((path) => index.getKey(path)));
    return new Set(paths.filter((_, i) => keys[i] !== undefined));
  });
}

/** A stored file's contents, or null when not kept (the pair view then asks for the file again). */
export async function getContent(id: number): Promise<Blob | null> {
  const record = await readTransaction(['contents'], (tx) => tx.objectStore('contents').get(id));
  return record?.blob ?? null;
}

/**
 * Removes documents (records, contents, chunk entries) in one transaction. Their table entries are
 * tombstoned: filtered out of every shard read, dropped when a shard is merged or the set rewritten.
 * Returns the counters and how many of the ids were stored.
 */
export async function removeDocuments(ids: readonly number[]): Promise<CorpusSummary & { removed: number }> {
  const wanted = [...new Set(ids.map((id) => id >>> 0))].sort((a, b) => a - b);
  return writeTransaction(['documents', 'contents', 'corpus-chunks', 'meta'], async (tx) => {
    const documents = tx.objectStore('documents');
    const chunks = tx.objectStore('corpus-chunks');
    const [present, chunkKeys, metaRecord] = await Promise.all([
      Promise.all(wanted.map((id) => documents.getKey(id))),
      chunks.getAllKeys(),
      tx.objectStore('meta').get('corpus'),
    ]);
    const removedIds = wanted.filter((_, i) => present[i] !== undefined);
    const meta = metaRecord ? checkCorpusMeta(metaRecord) : EMPTY_META;
    const writes = new RequestGroup();
    const contents = tx.objectStore('contents');
    for (const id of removedIds) {
      writes.add(documents.delete(id));
      writes.add(contents.delete(id));
    }
    // Each chunk is keyed by the first id it was created with: id -> the last chunk key <= id.
    const byChunk = new Map<number, Set<number>>();
    for (const id of removedIds) {
      const key = lastKeyAtMost(chunkKeys, id);
      if (key === undefined) throw new StorageError('corrupt', `document ${id} has no corpus chunk`);
      let set = byChunk.get(key);
      if (!set) byChunk.set(key, (set = new Set()));
      set.add(id);
    }
    const touched = await Promise.all([...byChunk.keys()].map((key) => chunks.get(key)));
    for (const record of touched) {
      if (!record) continue;
      const kept = removeFromChunk(checkChunk(record), byChunk.get(record.chunk)!);
      writes.add<unknown>(kept.count === 0 ? chunks.delete(record.chunk) : chunks.put(kept));
    }
    writes.add(addTombstonesInTransaction(tx, removedIds));
    const next: CorpusMetaRecord = {
      key: 'corpus',
      nextId: meta.nextId,
      documentCount: meta.documentCount - removedIds.length,
      revision: meta.revision + 1,
    };
    writes.add(tx.objectStore('meta').put(next));
    await writes.done();
    return { ...summaryOf(next), removed: removedIds.length };
  });
}

/**
 * Clears the whole corpus (documents, contents, chunks, tables, scan sessions) in one transaction,
 * keeping the settings. Ask the person first.
 */
export async function clearCorpus(): Promise<CorpusSummary> {
  return writeTransaction(['documents', 'contents', 'corpus-chunks', 'shards', 'meta', 'scan-sessions'], async (tx) => {
    const meta = tx.objectStore('meta');
    const old = await meta.get('corpus');
    const next: CorpusMetaRecord = {
      key: 'corpus',
      nextId: 0,
      documentCount: 0,
      revision: (old ? checkCorpusMeta(old).revision : 0) + 1,
    };
    await Promise.all([
      tx.objectStore('documents').clear(),
      tx.objectStore('contents').clear(),
      tx.objectStore('corpus-chunks').clear(),
      tx.objectStore('shards').clear(),
      tx.objectStore('scan-sessions').clear(),
      meta.delete('tables'),
      meta.put(next),
    ]);
    return summaryOf(next);
  });
}

// ---------------------------------------------------------------------------------------------------

interface Columns {
  ids: Uint32Array;
  fingerprints: Uint8Array;
  flags: Uint8Array;
  paths: string[];
}

function validateBatch(docs: readonly NewDocument[]): void {
  let previous = -1;
  for (const d of docs) {
    if (!Number.isInteger(d.id) || d.id < 0 || d.id > MAX_ID || d.id <= previous) {
      throw new StorageError('invalid-input', `ids must be ascending uint32 (got ${d.id} after ${previous})`);
    }
    previous = d.id;
    if (typeof d.path !== 'string' || d.path.includes('\0')) {
      throw new StorageError('invalid-input', `path of document ${d.id} contains NUL`);
    }
    if (d.status !== 'ok' && d.status !== 'too-short' && d.status !== 'skipped') {
      throw new StorageError('invalid-input', `status ${String(d.status)}`);
    }
    if (d.contentHash !== null && !/^[0-9a-f]{16}$/.test(d.contentHash)) {
      throw new StorageError('invalid-input', `content hash of document ${d.id} is not 16 lowercase hex digits`);
    }
  }
}

function toRecord(d: NewDocument, now: number): DocumentRecord {
  const record: DocumentRecord = {
    id: d.id,
    path: d.path,
    size: d.size,
    lastModified: d.lastModified,
    contentHash: d.contentHash,
    fingerprint: d.status === 'ok' ? halvesToKey(d.hi, d.lo) : null,
    words: d.words,
    features: d.features,
    status: d.status,
    addedAt: now,
  };
  if (d.skipReason !== undefined) record.skipReason = d.skipReason;
  if (d.skipMessage !== undefined) record.skipMessage = d.skipMessage;
  if (d.duplicateOf !== undefined) record.duplicateOf = d.duplicateOf;
  return record;
}

function toColumns(docs: readonly NewDocument[]): Columns {
  const n = docs.length;
  const ids = new Uint32Array(n);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const flags = new Uint8Array(n);
  docs.forEach((d, i) => {
    ids[i] = d.id;
    if (d.status === 'ok') {
      hi[i] = d.hi;
      lo[i] = d.lo;
    }
    flags[i] =
      (d.status === 'too-short' ? DOC_FLAG_TOO_SHORT : 0) |
      (d.status === 'skipped' ? DOC_FLAG_SKIPPED : 0) |
      (d.duplicateOf !== undefined ? DOC_FLAG_EXACT_DUPLICATE : 0);
  });
  return { ids, fingerprints: new Uint8Array(halvesToKeyBytes(hi, lo)), flags, paths: docs.map((d) => d.path) };
}

/** Fills the open (last) chunk up to CHUNK_CAPACITY, then starts new ones. */
function appendToChunks(last: CorpusChunkRecord | null, cols: Columns): CorpusChunkRecord[] {
  const out: CorpusChunkRecord[] = [];
  let from = 0;
  const n = cols.ids.length;
  if (last && last.count < CHUNK_CAPACITY && n > 0) {
    const take = Math.min(CHUNK_CAPACITY - last.count, n);
    out.push(joinChunk(last, slice(cols, 0, take)));
    from = take;
  }
  while (from < n) {
    const take = Math.min(CHUNK_CAPACITY, n - from);
    const part = slice(cols, from, from + take);
    out.push({
      chunk: part.ids[0]!,
      count: take,
      ids: part.ids.slice().buffer,
      fingerprints: part.fingerprints.slice().buffer,
      flags: part.flags.slice().buffer,
      paths: part.paths.join('\0'),
    });
    from += take;
  }
  return out;
}

function slice(cols: Columns, from: number, to: number): Columns {
  return {
    ids: cols.ids.subarray(from, to),
    fingerprints: cols.fingerprints.subarray(from * FINGERPRINT_BYTES, to * FINGERPRINT_BYTES),
    flags: cols.flags.subarray(from, to),
    paths: cols.paths.slice(from, to),
  };
}

function joinChunk(chunk: CorpusChunkRecord, add: Columns): CorpusChunkRecord {
  const count = chunk.count + add.ids.length;
  const ids = new Uint32Array(count);
  ids.set(new Uint32Array(chunk.ids));
  ids.set(add.ids, chunk.count);
  const fingerprints = new Uint8Array(count * FINGERPRINT_BYTES);
  fingerprints.set(new Uint8Array(chunk.fingerprints));
  fingerprints.set(add.fingerprints, chunk.count * FINGERPRINT_BYTES);
  const flags = new Uint8Array(count);
  flags.set(new Uint8Array(chunk.flags));
  flags.set(add.flags, chunk.count);
  const paths = chunk.count === 0 ? add.paths.join('\0') : chunk.paths + '\0' + add.paths.join('\0');
  return { chunk: chunk.chunk, count, ids: ids.buffer, fingerprints: fingerprints.buffer, flags: flags.buffer, paths };
}

function removeFromChunk(chunk: CorpusChunkRecord, removed: Set<number>): CorpusChunkRecord {
  const ids = new Uint32Array(chunk.ids);
  const fingerprints = new Uint8Array(chunk.fingerprints);
  const flags = new Uint8Array(chunk.flags);
  const paths = chunk.count === 0 ? [] : chunk.paths.split('\0');
  const keep: number[] = [];
  for (let i = 0; i < chunk.count; i++) if (!removed.has(ids[i]!)) keep.push(i);
  const outIds = new Uint32Array(keep.length);
  const outFp = new Uint8Array(keep.length * FINGERPRINT_BYTES);
  const outFlags = new Uint8Array(keep.length);
  keep.forEach((from, to) => {
    outIds[to] = ids[from]!;
    outFp.set(fingerprints.subarray(from * 8, from * 8 + 8), to * 8);
    outFlags[to] = flags[from]!;
  });
  return {
    chunk: chunk.chunk,
    count: keep.length,
    ids: outIds.buffer,
    fingerprints: outFp.buffer,
    flags: outFlags.buffer,
    paths: keep.map((i) => paths[i]!).join('\0'),
  };
}

function lastKeyAtMost(sortedKeys: number[], id: number): number | undefined {
  let lo = 0;
  let hi = sortedKeys.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedKeys[mid]! <= id) {
      found = sortedKeys[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function checkChunk(record: CorpusChunkRecord): CorpusChunkRecord {
  const n = record?.count;
  const ok =
    Number.isInteger(n) &&
    n >= 0 &&
    record.ids instanceof ArrayBuffer &&
    record.ids.byteLength === n * 4 &&
    record.fingerprints instanceof ArrayBuffer &&
    record.fingerprints.byteLength === n * FINGERPRINT_BYTES &&
    record.flags instanceof ArrayBuffer &&
    record.flags.byteLength === n &&
    typeof record.paths === 'string';
  if (!ok) throw new StorageError('corrupt', `corpus chunk ${String(record?.chunk)}`);
  return record;
}

/** Throws StorageError 'corrupt' unless the record has the shape the UI relies on. */
function checkDocument(record: DocumentRecord): DocumentRecord {
  const ok =
    record !== null &&
    typeof record === 'object' &&
    Number.isInteger(record.id) &&
    typeof record.path === 'string' &&
    typeof record.size === 'number' &&
    typeof record.lastModified === 'number' &&
    (record.status === 'ok' || record.status === 'too-short' || record.status === 'skipped') &&
    (record.status === 'ok'
      ? record.fingerprint instanceof ArrayBuffer && record.fingerprint.byteLength === FINGERPRINT_BYTES
      : record.fingerprint === null);
  if (!ok) throw new StorageError('corrupt', `document record ${String(record?.id)}`);
  return record;
}

function checkCorpusMeta(record: unknown): CorpusMetaRecord {
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

function summaryOf(meta: CorpusMetaRecord): CorpusSummary {
  return { documentCount: meta.documentCount, nextId: meta.nextId, revision: meta.revision };
}
