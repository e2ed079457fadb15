/**
 * The data that crosses the ingest worker boundary: per-document status codes, skip reasons with
 * their human messages, and the shape of one batch's result (parallel typed arrays).
 */

/** Per-document outcome, stored in a `Uint8Array` (one byte per document). */
export const DocStatus = {
  /** Not processed (yet): the scan was cancelled or failed before this file's batch finished. */
  pending: 0,
  /** Fingerprinted; `hi`/`lo`, `words` and the content hash are meaningful. */
  ok: 1,
  /** Decoded, but too few words for a fingerprint. The content hash is still set. */
  tooShort: 2,
  /** The bytes do not look like text. */
  binary: 3,
  /** The browser could not read the file (moved, deleted, permission). */
  unreadable: 4,
  /** Zero bytes. */
  empty: 5,
  /**
   * Same normalized text as a file another batch fingerprints (it claimed the content hash first):
   * not fingerprinted again. The index worker gives it that file's status and fingerprint.
   */
  copy: 6,
} as const;
export type DocStatusCode = (typeof DocStatus)[keyof typeof DocStatus];

/** Flag bits, one `Uint8Array` byte per document. */
export const DocFlag = {
  /** The file was larger than the fingerprint cap: its fingerprint covers the first part only. */
  truncated: 1,
  /** HTML markup was stripped before fingerprinting. */
  html: 2,
  /** UTF-8 with invalid bytes, read as UTF-8 with U+FFFD for them (the batch's `notes` say how many). */
  invalidUtf8: 4,
} as const;

/** Something done to a file that was read (not skipped) that the person should know: shown in the Skipped/notes panel. */
export interface BatchNote {
  /** The file's position in its batch. */
  index: number;
  message: string;
}

/** The note for a UTF-8 file whose invalid bytes were replaced (how many, when known). */
export function invalidUtf8Message(bytes?: number): string {
  const what = bytes === undefined ? 'Invalid UTF-8 bytes' : `${bytes.toLocaleString('en')} invalid UTF-8 byte${bytes === 1 ? '' : 's'}`;
  return `${what} replaced with � (U+FFFD); the rest was read as UTF-8.`;
}

/** Why a file is not part of the near-duplicate search. */
export type SkipReason = 'binary' | 'too-short' | 'empty' | 'unreadable' | 'hidden';

/** A skipped file as the worker reports it: `index` is the file's position in its batch. */
export interface BatchSkip {
  index: number;
  reason: SkipReason;
  message: string;
}

/**
 * One file of a batch: its name (HTML is recognized by it) and either its bytes (read on the main
 * thread and transferred) or the File itself (large files, which the worker reads in chunks).
 */
export interface IngestItem {
  name: string;
  bytes?: Uint8Array;
  file?: Blob;
}

/** One batch's results; every array has one entry per file of the batch, in batch order. */
export interface IngestBatchResult {
  /** Size in bytes of each file. */
  sizes: Float64Array;
  status: Uint8Array;
  flags: Uint8Array;
  /** Fingerprint halves (0 unless status is ok). */
  hi: Uint32Array;
  lo: Uint32Array;
  /** Word count of the decoded (and HTML-stripped) text. */
  words: Uint32Array;
  /** XXH64 (seed 0) of the normalized text, as halves (0 for binary, empty, unreadable). */
  hashHi: Uint32Array;
  hashLo: Uint32Array;
  /** Plain records for skipped files only. */
  skipped: BatchSkip[];
  /** Notes on files that were read (e.g. invalid UTF-8 replaced); flagged in `flags` too. */
  notes: BatchNote[];
  /**
   * Feature sets of the batch's small documents (fingerprinted, fewer than `SMALL_SET_WORDS` words):
   * the short-document join needs them and they are tiny, so they are kept instead of re-read.
   */
  sets: PackedSets;
  /** Bytes read from disk. */
  bytesRead: number;
  /** How many fingerprints were computed (files whose text the worker had already seen reuse one). */
  fingerprinted: number;
  /**
   * With `keepBytes`: each item's bytes as an in-memory File made here, named after the path's last
   * part (null for items sent as a `file`). Why not store the scan's Files: storing (or posting) a File
   * from a folder input makes Chromium fetch its metadata with a synchronous IPC on the main thread
   * (150-300 us per file, long tasks under load); an in-memory File knows its size and date.
   */
  contents?: (File | null)[];
}

