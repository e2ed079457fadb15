/**
 * The per-document columns, declared once: each column's one name and typed-array kind, and the
 * generic allocate, gather, concat, scatter and transfer over them. Every per-document type (a scan's
 * documents, a batch's result, the index worker's input, the fingerprint rows, the loaded corpus)
 * picks its columns from this table; stored formats keep their own field names and map them where
 * they are read and written. A new column is one line here.
 */

/** Column name -> element kind. Positions are indexes 0..count-1 of whatever holds the columns. */
export const DOC_COLUMN_KINDS = {
  /** Size in bytes. */
  sizes: 'f64',
  /** Modification time (File.lastModified, stat mtime in the CLI), ms since the epoch; 0 when not known. */
  modified: 'f64',
  /** `DocStatus` code (core/documents/document-status.ts). */
  status: 'u8',
  /** `DocFlag` bits. */
  flags: 'u8',
  /** Fingerprint halves (bits 63..32, 31..0); meaningful where the status is ok. */
  hi: 'u32',
  lo: 'u32',
  /** Word tokens in the decoded text. */
  words: 'u32',
  /** XXH64 (seed 0) of the normalized text, halves; 0 where nothing was decoded. */
  hashHi: 'u32',
  hashLo: 'u32',
} as const;

/** Every column's name, in table order. */
export type DocColumnName = keyof typeof DOC_COLUMN_KINDS;

interface KindArrays {
  f64: Float64Array;
  u32: Uint32Array;
  u8: Uint8Array;
}
const KIND_CONSTRUCTORS = { f64: Float64Array, u32: Uint32Array, u8: Uint8Array } as const;

/** The typed array column `C` is held in. */
export type DocColumn<C extends DocColumnName> = KindArrays[(typeof DOC_COLUMN_KINDS)[C]];

/** Columns `K` (all by default), each a typed array of one entry per document. */
export type DocColumns<K extends DocColumnName = DocColumnName> = { [C in K]: DocColumn<C> };

/** Every column name, in table order. */
export const DOC_COLUMN_NAMES = Object.keys(DOC_COLUMN_KINDS) as DocColumnName[];

/** The columns a fingerprinted document is described by (no size or time): what the search and the exports read. */
export const FINGERPRINT_COLUMNS = ['status', 'flags', 'hi', 'lo', 'words', 'hashHi', 'hashLo'] as const satisfies readonly DocColumnName[];
export type FingerprintColumnName = (typeof FINGERPRINT_COLUMNS)[number];

/** The columns the near-duplicate search reads (exact classes by hash, candidates by fingerprint, short documents by words). */
export const SEARCH_COLUMNS = ['status', 'hi', 'lo', 'words', 'hashHi', 'hashLo'] as const satisfies readonly DocColumnName[];
export type SearchColumnName = (typeof SEARCH_COLUMNS)[number];

/** The typed-array constructor of column `c`. */
export function docColumnConstructor(c: DocColumnName): Float64ArrayConstructor | Uint32ArrayConstructor | Uint8ArrayConstructor {
  return KIND_CONSTRUCTORS[DOC_COLUMN_KINDS[c]];
}

/** Bytes per entry of column `c`. */
export function docColumnBytes(c: DocColumnName): number {
  return KIND_CONSTRUCTORS[DOC_COLUMN_KINDS[c]].BYTES_PER_ELEMENT;
}

/** A zeroed column `c` of `n` entries (a view of `buffer` at `offset` when given). */
export function allocateDocColumn<C extends DocColumnName>(c: C, n: number, buffer?: ArrayBuffer, offset = 0): DocColumn<C> {
  const make = KIND_CONSTRUCTORS[DOC_COLUMN_KINDS[c]];
  return (buffer ? new make(buffer, offset, n) : new make(n)) as DocColumn<C>;
}

/**
 * Zeroed columns `names` for `n` documents. With `oneBuffer`, all are views of one ArrayBuffer (one
 * allocation, one transfer: a worker's batch result), widest first so every view is aligned.
 */
