/**
 * The one IndexedDB schema of SimSift's saved corpus: record shapes, the version, and the
 * migrations (run only from `upgrade`, cascading on the old version).
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { SimHashSettings } from '../core/simhash/settings.ts';

/** Default database name. */
export const DB_NAME = 'simsift-corpus';

/**
 * Schema version. v1: the stores. v2: documents indexed by path (resume skips stored files) and by
 * content hash (exact duplicates of a new file are found without loading the corpus).
 */
export const DB_VERSION = 2;

/** Why a document has no fingerprint. */
export type DocumentStatus = 'ok' | 'too-short' | 'skipped';

/** One document's metadata; the source of truth for details, removal and exact-duplicate lookups. */
export interface DocumentRecord {
  /** Storage id: a uint32 given by the scan, never reused; shards and chunks refer to it. */
  id: number;
  /** Path relative to the dropped folder, as the browser gave it. */
  path: string;
  size: number;
  /** File.lastModified, ms since the epoch. */
  lastModified: number;
  /** XXH64 of the file's bytes as 16 lowercase hex digits; null when the bytes were never read. */
  contentHash: string | null;
  /** 8 big-endian bytes from the key codec; null unless status is 'ok'. */
  fingerprint: ArrayBuffer | null;
  words: number;
  features: number;
  status: DocumentStatus;
  /** Machine-readable reason (e.g. 'binary', 'too-large', 'empty') when status is 'skipped'. */
  skipReason?: string;
  /** The message shown to the person when status is 'skipped'. */
  skipMessage?: string;
  /** Id of an earlier document with the same bytes. */
  duplicateOf?: number;
  /** When this record was stored (ms since the epoch). */
  addedAt: number;
}

/** Bits of `CorpusChunkRecord.flags`. */
export const DOC_FLAG_TOO_SHORT = 1;
export const DOC_FLAG_SKIPPED = 2;
export const DOC_FLAG_EXACT_DUPLICATE = 4;

/**
 * The corpus in bulk, column-wise: up to CHUNK_CAPACITY documents in ascending id order, so a restore
 * reads a few hundred big buffers instead of a million records. Written in the same transaction as
 * the document records it mirrors. Keyed by the first id it was created with.
 */
export interface CorpusChunkRecord {
  chunk: number;
  count: number;
  /** Uint32Array buffer of document ids, ascending. */
  ids: ArrayBuffer;
  /** count * 8 big-endian fingerprint bytes from the key codec (zero for documents without one). */
  fingerprints: ArrayBuffer;
  /** Uint8Array buffer of DOC_FLAG_* bits. */
  flags: ArrayBuffer;
  /** The paths joined with NUL, which no file name contains. */
  paths: string;
}

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

/** A file's bytes, kept so the pair view works after a reload (unless the setting turns it off). */
export interface ContentRecord {
  id: number;
  blob: Blob;
}

/** How one scan ended; 'running' left behind by a closed tab means it was interrupted. */
export type ScanSessionState = 'running' | 'finished' | 'cancelled' | 'failed' | 'interrupted';

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
}

/** The feature settings the stored fingerprints were made with. */
export type FingerprintSettings = SimHashSettings;

/** The saved settings. Changing `fingerprint` means re-fingerprinting; changing `k` rebuilds tables. */
export interface SettingsRecord {
  key: 'current';
  fingerprint: FingerprintSettings;
  /** Hamming distance threshold the tables were built for. */
  k: number;
  /** Keep file contents as Blobs so the pair view works after a reload. */
  keepContents: boolean;
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

export type MetaRecord = CorpusMetaRecord | TablesMetaRecord;

/** The whole schema. */
export interface CorpusDB extends DBSchema {
  documents: {
    key: number;
    value: DocumentRecord;
    indexes: { 'by-path': string; 'by-content-hash': string };
  };
  'corpus-chunks': { key: number; value: CorpusChunkRecord };
  contents: { key: number; value: ContentRecord };
  shards: { key: [number, number]; value: ShardRecord };
  settings: { key: string; value: SettingsRecord };
  meta: { key: string; value: MetaRecord };
  'scan-sessions': { key: number; value: ScanSessionRecord };
}

/** Every store name, for validation and for transactions that clear everything. */
export const STORE_NAMES: readonly StoreNames<CorpusDB>[] = [
  'documents',
  'corpus-chunks',
  'contents',
  'shards',
  'settings',
  'meta',
  'scan-sessions',
];

/**
 * Brings a database from `oldVersion` up to `targetVersion` (DB_VERSION in the app; tests pass an
 * older target to create an old database). Each step runs once, in order.
 */
export function migrate(
  db: IDBPDatabase<CorpusDB>,
  oldVersion: number,
  targetVersion: number,
  tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'versionchange'>,
): void {
  if (oldVersion < 1 && targetVersion >= 1) {
    db.createObjectStore('documents', { keyPath: 'id' });
    db.createObjectStore('corpus-chunks', { keyPath: 'chunk' });
    db.createObjectStore('contents', { keyPath: 'id' });
    db.createObjectStore('shards', { keyPath: ['table', 'shard'] });
    db.createObjectStore('settings', { keyPath: 'key' });
    db.createObjectStore('meta', { keyPath: 'key' });
    db.createObjectStore('scan-sessions', { keyPath: 'id', autoIncrement: true });
  }
  if (oldVersion < 2 && targetVersion >= 2) {
    // Indexes cover records written by v1 as soon as they are created: no data to rewrite.
    const documents = tx.objectStore('documents');
    documents.createIndex('by-path', 'path');
    documents.createIndex('by-content-hash', 'contentHash');
  }
}
