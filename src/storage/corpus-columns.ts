/**
 * The column-wise form of the corpus: every document field as one packed column, and the conversion
 * between documents, in-memory columns and corpus chunk records (validated on the way in).
 */
import { halvesToKeyBytes } from './key-codec.ts';
import { StorageError } from './storage-error.ts';
import { toHex } from '../core/simhash/fingerprint64.ts';
import { allocateDocColumns, type DocColumnName } from '../core/documents/doc-columns.ts';
import { SKETCH_BINS } from '../core/groups/minhash-sketch.ts';

/** Why a document has no fingerprint. */
export type DocumentStatus = 'ok' | 'too-short' | 'skipped';

/**
 * Up to CHUNK_CAPACITY documents, column-wise, in ascending id order: a restore reads a few dozen big
 * buffers instead of a million records. Keyed by the first id the chunk was created with. Fingerprints
 * and content hashes are 8-byte big-endian values from the key codec; other numeric columns are
 * typed-array buffers in platform (little-endian) byte order.
 */
export interface CorpusChunkRecord {
  chunk: number;
  count: number;
  /** Uint32 document ids, ascending. */
  ids: ArrayBuffer;
  /** 8 bytes per document (zero unless the status is 'ok'). */
  fingerprints: ArrayBuffer;
  /** Uint8 DOC_FLAG_* bits (corpus-columns.ts). */
  flags: ArrayBuffer;
  /** The paths joined with NUL, which no file name contains. */
  paths: string;
  /** 8 bytes per document: the scan's XXH64 content hash (valid when DOC_FLAG_HAS_CONTENT_HASH). */
  contentHashes: ArrayBuffer;
  /** Float64 sizes in bytes. */
  sizes: ArrayBuffer;
  /** Float64 File.lastModified. */
  lastModified: ArrayBuffer;
  /** Uint32 word counts. */
  words: ArrayBuffer;
  /** Uint32 feature counts. */
  features: ArrayBuffer;
  /** Uint32 id of the earlier document with the same bytes (valid when DOC_FLAG_EXACT_DUPLICATE). */
  duplicateOf: ArrayBuffer;
  /** JSON array of [id, reason, message] for the skipped documents of this chunk. */
  skips: string;
  /**
   * Uint32 feature-set sizes (distinct keys; 0: not known), so verification's size bound decides a pair
   * with a saved document without reading it. Absent in chunks written before schema v4: all unknown.
   */
  setSizes?: ArrayBuffer;
  /** Uint16 MinHash sketches, SKETCH_BINS per document (core/groups/minhash-sketch.ts; all 0: not known). Absent before v4. */
  sketches?: ArrayBuffer;
}

/** Bits of the flags column. */
export const DOC_FLAG_TOO_SHORT = 1;
export const DOC_FLAG_SKIPPED = 2;
export const DOC_FLAG_EXACT_DUPLICATE = 4;
export const DOC_FLAG_HAS_CONTENT_HASH = 8;

/** A document as the scan hands it over (fingerprint as halves; storage encodes it). */
export interface NewDocument {
  /** Given by the scan from `nextId` upward, ascending within a batch; never reused. */
  id: number;
  /** Path relative to the dropped folder. */
  path: string;
  size: number;
  /** File.lastModified (stat mtime in the CLI), ms since the epoch; 0 when not recorded. */
  lastModified: number;
  /** The scan's XXH64 content hash (e.g. of the normalized text) as 16 lowercase hex digits, or null. */
  contentHash: string | null;
  status: DocumentStatus;
  /** Fingerprint halves; ignored unless status is 'ok'. */
  hi: number;
  lo: number;
  words: number;
  features: number;
  /** Machine-readable reason (e.g. 'binary', 'too-large', 'empty') when skipped. */
  skipReason?: string;
  /** The message shown to the person when skipped. */
  skipMessage?: string;
  /** Id of an earlier document with the same bytes. */
  duplicateOf?: number;
  /** Its feature set's size (distinct keys) under the stored settings; absent or 0: not known. */
  setSize?: number;
  /** Its MinHash sketch (SKETCH_BINS entries); absent: not known. */
  sketch?: Uint16Array;
}

/** A stored document as read back (same fields; hi/lo are 0 unless status is 'ok'). */
export type StoredDocument = NewDocument;

