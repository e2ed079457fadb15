/**
 * The one IndexedDB schema of SimSift's saved corpus: record shapes, the version, and the
 * migrations (run only from `upgrade`, cascading on the old version).
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { CandidateDecisions } from '../core/groups/candidate-decisions.ts';
import { chunkFromColumns, columnsFromDocuments, sliceColumns } from './corpus-columns.ts';
import type { CorpusChunkRecord, DocumentStatus, NewDocument } from './corpus-columns.ts';
import { keyToHalves } from './key-codec.ts';
import { StorageError } from './storage-error.ts';

/**
 * Documents per corpus chunk (~250 records at 1,000,000 documents). Writing or reading a chunk is one
 * structured clone on the page's main thread: since v4 a document takes ~230 bytes, so a chunk stays near 1 MB.
 */
export const CHUNK_CAPACITY = 4096;

/** Default database name. */
export const DB_NAME = 'simsift-corpus';

/**
 * Schema version. v1 kept one record per document (plus thin corpus chunks); v2 keeps every document
 * field in the column chunks only (per-document records were over 20 times slower to write and 7 times
 * larger when v2 was made, with bench/restore.bench.ts). v3 keeps file
 * contents as one record per ingest batch (`content-batches`) instead of one Blob per document
 * (`contents`): Chromium writes a file per stored Blob. v4 chunks also keep each document's feature-set
 * size and MinHash sketch (`setSizes`, `sketches`), so after a reload verification's size bound and
 * sketch test reject a pair with a saved document without reading it again.
 */
export const DB_VERSION = 4;

/**
 * One shard of one permuted table: the entries whose key starts with the shard's leading bits,
 * sorted by (hi, lo, id). Arrays are stored as ArrayBuffers of Uint32 in platform byte order.
 */
export interface ShardRecord {
  table: number;
  shard: number;
  count: number;
  hi: ArrayBuffer;
  /** Second key word, or null for a table set with one key word. */
  lo: ArrayBuffer | null;
  ids: ArrayBuffer;
}

/** v2's record of one file's bytes (read only by the v2 -> v3 migration). */
export interface ContentRecordV2 {
  id: number;
  blob: Blob;
}

/**
 * The bytes of one ingest batch's files, kept so the pair view works after a reload (unless the setting
 * turns it off): document `ids[i]` is bytes `[starts[i], ends[i])` of `blob` (see content-batches.ts).
 */
export interface ContentBatchRecord {
  /** The key: at most every id of the record, above every id of the records before it. */
  first: number;
  /** Uint32 document ids, ascending. */
  ids: ArrayBuffer;
  /** Uint32 byte offsets into `blob`. */
  starts: ArrayBuffer;
  ends: ArrayBuffer;
  blob: Blob;
}

/** How one scan ended; 'running' left behind by a closed tab means it was interrupted. */
/** 'storage-full': stopped by a full quota; the next load says the corpus is partial and offers the resume. */
export type ScanSessionState = 'running' | 'finished' | 'cancelled' | 'failed' | 'interrupted' | 'storage-full';

/** A scan's progress marker, updated in the same transaction as each batch. */
export interface ScanSessionRecord {
  id?: number;
  label: string;
  /** Files the scan was started with. */
  total: number;
  /** Documents committed by this scan so far. */
  committed: number;
  state: ScanSessionState;
  startedAt: number;
  updatedAt: number;
  finishedAt: number | null;
  message?: string;
  /**
   * Files the scan listed but never stores as documents (hidden files, folders that could not be
   * read): [path, reason, message]. A reload lists them as skipped, as the scan did.
   */
  notSaved?: [string, string, string][];
  /** The scan followed a chosen folder (files gone from it leave the corpus): its resume does too. */
  sync?: boolean;
}

/** The feature settings the stored fingerprints were made with. */
export type FingerprintSettings = SimHashSettings;

/** The saved settings. Changing `fingerprint` means re-fingerprinting; changing `k` rebuilds tables. */
export interface SettingsRecord {
  key: 'current';
  fingerprint: FingerprintSettings;
  /** Hamming distance threshold the tables were built for. */
  k: number;
  /**
   * False when the person chose k (the slider, the CLI's --k): the next scan keeps it. True, or absent
   * (saved before this was kept): k is the default, which the next scan takes.
   */
  kAuto?: boolean;
  /** Keep file contents as Blobs so the pair view works after a reload. */
  keepContents: boolean;
  /** The fingerprint rule the stored fingerprints were made with (storage/fingerprint-rule.ts); absent before it was stamped. */
  rule?: number;
  updatedAt: number;
}

/** Corpus counters: next free id, live document count, a revision bumped by every write. */
export interface CorpusMetaRecord {
  key: 'corpus';
  nextId: number;
  documentCount: number;
  revision: number;
}

