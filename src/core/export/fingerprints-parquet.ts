/**
 * The fingerprint export as Apache Parquet: one row per document (path, 64-bit fingerprint and its
 * hex form, content hash, word count, status) with the SimHash settings in the file's key/value
 * metadata, so DuckDB, Spark or Trino can read SimSift's fingerprints without SimSift.
 *
 * The file is written by hyparquet-writer (pure JavaScript, no WASM or Node API), so the same code
 * runs in the app and in the CLI. Schema, in the order of the columns:
 *
 * | column          | Parquet type                      | null when                          |
 * | --------------- | --------------------------------- | ---------------------------------- |
 * | path            | BYTE_ARRAY (UTF8), required       | never                              |
 * | fingerprint     | INT64 (UINT_64), optional         | status is not `ok`                 |
 * | fingerprint_hex | BYTE_ARRAY (UTF8), optional       | status is not `ok`                 |
 * | content_hash    | INT64 (UINT_64), optional         | no text was decoded                |
 * | word_count      | INT32 (UINT_32), required         | never (0 without text)             |
 * | status          | BYTE_ARRAY (UTF8), required       | never                              |
 * | format          | BYTE_ARRAY (UTF8), optional       | not recorded (a restored corpus)   |
 *
 * The unsigned columns carry the UINT_64 converted type only, not also the newer
 * LogicalType INTEGER(64, false): hyparquet-writer 0.17 writes that struct's bitWidth as a thrift
 * i32 instead of an i8, which DuckDB rejects as invalid metadata ("TProtocolException: Invalid
 * data"). Readers map UINT_64 to an unsigned 64-bit integer (DuckDB: UBIGINT; Spark and Trino,
 * which have no unsigned type: DECIMAL(20,0)).
 */
import { DOC_STATUS_NAME, DocStatus, type DocStatusCode, type DocStatusName } from '../documents/document-status.ts';
import type { DocumentFormat } from '../text/document-format.ts';
import type { DocColumnName, DocColumns } from '../documents/doc-columns.ts';
import { ByteWriter, ParquetWriter, type Writer } from 'hyparquet-writer';
import { formatFeatureSpec, parseFeatureSpec, parseWeightScheme, type SimHashSettings } from '../simhash/settings.ts';

/** What became of a document, as the `status` column spells it (a copy is named for its original's status). */
export type FingerprintStatus = Exclude<DocStatusName, 'copy'>;

/** The `status` column's word for a document's status code (a copy carries its original's: ok or too short). */
export function fingerprintStatusOf(code: number, representative: number): FingerprintStatus {
  if (code === DocStatus.copy) return representative >= 0 ? 'ok' : 'too-short';
  const name = DOC_STATUS_NAME[code as DocStatusCode] as FingerprintStatus | undefined;
  return name ?? 'pending';
}

/** Statuses whose text was decoded, so the row has a content hash. */
const HAS_CONTENT_HASH: ReadonlySet<FingerprintStatus> = new Set(['ok', 'too-short']);

/** Key/value metadata keys, all under `simsift.`. */
export const PARQUET_METADATA_KEYS = {
  version: 'simsift.version',
  features: 'simsift.features',
  weights: 'simsift.weights',
  stopWords: 'simsift.stop_words',
  k: 'simsift.k',
  fingerprint: 'simsift.fingerprint',
  contentHash: 'simsift.content_hash',
} as const;

/** What the file's metadata records about how the fingerprints were made. */
export interface FingerprintExportMeta {
  settings: SimHashSettings;
  /** The Hamming radius the fingerprints were searched with, when there was a search (the app). */
  k?: number;
  /** SimSift's version (`SIMSIFT_VERSION`). */
  version: string;
}

/** The document columns a batch of rows carries (core/documents/doc-columns.ts). */
export const FINGERPRINT_ROW_COLUMNS = ['hi', 'lo', 'hashHi', 'hashLo', 'words'] as const satisfies readonly DocColumnName[];