/** Bytes per document of each binary column. */
const WIDTHS = {
  ids: 4,
  fingerprints: 8,
  flags: 1,
  contentHashes: 8,
  sizes: 8,
  lastModified: 8,
  words: 4,
  features: 4,
  duplicateOf: 4,
  setSizes: 4,
  sketches: 2 * SKETCH_BINS,
} as const;
type BinaryColumn = keyof typeof WIDTHS;
const BINARY_COLUMNS = Object.keys(WIDTHS) as BinaryColumn[];
/** Columns a chunk written before schema v4 lacks (read as zeros: not known). */
const SINCE_V4: ReadonlySet<BinaryColumn> = new Set(['setSizes', 'sketches']);

/**
 * The chunk fields that hold a core document column (core/documents/doc-columns.ts) as a little-endian
 * typed array of its kind, by column: the stored names stay as version 2 wrote them (`lastModified` is
 * the `modified` column). Fingerprints and content hashes are stored as key bytes (`fingerprints`,
 * `contentHashes`: hi/lo and hashHi/hashLo through the key codec).
 */
/** The document columns a saved corpus keeps besides `modified` (which older loaders may lack). */
export const LOADED_COLUMNS = ['sizes', 'hi', 'lo', 'words', 'hashHi', 'hashLo'] as const satisfies readonly DocColumnName[];

export const CHUNK_FIELD_OF = { sizes: 'sizes', modified: 'lastModified', words: 'words' } as const satisfies Partial<Record<DocColumnName, BinaryColumn>>;

/** [id, reason, message] of a skipped document; kept apart because few documents have one. */
type SkipEntry = [number, string, string];

/** Documents column-wise in memory. Binary columns are byte views (typed views made on demand). */
export interface Columns {
  count: number;
  bin: Record<BinaryColumn, Uint8Array>;
  paths: string[];
  skips: SkipEntry[];
}

/** Packs documents into columns (validated: ascending uint32 ids, no NUL in paths, hex hashes). */
export function columnsFromDocuments(docs: readonly NewDocument[]): Columns {
  const n = docs.length;
  const ids = new Uint32Array(n);
  const cols = allocateDocColumns([...LOADED_COLUMNS, 'modified'], n);
  const { hi, lo, hashHi, hashLo } = cols;
  const flags = new Uint8Array(n);
  const features = new Uint32Array(n);
  const duplicateOf = new Uint32Array(n);
  const setSizes = new Uint32Array(n);
  const sketches = new Uint16Array(n * SKETCH_BINS);
  const skips: SkipEntry[] = [];
  let previous = -1;
  docs.forEach((d, i) => {
    if (!Number.isInteger(d.id) || d.id < 0 || d.id > 0xffffffff || d.id <= previous) {
      throw new StorageError('invalid-input', `ids must be ascending uint32 (got ${d.id} after ${previous})`);
    }
    previous = d.id;
    if (typeof d.path !== 'string' || d.path.includes('\0')) {
      throw new StorageError('invalid-input', `path of document ${d.id} is not a string without NUL`);
    }
    if (d.status !== 'ok' && d.status !== 'too-short' && d.status !== 'skipped') {
      throw new StorageError('invalid-input', `status ${String(d.status)}`);
    }
    if (d.contentHash !== null && !/^[0-9a-f]{16}$/.test(d.contentHash)) {
      throw new StorageError('invalid-input', `content hash of document ${d.id} is not 16 lowercase hex digits`);
    }
    ids[i] = d.id;
    if (d.status === 'ok') {
      hi[i] = d.hi;
      lo[i] = d.lo;
    }
    if (d.contentHash !== null) {
      hashHi[i] = parseInt(d.contentHash.slice(0, 8), 16);
      hashLo[i] = parseInt(d.contentHash.slice(8), 16);
    }
    flags[i] =
      (d.status === 'too-short' ? DOC_FLAG_TOO_SHORT : 0) |
      (d.status === 'skipped' ? DOC_FLAG_SKIPPED : 0) |
      (d.duplicateOf !== undefined ? DOC_FLAG_EXACT_DUPLICATE : 0) |
      (d.contentHash !== null ? DOC_FLAG_HAS_CONTENT_HASH : 0);
    cols.sizes[i] = d.size;
    cols.modified[i] = d.lastModified;
    cols.words[i] = d.words;
    features[i] = d.features;
    duplicateOf[i] = d.duplicateOf ?? 0;
    setSizes[i] = d.setSize ?? 0;
    if (d.sketch) {
      if (d.sketch.length !== SKETCH_BINS) throw new StorageError('invalid-input', `sketch of document ${d.id} has ${d.sketch.length} entries`);
      sketches.set(d.sketch, i * SKETCH_BINS);
    }
    if (d.status === 'skipped' || d.skipReason !== undefined || d.skipMessage !== undefined) {
      skips.push([d.id, d.skipReason ?? '', d.skipMessage ?? '']);
    }
  });
  return {
    count: n,
    bin: {
      ids: bytes(ids),
      fingerprints: new Uint8Array(halvesToKeyBytes(hi, lo)),
      flags,
      contentHashes: new Uint8Array(halvesToKeyBytes(hashHi, hashLo)),
      ...(Object.fromEntries(Object.entries(CHUNK_FIELD_OF).map(([c, field]) => [field, bytes(cols[c as keyof typeof CHUNK_FIELD_OF])])) as Record<(typeof CHUNK_FIELD_OF)[keyof typeof CHUNK_FIELD_OF], Uint8Array>),
      features: bytes(features),
      duplicateOf: bytes(duplicateOf),
      setSizes: bytes(setSizes),
      sketches: bytes(sketches),
    },
    paths: docs.map((d) => d.path),
    skips,
  };
}