export function allocateDocColumns<K extends DocColumnName>(names: readonly K[], n: number, oneBuffer = false): DocColumns<K> {
  const out = {} as DocColumns<K>;
  if (!oneBuffer) {
    for (const c of names) out[c] = allocateDocColumn(c, n);
    return out;
  }
  const widest = [...names].sort((x, y) => docColumnBytes(y) - docColumnBytes(x));
  const buffer = new ArrayBuffer(widest.reduce((bytes, c) => bytes + n * docColumnBytes(c), 0));
  let at = 0;
  for (const c of widest) {
    out[c] = allocateDocColumn(c, n, buffer, at);
    at += n * docColumnBytes(c);
  }
  return out;
}

/** Columns `names` of `cols` at positions `at`, in that order (fresh arrays). */
export function gatherDocColumns<K extends DocColumnName>(cols: DocColumns<K>, names: readonly K[], at: ArrayLike<number>): DocColumns<K> {
  const n = at.length;
  const out = allocateDocColumns(names, n);
  const runs = consecutiveRuns(at);
  for (const c of names) {
    const from = cols[c];
    const to = out[c];
    if (runs && runs.end <= from.length) {
      for (let r = 0; r < runs.starts.length; r += 3) to.set(from.subarray(runs.starts[r + 1]!, runs.starts[r + 1]! + runs.starts[r + 2]!), runs.starts[r]!);
    } else for (let i = 0; i < n; i++) to[i] = from[at[i]!]!;
  }
  return out;
}

/**
 * `at` as runs of consecutive positions (out start, from start, length, ...), when they are long: a
 * merge keeps nearly every document in order (a cached scan gathers 100,000 documents with 10 changed),
 * and a run is copied whole. Null when runs are short (the gather goes position by position).
 */
function consecutiveRuns(at: ArrayLike<number>): { starts: Uint32Array; end: number } | null {
  const n = at.length;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (!(at[i]! >= 0)) return null;
    if (i === 0 || at[i] !== at[i - 1]! + 1) count++;
  }
  if (count * 16 > n) return null;
  const starts = new Uint32Array(3 * count);
  let end = 0;
  for (let i = 0, r = -3; i < n; i++) {
    if (i === 0 || at[i] !== at[i - 1]! + 1) {
      r += 3;
      starts[r] = i;
      starts[r + 1] = at[i]!;
    }
    starts[r + 2]!++;
    end = Math.max(end, at[i]! + 1);
  }
  return { starts, end };
}

/**
 * Columns `names` of the parts one after another. A part without a column (an optional one, such as
 * `modified` in older records) contributes zeros for its `count` documents.
 */
export function concatDocColumns<K extends DocColumnName>(names: readonly K[], parts: readonly (Partial<DocColumns<K>> & { count: number })[]): DocColumns<K> {
  const total = parts.reduce((n, p) => n + p.count, 0);
  const out = allocateDocColumns(names, total);
  for (const c of names) {
    let at = 0;
    for (const p of parts) {
      const from = p[c];
      if (from) (out[c] as DocColumn<DocColumnName>).set(from, at);
      at += p.count;
    }
  }
  return out;
}

/** Writes entry `j` of each of `from`'s columns `names` to position `at[j]` of `into`. */
export function scatterDocColumns<K extends DocColumnName>(into: DocColumns<K>, names: readonly K[], from: DocColumns<K>, at: ArrayLike<number>): void {
  for (const c of names) {
    const src = from[c];
    const dst = into[c];
    for (let j = 0; j < at.length; j++) dst[at[j]!] = src[j]!;
  }
}

/** Columns `names` of `cols`, the same arrays (no copy): what crosses to a worker without the rest of a record. */
export function pickDocColumns<K extends DocColumnName>(cols: DocColumns<K>, names: readonly K[]): DocColumns<K> {
  const out = {} as DocColumns<K>;
  for (const c of names) out[c] = cols[c];
  return out;
}

/** Views of columns `names` over positions [start, end) (no copy). */
export function subarrayDocColumns<K extends DocColumnName>(cols: DocColumns<K>, names: readonly K[], start: number, end: number): DocColumns<K> {
  const out = {} as DocColumns<K>;
  for (const c of names) out[c] = cols[c].subarray(start, end) as DocColumn<K>;
  return out;
}

/** The distinct buffers under columns `names` of `cols` (absent ones skipped): a transfer list. */
export function docColumnBuffers<K extends DocColumnName>(cols: Partial<DocColumns<K>>, names: readonly K[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const c of names) {
    const column = cols[c];
    if (column) buffers.add(column.buffer as ArrayBuffer);
  }
  return [...buffers];
}
