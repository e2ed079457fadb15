/**
 * Kept file contents, one record per ingest batch: the batch's bytes as one Blob and each document's
 * byte range in it. Why not one Blob per document: Chromium writes every stored Blob to a file of its
 * own, so a 100,000-file scan wrote 100,000 files beside the reads. Lookups, restores and removals
 * here work on the records inside the caller's transaction.
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import type { ContentBatchRecord, CorpusDB } from './schema.ts';
import { idsByRecord, indexOfSorted } from './key-codec.ts';
import { StorageError } from './storage-error.ts';

/** One batch's kept contents: document `ids[i]` is bytes `[starts[i], ends[i])` of `blob`. */
export interface ContentBatch {
  /** Ascending document ids. */
  ids: Uint32Array;
  starts: Uint32Array;
  ends: Uint32Array;
  blob: Blob;
}

/** The record of `batch` (ids must ascend). */
export function contentRecordOf(batch: ContentBatch): ContentBatchRecord {
  const { ids, starts, ends, blob } = batch;
  if (starts.length !== ids.length || ends.length !== ids.length) throw new StorageError('invalid-input', 'content ranges do not match the ids');
  for (let i = 0; i < ids.length; i++) {
    if (i > 0 && ids[i]! <= ids[i - 1]!) throw new StorageError('invalid-input', 'content ids must ascend');
    if (starts[i]! > ends[i]! || ends[i]! > blob.size) throw new StorageError('invalid-input', `content range of id ${ids[i]} is outside its blob`);
  }
  return { first: ids[0]!, ids: copyBuffer(ids), starts: copyBuffer(starts), ends: copyBuffer(ends), blob };
}

function copyBuffer(a: Uint32Array): ArrayBuffer {
  return a.slice().buffer as ArrayBuffer;
}

/** Position of `id` in a record, or -1. */
function positionIn(record: ContentBatchRecord, id: number): number {
  return indexOfSorted(new Uint32Array(record.ids), id);
}

/** Document `id`'s bytes from its record (a slice of the record's Blob), or null. */
export function contentIn(record: ContentBatchRecord, id: number): Blob | null {
  const i = positionIn(record, id);
  if (i < 0) return null;
  return record.blob.slice(new Uint32Array(record.starts)[i], new Uint32Array(record.ends)[i]);
}

/** Calls `visit(id, start, end)` for every document of the record. */
export function forEachContent(record: ContentBatchRecord, visit: (id: number, start: number, end: number) => void): void {
  const ids = new Uint32Array(record.ids);
  const starts = new Uint32Array(record.starts);
  const ends = new Uint32Array(record.ends);
  for (let i = 0; i < ids.length; i++) visit(ids[i]!, starts[i]!, ends[i]!);
}

/**
 * The record holding document `id` is the one with the greatest key at most `id` (keys are each
 * batch's first id, and a later batch's ids are all above an earlier one's).
 */
export async function findContent(tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], IDBTransactionMode>, id: number): Promise<Blob | null> {
  const cursor = await tx.objectStore('content-batches').openCursor(IDBKeyRange.upperBound(id), 'prev');
  return cursor ? contentIn(cursor.value, id) : null;
}

/**
 * Queues the removal of documents `ids` from the kept contents in `tx`: each record holding one is
 * written again without it (its Blob rebuilt from slices, no bytes read here) or deleted when empty.
 */
export async function removeContentsInTransaction(tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'readwrite'>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const store = tx.objectStore('content-batches');
  const byRecord = idsByRecord(await store.getAllKeys(), ids);
  const records = await Promise.all([...byRecord.keys()].map((key) => store.get(key)));
  const writes: Promise<unknown>[] = [];
  for (const record of records) {
    if (!record) continue;
    const gone = byRecord.get(record.first)!;
    const keep: number[] = [];
    const parts: Blob[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    let at = 0;
    // Kept neighbours are sliced as one run: each slice is a new Blob registered with the browser
    // process, and a slice per kept document made a 3-file change cost a second per 20,000 documents.
    let runStart = 0;
    let runEnd = 0;
    const flush = () => {
      if (runEnd > runStart) parts.push(record.blob.slice(runStart, runEnd));
      runStart = runEnd = 0;
    };
    forEachContent(record, (id, start, end) => {
      if (gone.has(id)) return flush();
      if (start !== runEnd || runEnd === runStart) {
        flush();
        runStart = start;
      }
      runEnd = end;
      keep.push(id);
      starts.push(at);
      at += end - start;
      ends.push(at);
    });
    flush();
    if (keep.length === new Uint32Array(record.ids).length) continue;
    if (keep.length === 0) writes.push(store.delete(record.first));
    else {
      // The key stays: it is still at most every id of the record and above the records before it.
      writes.push(store.put({ first: record.first, ids: Uint32Array.from(keep).buffer, starts: Uint32Array.from(starts).buffer, ends: Uint32Array.from(ends).buffer, blob: new Blob(parts) }));
    }
  }
  await Promise.all(writes);
}