/** How the stored table set is cut: table count, key words, shard bits, and the index's parameters. */
export interface TablesMetaRecord {
  key: 'tables';
  tableCount: number;
  keyWords: 1 | 2;
  shardBits: number;
  /** The index engineer's parameters (blocks, k, permutations), stored as given. */
  params: Record<string, unknown>;
  /** Ids removed since the tables were written; filtered out of every shard read (Uint32 buffer, sorted). */
  tombstones: ArrayBuffer;
}

/**
 * The near-duplicate pairs the last grouping verified (exact Jaccard >= threshold), by document id, so a
 * restore does not read the files again to verify them. Valid only while `revision` equals the corpus
 * revision (any write to the corpus makes it stale). a, b: Uint32 ids; jaccard: Float32.
 */
export interface VerifiedPairsRecord {
  key: 'verified';
  revision: number;
  /** The grouping parameters the pairs were decided with. */
  k: number;
  threshold: number;
  grouping: string;
  a: ArrayBuffer;
  b: ArrayBuffer;
  /** Uint8 Hamming distances (255: a member has no fingerprint). */
  distance: ArrayBuffer;
  jaccard: ArrayBuffer;
  /** Uint32 candidate counts per distance 0..k (the distance histogram). */
  histogram: ArrayBuffer;
  /** Uint32 stored ids of the references a person chose (absent: none). */
  pinned?: ArrayBuffer;
  /** The containment threshold of the view (0: off; absent: saved before containment). */
  containment?: number;
  /** The sampled passages (containment search) by stored id, packed as Uint32 docs, offsets, keys (absent: none collected). */
  passageDocs?: ArrayBuffer;
  passageOffsets?: ArrayBuffer;
  passageKeys?: ArrayBuffer;
  /** How the search that found the pairs decided its candidates (absent: saved before these were kept). */
  decisions?: CandidateDecisions;
}

/**
 * Written with a scan's marker and deleted whenever the scan ends. Why: a full storage refuses even
 * the marker's small update to 'storage-full', but a delete still goes through. A marker still
 * 'running' with this record is a scan whose tab closed; without it, a scan a full storage stopped.
 */
export interface ScanOpenRecord {
  key: 'scan-open';
  sessionId: number;
}

export type MetaRecord = CorpusMetaRecord | TablesMetaRecord | VerifiedPairsRecord | ScanOpenRecord;

/** The whole schema. */
export interface CorpusDB extends DBSchema {
  'corpus-chunks': { key: number; value: CorpusChunkRecord };
  'content-batches': { key: number; value: ContentBatchRecord };
  shards: { key: [number, number]; value: ShardRecord };
  settings: { key: string; value: SettingsRecord };
  meta: { key: string; value: MetaRecord };
  'scan-sessions': { key: number; value: ScanSessionRecord };
}

/** Every store name, for validation and for transactions that clear everything. */
export const STORE_NAMES: readonly StoreNames<CorpusDB>[] = [
  'corpus-chunks',
  'content-batches',
  'shards',
  'settings',
  'meta',
  'scan-sessions',
];

/** A v1 per-document record (read only by the v1 -> v2 migration). */
export interface DocumentRecordV1 {
  id: number;
  path: string;
  size: number;
  lastModified: number;
  contentHash: string | null;
  fingerprint: ArrayBuffer | null;
  words: number;
  features: number;
  status: DocumentStatus;
  skipReason?: string;
  skipMessage?: string;
  duplicateOf?: number;
  addedAt: number;
}

/**
 * Brings a database from `oldVersion` up to `targetVersion` (DB_VERSION in the app; tests pass an
 * older target to create an old database). Each step runs once, in order. Steps that move data only
 * await requests of the upgrade transaction; a failure aborts it, leaving the old database as it was.
 */
export function migrate(
  db: IDBPDatabase<CorpusDB>,
  oldVersion: number,
  targetVersion: number,
  tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'versionchange'>,
): void {
  // Earlier versions had stores this schema no longer names: reach them untyped.
  const anyDb = db as unknown as IDBPDatabase;
  if (oldVersion < 1 && targetVersion >= 1) {
    anyDb.createObjectStore('documents', { keyPath: 'id' });
    db.createObjectStore('corpus-chunks', { keyPath: 'chunk' });
    anyDb.createObjectStore('contents', { keyPath: 'id' });
    db.createObjectStore('shards', { keyPath: ['table', 'shard'] });
    db.createObjectStore('settings', { keyPath: 'key' });
    db.createObjectStore('meta', { keyPath: 'key' });
    db.createObjectStore('scan-sessions', { keyPath: 'id', autoIncrement: true });
  }
  if (oldVersion < 2 && targetVersion >= 2) {
    if (oldVersion < 1) {
      anyDb.deleteObjectStore('documents'); // a new database: nothing to convert
    } else convertOrAbort(tx, convertDocumentsToChunks(anyDb, tx));
  }
  if (oldVersion < 3 && targetVersion >= 3) {
    db.createObjectStore('content-batches', { keyPath: 'first' });
    if (oldVersion < 1) {
      anyDb.deleteObjectStore('contents'); // a new database: nothing to convert
    } else convertOrAbort(tx, convertContentsToBatches(anyDb, tx));
  }
  // v3 -> v4: nothing is rewritten. A v3 chunk has no `setSizes` or `sketches`, which read as "not
  // known" (the document is read when a pair needs it), so the upgrade cannot fail on a full disk;
  // the bump closes older tabs' connections, which would write chunks without them.
}