/** The chunk record for columns (exactly-sized buffers), keyed `chunk`. */
export function chunkFromColumns(chunk: number, cols: Columns): CorpusChunkRecord {
  // A column that is its whole buffer goes as it is (the put clones it at once); a view is copied out.
  const buffer = (c: BinaryColumn): ArrayBuffer => {
    const view = cols.bin[c];
    return view.buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? view.buffer : view.slice().buffer;
  };
  return {
    chunk,
    count: cols.count,
    ids: buffer('ids'),
    fingerprints: buffer('fingerprints'),
    flags: buffer('flags'),
    paths: cols.paths.join('\0'),
    contentHashes: buffer('contentHashes'),
    sizes: buffer('sizes'),
    lastModified: buffer('lastModified'),
    words: buffer('words'),
    features: buffer('features'),
    duplicateOf: buffer('duplicateOf'),
    skips: JSON.stringify(cols.skips),
    setSizes: buffer('setSizes'),
    sketches: buffer('sketches'),
  };
}

/** Checks a chunk record's shape; throws StorageError 'corrupt' when damaged. */
export function checkChunk(record: CorpusChunkRecord): CorpusChunkRecord {
  const n = record?.count;
  const ok =
    Number.isInteger(n) &&
    n >= 0 &&
    Number.isInteger(record.chunk) &&
    typeof record.paths === 'string' &&
    typeof record.skips === 'string' &&
    BINARY_COLUMNS.every((c) => (record[c] === undefined && SINCE_V4.has(c)) || (record[c] instanceof ArrayBuffer && record[c].byteLength === n * WIDTHS[c]));
  if (!ok) throw new StorageError('corrupt', `corpus chunk ${String(record?.chunk)}`);
  return record;
}

/** Unpacks a chunk record into columns (validated). */
export function columnsFromChunk(record: CorpusChunkRecord): Columns {
  checkChunk(record);
  const paths = record.count === 0 ? [] : record.paths.split('\0');
  if (paths.length !== record.count) throw new StorageError('corrupt', `paths of chunk ${record.chunk}`);
  let skips: SkipEntry[];
  try {
    skips = JSON.parse(record.skips) as SkipEntry[];
  } catch {
    throw new StorageError('corrupt', `skip notes of chunk ${record.chunk}`);
  }
  if (!Array.isArray(skips)) throw new StorageError('corrupt', `skip notes of chunk ${record.chunk}`);
  const bin = {} as Record<BinaryColumn, Uint8Array>;
  // A chunk from before v4 knows no set sizes or sketches: zeros, which read as "not known".
  for (const c of BINARY_COLUMNS) bin[c] = record[c] ? new Uint8Array(record[c]) : new Uint8Array(record.count * WIDTHS[c]);
  return { count: record.count, bin, paths, skips };
}

/** The parts one after another (each column copied once). */
export function concatColumns(...parts: Columns[]): Columns {
  const bin = {} as Record<BinaryColumn, Uint8Array>;
  for (const c of BINARY_COLUMNS) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.bin[c].length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p.bin[c], at);
      at += p.bin[c].length;
    }
    bin[c] = out;
  }
  return {
    count: parts.reduce((n, p) => n + p.count, 0),
    bin,
    paths: parts.flatMap((p) => p.paths),
    skips: parts.flatMap((p) => p.skips),
  };
}