/**
 * A batch of rows as plain columns, one entry per document. `hi`/`lo` are read only where
 * `status` is `ok`, `hashHi`/`hashLo` (the Parquet `content_hash`) only where it is `ok` or `too-short`.
 */
export interface FingerprintRows extends DocColumns<(typeof FINGERPRINT_ROW_COLUMNS)[number]> {
  paths: readonly string[];
  status: readonly FingerprintStatus[];
  /** Each document's format (text, html, pdf, docx, odt, epub, rtf); null (or absent) when not recorded. */
  formats?: readonly (DocumentFormat | null)[];
}

/** Writes rows batch by batch and hands the file's bytes out in order as they are produced. */
export interface FingerprintParquetWriter {
  /** Appends a batch as one row group (an empty batch writes nothing). */
  write(rows: FingerprintRows): void;
  /** Writes the footer; no write after it. */
  finish(): void;
  /** Rows written so far. */
  readonly rows: number;
}

const SCHEMA = [
  { name: 'root', num_children: 7 },
  { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'fingerprint', type: 'INT64', converted_type: 'UINT_64', repetition_type: 'OPTIONAL' },
  { name: 'fingerprint_hex', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'content_hash', type: 'INT64', converted_type: 'UINT_64', repetition_type: 'OPTIONAL' },
  { name: 'word_count', type: 'INT32', converted_type: 'UINT_32', repetition_type: 'REQUIRED' },
  { name: 'status', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  // Last, so readers that address columns by position keep the six before it.
  { name: 'format', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
] as const;

/** The key/value metadata for `meta`. */
export function fingerprintMetadata(meta: FingerprintExportMeta): { key: string; value: string }[] {
  const K = PARQUET_METADATA_KEYS;
  const kv: { key: string; value: string }[] = [
    { key: K.version, value: meta.version },
    { key: K.features, value: formatFeatureSpec(meta.settings.features) },
    { key: K.weights, value: meta.settings.weights },
    { key: K.stopWords, value: String(meta.settings.stopWords) },
    { key: K.fingerprint, value: 'simhash64: bit i set iff the weighted sum of feature hashes (XXH64, seed 0) for bit i is > 0' },
    { key: K.contentHash, value: 'XXH64, seed 0, of the normalized text (UTF-8); seeded by the XXH64 of the raw bytes when the decode replaced damaged bytes' },
  ];
  if (meta.k !== undefined) kv.splice(4, 0, { key: K.k, value: String(meta.k) });
  return kv;
}

/**
 * The settings and k a file's key/value metadata records (the fingerprint export's, or a pairs
 * file's, see pairs-parquet.ts): settings only when features, weights and stop words are all there
 * and readable; k only when it is an integer in 0..64.
 */
export function recordedSettings(kv: ReadonlyArray<{ key: string; value?: string }>): { settings?: SimHashSettings; k?: number } {
  const K = PARQUET_METADATA_KEYS;
  const get = (key: string) => kv.find((e) => e.key === key)?.value;
  const out: { settings?: SimHashSettings; k?: number } = {};
  const features = parseFeatureSpec(get(K.features) ?? '');
  const weights = parseWeightScheme(get(K.weights) ?? '');
  const stopWords = get(K.stopWords);
  if (features && weights && (stopWords === 'true' || stopWords === 'false')) out.settings = { features, weights, stopWords: stopWords === 'true' };
  const k = get(K.k);
  if (k !== undefined && /^\d{1,2}$/.test(k) && Number(k) <= 64) out.k = Number(k);
  return out;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function hex32(x: number): string {
  return HEX[x >>> 24] + HEX[(x >>> 16) & 255] + HEX[(x >>> 8) & 255] + HEX[x & 255];
}

function u64(hi: number, lo: number): bigint {
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

/**
 * A hyparquet-writer ParquetWriter that hands out the file's bytes as they are encoded (after each
 * row group and at the end: a fresh Uint8Array each time, safe to keep), so nobody holds the file
 * twice. Shared by the fingerprint export and the pairs file (pairs-parquet.ts).
 */
export function streamingParquetWriter(
  schema: ReadonlyArray<object>,
  kvMetadata: { key: string; value: string }[],
  version: string,
  onBytes: (chunk: Uint8Array) => void,
): ParquetWriter {
  const bytes: ByteWriter & Pick<Writer, 'flush'> = new ByteWriter();
  // Hand out what has been encoded and start the buffer over.
  const drain = () => {
    if (bytes.index > 0) onBytes(bytes.getBytes().slice());
    bytes.index = 0;
  };
  bytes.flush = drain;
  bytes.finish = drain;
  return new ParquetWriter({
    writer: bytes,
    schema: schema.map((e) => ({ ...e })) as ConstructorParameters<typeof ParquetWriter>[0]['schema'],
    kvMetadata,
    createdBy: `simsift version ${version}`,
  });
}

/**
 * A streaming writer: each `write` encodes one row group and passes the new bytes to `onBytes`
 * (a fresh Uint8Array each time, safe to keep), so a caller never holds the file twice.
 */
export function createFingerprintParquetWriter(
  meta: FingerprintExportMeta,
  onBytes: (chunk: Uint8Array) => void,
): FingerprintParquetWriter {
  const writer = streamingParquetWriter(SCHEMA, fingerprintMetadata(meta), meta.version, onBytes);
  let rows = 0;
  let finished = false;
  return {
    get rows() {
      return rows;
    },
    write(batch: FingerprintRows) {
      if (finished) throw new Error('the Parquet writer is finished');
      const n = batch.paths.length;
      for (const column of [batch.status, ...FINGERPRINT_ROW_COLUMNS.map((c) => batch[c])]) {
        if (column.length < n) throw new RangeError(`every column needs ${n} entries (one per path)`);
      }
      if (n === 0) return;
      const fingerprint: (bigint | null)[] = new Array(n);
      const hex: (string | null)[] = new Array(n);
      const content: (bigint | null)[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const status = batch.status[i];
        if (status === 'ok') {
          fingerprint[i] = u64(batch.hi[i], batch.lo[i]);
          hex[i] = hex32(batch.hi[i]) + hex32(batch.lo[i]);
        } else {
          fingerprint[i] = null;
          hex[i] = null;
        }
        content[i] = HAS_CONTENT_HASH.has(status) ? u64(batch.hashHi[i], batch.hashLo[i]) : null;
      }
      writer.write({
        columnData: [
          // Paths, fingerprints and hashes are (nearly) all distinct: a dictionary would only cost time.
          { name: 'path', data: batch.paths.slice(0, n), encoding: 'PLAIN' },
          { name: 'fingerprint', data: fingerprint, encoding: 'PLAIN' },
          { name: 'fingerprint_hex', data: hex, encoding: 'PLAIN' },
          { name: 'content_hash', data: content, encoding: 'PLAIN' },
          { name: 'word_count', data: batch.words.subarray(0, n) },
          { name: 'status', data: batch.status.slice(0, n) },
          { name: 'format', data: Array.from({ length: n }, (_, i) => batch.formats?.[i] ?? null) },
        ],
        rowGroupSize: n,
      });
      rows += n;
    },
    finish() {
      if (finished) return;
      finished = true;
      writer.finish();
    },
  };
}

/** The whole file for `rows` at once (small exports, tests). */
export function fingerprintsParquet(rows: FingerprintRows, meta: FingerprintExportMeta): Uint8Array {
  const chunks: Uint8Array[] = [];
  const writer = createFingerprintParquetWriter(meta, (chunk) => chunks.push(chunk));
  writer.write(rows);
  writer.finish();
  return concatBytes(chunks);
}

/** The chunks end to end. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