/** Per-batch options of `ingestBatch`. */
export interface IngestBatchOptions {
  /** The scan's shared claim set (see claimed-hashes.ts); without it, copies are found per worker only. */
  claims?: SharedArrayBuffer;
  limits?: IngestLimits;
  /** Return the items' bytes as Blobs (`IngestBatchResult.contents`), for keeping file contents. */
  keepBytes?: boolean;
}

/** Tunables of the ingest worker; tests shrink them to exercise the chunked path on small files. */
export interface IngestLimits {
  /** Files larger than this are read in chunks with a streaming decoder instead of at once. */
  streamAboveBytes: number;
  /** Chunk size for streamed files. */
  chunkBytes: number;
  /** How many files of a batch are read ahead while earlier ones are hashed (reads are I/O-bound). */
  readAhead: number;
  /** At most this many characters of a file's text are fingerprinted (the content hash covers it all). */
  fingerprintCapChars: number;
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  streamAboveBytes: 16 * 1024 * 1024,
  chunkBytes: 4 * 1024 * 1024,
  readAhead: 16,
  fingerprintCapChars: 32 * 1024 * 1024,
};

/** The human message for each skip reason (shown in the Skipped panel). */
export function skipMessage(reason: SkipReason, detail?: string): string {
  switch (reason) {
    case 'binary': {
      const why = detail?.replace(/^binary file:\s*/i, '');
      return `Not text: the file looks binary${why ? ` (${why})` : ''}, like an image, archive or program, so it was not compared.`;
    }
    case 'too-short':
      return detail ?? 'Too short: the text has too few words for a meaningful fingerprint.';
    case 'empty':
      return 'Empty file: there is no text to compare.';
    case 'unreadable':
      return `Could not be read${detail ? ` (${detail})` : ''}: it may have been moved, deleted or locked while scanning.`;
    case 'hidden':
      return detail ?? 'Hidden: hidden files and folders (names starting with a dot, node_modules) are skipped.';
  }
}

/** The too-short message with the file's word count. */
export function tooShortMessage(words: number): string {
  return skipMessage('too-short', `Too short: ${words} word${words === 1 ? '' : 's'} is too few for a meaningful fingerprint.`);
}

/**
 * Documents with fewer words than this have their feature set returned with the batch (see
 * `IngestBatchResult.sets`): every short document (< SHORT_DOCUMENT_WORDS words) and the slightly
 * longer ones the short-document join may pair with them at a threshold down to 0.25.
 */
export const SMALL_SET_WORDS = 200;

/** Sorted feature sets packed in one array: set i (of `docs[i]`) is `keys[offsets[i] .. offsets[i + 1])`. */
export interface PackedSets {
  /** Batch indexes in a batch result; doc ids once the session has mapped them. */
  docs: Uint32Array;
  offsets: Uint32Array;
  keys: Uint32Array;
}

/** Candidate pairs over a verification chunk's items (local indexes into the chunk's items). */
export interface LocalPairs {
  a: Uint32Array;
  b: Uint32Array;
  count: number;
}

/**
 * Components to check for chaining, over a chunk's items: group g's members are
 * `members[offsets[g] .. offsets[g + 1])`, reference first; `pairs` are the verified pairs among them.
 */
export interface ChainJob {
  offsets: Int32Array;
  members: Int32Array;
  pairs: { a: Uint32Array; b: Uint32Array; distance: Uint8Array; jaccard: Float32Array; count: number };
}

/** Per job group: CHAIN_* status (core/groups/components.ts), and Jaccard to the reference per member slot. */
export interface ChainJobResult {
  status: Uint8Array;
  jaccardToReference: Float32Array;
}