/** Documents [from, to). */
export function sliceColumns(cols: Columns, from: number, to: number): Columns {
  const bin = {} as Record<BinaryColumn, Uint8Array>;
  for (const c of BINARY_COLUMNS) bin[c] = cols.bin[c].subarray(from * WIDTHS[c], to * WIDTHS[c]);
  const ids = idsOf(cols);
  const kept = new Set(Array.from(ids.subarray(from, to)));
  return { count: to - from, bin, paths: cols.paths.slice(from, to), skips: cols.skips.filter((s) => kept.has(s[0])) };
}

/** The documents whose ids are not in `removed`. */
export function withoutIds(cols: Columns, removed: ReadonlySet<number>): Columns {
  const ids = idsOf(cols);
  const keep: number[] = [];
  for (let i = 0; i < cols.count; i++) if (!removed.has(ids[i]!)) keep.push(i);
  const bin = {} as Record<BinaryColumn, Uint8Array>;
  for (const c of BINARY_COLUMNS) {
    const w = WIDTHS[c];
    const src = cols.bin[c];
    const out = new Uint8Array(keep.length * w);
    keep.forEach((from, to) => out.set(src.subarray(from * w, from * w + w), to * w));
    bin[c] = out;
  }
  return {
    count: keep.length,
    bin,
    paths: keep.map((i) => cols.paths[i]!),
    skips: cols.skips.filter((s) => !removed.has(s[0])),
  };
}

/** Sets the modification time of the documents `times` names (id -> ms) in place; returns whether any was here. */
export function setModifiedTimes(cols: Columns, times: ReadonlyMap<number, number>): boolean {
  const ids = idsOf(cols);
  const column = new DataView(cols.bin.lastModified.buffer, cols.bin.lastModified.byteOffset, cols.bin.lastModified.byteLength);
  let changed = false;
  for (let i = 0; i < cols.count; i++) {
    const time = times.get(ids[i]!);
    if (time === undefined) continue;
    column.setFloat64(i * 8, time, true);
    changed = true;
  }
  return changed;
}

/** The ids column as numbers (copied when the bytes are not 4-aligned). */
export function idsOf(cols: Columns): Uint32Array {
  return view32(cols.bin.ids);
}

/** Document i of the columns. */
export function documentAt(cols: Columns, i: number): StoredDocument {
  const id = view32(cols.bin.ids)[i]!;
  const flags = cols.bin.flags[i]!;
  const fp = new DataView(cols.bin.fingerprints.buffer, cols.bin.fingerprints.byteOffset + i * 8, 8);
  const hash = new DataView(cols.bin.contentHashes.buffer, cols.bin.contentHashes.byteOffset + i * 8, 8);
  const f64 = (c: 'sizes' | 'lastModified'): number =>
    new DataView(cols.bin[c].buffer, cols.bin[c].byteOffset + i * 8, 8).getFloat64(0, true);
  const u32 = (c: 'words' | 'features' | 'duplicateOf' | 'setSizes'): number =>
    new DataView(cols.bin[c].buffer, cols.bin[c].byteOffset + i * 4, 4).getUint32(0, true);
  const status: DocumentStatus =
    flags & DOC_FLAG_SKIPPED ? 'skipped' : flags & DOC_FLAG_TOO_SHORT ? 'too-short' : 'ok';
  const doc: StoredDocument = {
    id,
    path: cols.paths[i]!,
    size: f64('sizes'),
    lastModified: f64('lastModified'),
    contentHash:
      flags & DOC_FLAG_HAS_CONTENT_HASH
        ? toHex(hash.getUint32(0, false), hash.getUint32(4, false))
        : null,
    status,
    hi: fp.getUint32(0, false),
    lo: fp.getUint32(4, false),
    words: u32('words'),
    features: u32('features'),
  };
  const skip = cols.skips.find((s) => s[0] === id);
  if (skip) {
    doc.skipReason = skip[1];
    doc.skipMessage = skip[2];
  }
  if (flags & DOC_FLAG_EXACT_DUPLICATE) doc.duplicateOf = u32('duplicateOf');
  const setSize = u32('setSizes');
  if (setSize > 0) doc.setSize = setSize;
  const sketch = new Uint16Array(cols.bin.sketches.slice(i * WIDTHS.sketches, (i + 1) * WIDTHS.sketches).buffer);
  if (sketch.some((v) => v !== 0)) doc.sketch = sketch;
  return doc;
}

function bytes(view: Uint32Array | Uint16Array | Float64Array): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function view32(b: Uint8Array): Uint32Array {
  return b.byteOffset % 4 === 0 ? new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4) : new Uint32Array(b.slice().buffer);
}