/** A step that moves data: when it fails, the whole upgrade aborts and the old database stays as it was. */
function convertOrAbort(tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'versionchange'>, conversion: Promise<void>): void {
  // The open request reports an abort; observe `done` so it is not also an unhandled rejection.
  tx.done.catch(() => undefined);
  conversion.catch((error: unknown) => {
    console.error('SimSift: upgrading the saved corpus failed', error);
    try {
      tx.abort();
    } catch {
      // already finished
    }
  });
}

/** Every record of a store an earlier version had (this schema no longer names it). */
async function oldRecords<T>(tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'versionchange'>, store: string): Promise<T[]> {
  const anyTx = tx as unknown as IDBPTransaction<unknown, string[], 'versionchange'>;
  return (await anyTx.objectStore(store).getAll()) as T[];
}

/** Documents per content record made by the v2 -> v3 migration (a scan's batches hold up to 256). */
const MIGRATED_CONTENTS_PER_RECORD = 256;

/**
 * v2 -> v3: joins the per-document content Blobs, in id order, into records of up to
 * MIGRATED_CONTENTS_PER_RECORD documents (a Blob made of Blobs: no bytes are read here), then drops
 * the per-document store.
 */
async function convertContentsToBatches(
  anyDb: IDBPDatabase,
  tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'versionchange'>,
): Promise<void> {
  const records = await oldRecords<ContentRecordV2>(tx, 'contents');
  for (const r of records) {
    if (!(r.blob instanceof Blob) || !Number.isInteger(r.id) || r.id < 0 || r.id > 0xffffffff) throw new StorageError('corrupt', `content record ${String(r.id)}`);
  }
  records.sort((x, y) => x.id - y.id);
  const batches = tx.objectStore('content-batches');
  const writes: Promise<unknown>[] = [];
  for (let from = 0; from < records.length; from += MIGRATED_CONTENTS_PER_RECORD) {
    const part = records.slice(from, from + MIGRATED_CONTENTS_PER_RECORD);
    const starts = new Uint32Array(part.length);
    const ends = new Uint32Array(part.length);
    let at = 0;
    part.forEach((r, i) => {
      starts[i] = at;
      at += r.blob.size;
      ends[i] = at;
    });
    const ids = Uint32Array.from(part, (r) => r.id);
    writes.push(batches.put({ first: ids[0]!, ids: ids.buffer, starts: starts.buffer, ends: ends.buffer, blob: new Blob(part.map((r) => r.blob)) }));
  }
  await Promise.all(writes);
  anyDb.deleteObjectStore('contents');
}

/** v1 -> v2: rewrites the corpus chunks from the per-document records, then drops that store. */
async function convertDocumentsToChunks(
  anyDb: IDBPDatabase,
  tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'versionchange'>,
): Promise<void> {
  const records = await oldRecords<DocumentRecordV1>(tx, 'documents');
  const docs: NewDocument[] = records.map((r) => {
    const fp = r.fingerprint ? keyToHalves(r.fingerprint) : { hi: 0, lo: 0 };
    const d: NewDocument = {
      id: r.id,
      path: r.path.replaceAll('\0', ''),
      size: r.size,
      lastModified: r.lastModified,
      contentHash: r.contentHash,
      status: r.status,
      hi: fp.hi,
      lo: fp.lo,
      words: r.words,
      features: r.features,
    };
    if (r.skipReason !== undefined) d.skipReason = r.skipReason;
    if (r.skipMessage !== undefined) d.skipMessage = r.skipMessage;
    if (r.duplicateOf !== undefined) d.duplicateOf = r.duplicateOf;
    return d;
  });
  const chunks = tx.objectStore('corpus-chunks');
  await chunks.clear();
  const all = columnsFromDocuments(docs);
  const writes: Promise<unknown>[] = [];
  for (let from = 0; from < all.count; from += CHUNK_CAPACITY) {
    const part = sliceColumns(all, from, Math.min(all.count, from + CHUNK_CAPACITY));
    writes.push(chunks.put(chunkFromColumns(docs[from]!.id, part)));
  }
  await Promise.all(writes);
  anyDb.deleteObjectStore('documents');
}
