/**
 * The data that crosses the ingest worker boundary: the shape of one batch's items and result
 * (parallel typed arrays), the worker's limits, and packed feature sets. What a document's status
 * means lives in core/documents/document-status.ts.
 */
import { MAX_DOCUMENT_BYTES, type SkipReason } from '../core/documents/document-status.ts';
import type { KeptSets, PackedSets } from '../core/groups/packed-sets.ts';
import type { DocColumnName, DocColumns } from '../core/documents/doc-columns.ts';

/** Something done to a file that was read (not skipped) that the person should know: shown in the Skipped/notes panel. */
export interface BatchNote {
  /** The file's position in its batch. */
  index: number;
  message: string;
}

/** A skipped file as the worker reports it: `index` is the file's position in its batch. */
export interface BatchSkip {
  index: number;
  reason: SkipReason;
  message: string;
}

/** A whole file on disk as listed (its stat when walked): a read that finds another size or time fails. */
export interface DiskRef {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * One file of a batch: its name (HTML is recognized by it) and either its bytes (read on the main
 * thread and transferred) or the File itself (large files, which the worker reads). In verification
 * and chaining jobs an item may carry neither: its feature set comes with the job (`KeptSets`).
 */
export interface IngestItem {
  name: string;
  bytes?: Uint8Array;
  /** The CLI: a file on disk its thread reads (node-ingest-api.ts), so the main thread reads nothing. */
  disk?: DiskRef;
  file?: Blob;
  /** Why the file could not be opened (read through a directory handle): it is reported unreadable. */
  error?: string;
  /** The file's modification time (ms since the epoch) when the page read its bytes; else the File's own. */
  lastModified?: number;
  /** The CLI, in verification and chaining jobs: the feature set an ingest thread wrote to its spill file, read there instead of the file. */
  spilled?: SpillRef;
}

/**
 * The CLI: where an ingest thread wrote a document's encoded feature set (feature-set-codec.ts) beyond
 * the kept sets' budget (src/cli/set-spill.ts): a file descriptor of this process (any thread reads it),
 * the byte offset and the length in 32-bit words.
 */
export interface SpillRef {
  fd: number;
  at: number;
  words: number;
}

/** A batch's spilled sets (`IngestBatchOptions.spillSets`): per entry, batch index, where and length. */
export interface SpilledBatch {
  docs: Uint32Array;
  fd: number;
  at: Float64Array;
  words: Uint32Array;
}

/**
 * One batch's results; every array has one entry per file of the batch, in batch order: the document
 * columns (core/documents/doc-columns.ts; fingerprint halves 0 unless status is ok, content hash 0 for
 * binary, empty, unreadable; `modified` optional, added for the keep rules, #22), then the rest.
 */
export interface IngestBatchResult extends DocColumns<Exclude<DocColumnName, 'modified'>>, Partial<DocColumns<'modified'>> {
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
   * With `keepBytes`: the items' bytes as one in-memory Blob made here, item i being bytes
   * `[offsets[i], offsets[i + 1])` (empty for an item sent as a `file`). One Blob per batch, because
   * the saved corpus keeps one record per batch (Chromium writes a file per stored Blob). Why not store
   * the scan's Files: storing (or posting) a File from a folder input makes Chromium fetch its metadata
   * with a synchronous IPC on the main thread (150-300 us per file, long tasks under load).
   */
  contents?: BatchContents;
  /**
   * With `keepSets`: the feature set of every document fingerprinted here, encoded
   * (core/groups/feature-set-codec.ts), so verification needs no second read (`docs` are batch indexes).
   */
  kept?: KeptSets;
  /** With `spillSets` (the CLI): the kept sets as written to the thread's spill file instead (`kept` is then absent). */
  spilled?: SpilledBatch;
  /**
   * With `passages`: the sampled passages (core/groups/contained-pairs.ts samplePassages) of every
   * document fingerprinted here, for the containment search (`docs` are batch indexes).
   */
  passages?: PackedSets;
  /**
   * Each item's MinHash sketch (core/groups/minhash-sketch.ts), SKETCH_BINS entries per item in batch
   * order; all 0 for an item not fingerprinted here (skipped, a copy, a text this worker had seen).
   */
  sketches: Uint16Array;
  /**
   * With `setSizes`: each item's feature-set size (distinct keys), 0 for an item not fingerprinted here:
   * verification's exact size bound for documents whose sets are not kept.
   */
  setSizes?: Uint32Array;
  /** With `returnInput`: the buffer the items' bytes were views of, transferred back to be reused. */
  input?: ArrayBuffer;
}

/**
 * A batch read through directory handles (`ingestHandles`): the batch result, plus, with `keepBytes`,
 * the File the worker opened for each item whose bytes are not in `contents` (a large one), so the
 * saved corpus can keep it; null for the others (the page opens a document again by its path when a
 * view needs it: posting every File back cost more than reading it).
 */
export interface HandleBatchResult extends IngestBatchResult {
  files: Array<File | null>;
}

/** A batch's bytes in one Blob: item i is `[offsets[i], offsets[i + 1])`. */
export interface BatchContents {
  blob: Blob;
  offsets: Uint32Array;
}

/** Per-batch options of `ingestBatch`. */
export interface IngestBatchOptions {
  /** The scan's shared claim set (see claimed-hashes.ts); without it, copies are found per worker only. */
  claims?: SharedArrayBuffer;
  limits?: IngestLimits;
  /**
   * Return the items' bytes as one Blob (`IngestBatchResult.contents`), for keeping file contents: an
   * item sent as bytes, and an item sent as a file up to `readAheadBytes` that this worker reads, while
   * the batch's Blob stays under `keepBytesBudget` (a file past it is left out, as a large one is).
   */
  keepBytes?: boolean;
  /** Return the encoded feature set of each document fingerprinted (`IngestBatchResult.kept`). */
  keepSets?: boolean;
  /**
   * With `keepSets`, the CLI's threads only: write the sets to this thread's spill file and return where
   * (`IngestBatchResult.spilled`), so the main thread holds a few numbers a document instead of its set.
   */
  spillSets?: boolean;
  /**
   * With `keepSets` (not `spillSets`): the kept sets' words in a SharedArrayBuffer, so a verification
   * or containment job names them (`SharedSets`) instead of the page's thread copying them into it.
   */
  shareSets?: boolean;
  /** Return each fingerprinted document's feature-set size (`IngestBatchResult.setSizes`), kept set or not. */
  setSizes?: boolean;
  /** Return the sampled passages of each document fingerprinted (`IngestBatchResult.passages`): containment is searched. */
  passages?: boolean;
  /** The items' bytes are views of one buffer the page reads into again: send it back (`IngestBatchResult.input`). */
  returnInput?: boolean;
}

/** Tunables of the ingest worker; tests shrink them. */
export interface IngestLimits {
  /** Files larger than this are skipped as too large (never fingerprinted in part). */
  maxBytes: number;
  /** Files up to this size are read ahead (a few at a time); larger ones one by one. */
  readAheadBytes: number;
  /** How many files of a batch are read ahead while earlier ones are hashed (reads are I/O-bound). */
  readAhead: number;
  /** With `keepBytes`, the most bytes of files a worker read itself that go into a batch's contents Blob (default 32 MB). */
  keepBytesBudget?: number;
}

export const DEFAULT_INGEST_LIMITS: IngestLimits = {
  maxBytes: MAX_DOCUMENT_BYTES,
  readAheadBytes: 16 * 1024 * 1024,
  readAhead: 16,
  keepBytesBudget: 32 * 1024 * 1024,
};

/**
 * Documents with fewer words than this have their feature set returned with the batch (see
 * `IngestBatchResult.sets`): every short document (< SHORT_DOCUMENT_WORDS words) and the slightly
 * longer ones the short-document join may pair with them at a threshold down to 0.25.
 */
export const SMALL_SET_WORDS = 200;

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
