/**
 * The pairs file as Apache Parquet: what `simsift pairs --out pairs.parquet` writes and `simsift
 * scan --pairs` reads back, the same columns as the repository's SQL lists (i, j, distance, path_a,
 * path_b), so a pairs file from DuckDB or Spark's own `COPY`/`write.parquet` reads back the same way.
 * The key/value metadata records k and, when the fingerprints' file said, their settings, so a scan
 * with other settings or another k can refuse the file.
 *
 * | column   | Parquet type               |
 * | -------- | -------------------------- |
 * | i        | INT64, required            |
 * | j        | INT64, required            |
 * | distance | INT32, required            |
 * | path_a   | BYTE_ARRAY (UTF8), required|
 * | path_b   | BYTE_ARRAY (UTF8), required|
 */
import { formatFeatureSpec, type SimHashSettings } from '../simhash/settings.ts';
import { PARQUET_METADATA_KEYS, streamingParquetWriter } from './fingerprints-parquet.ts';

/** The columns a pairs file must have to be read back (i and j are only row numbers of one listing). */
export const PAIR_COLUMNS = ['path_a', 'path_b', 'distance'] as const;

/** What the pairs file's metadata records. */
export interface PairsExportMeta {
  k: number;
  /** The fingerprints' settings, when their file recorded them (the Parquet export does; text does not). */
  settings?: SimHashSettings;
  version: string;
}

/** One batch of pairs; `i`, `j` are row numbers of the fingerprints' file. */
export interface PairRows {
  i: Uint32Array;
  j: Uint32Array;
  distance: Uint8Array;
  pathA: readonly string[];
  pathB: readonly string[];
  count: number;
}

const SCHEMA = [
  { name: 'root', num_children: 5 },
  { name: 'i', type: 'INT64', repetition_type: 'REQUIRED' },
  { name: 'j', type: 'INT64', repetition_type: 'REQUIRED' },
  { name: 'distance', type: 'INT32', repetition_type: 'REQUIRED' },
  { name: 'path_a', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  { name: 'path_b', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
] as const;

/** The key/value metadata for `meta` (the fingerprint export's keys, where they mean the same). */
export function pairsMetadata(meta: PairsExportMeta): { key: string; value: string }[] {
  const K = PARQUET_METADATA_KEYS;
  const kv: { key: string; value: string }[] = [
    { key: K.version, value: meta.version },
    { key: K.k, value: String(meta.k) },
  ];
  if (meta.settings) {
    kv.push(
      { key: K.features, value: formatFeatureSpec(meta.settings.features) },
      { key: K.weights, value: meta.settings.weights },
      { key: K.stopWords, value: String(meta.settings.stopWords) },
    );
  }
  return kv;
}

/** Writes pairs batch by batch (one row group each), handing out the file's bytes in order. */
export interface PairsParquetWriter {
  write(rows: PairRows): void;
  finish(): void;
}

/** A streaming writer: each batch is a row group whose bytes go to `onBytes` at once (fresh arrays, safe to keep). */
export function createPairsParquetWriter(meta: PairsExportMeta, onBytes: (chunk: Uint8Array) => void): PairsParquetWriter {
  const writer = streamingParquetWriter(SCHEMA, pairsMetadata(meta), meta.version, onBytes);
  let finished = false;
  return {
    write(rows) {
      if (finished) throw new Error('the Parquet writer is finished');
      const n = rows.count;
      if (n === 0) return;
      const i = new Array<bigint>(n);
      const j = new Array<bigint>(n);
      for (let p = 0; p < n; p++) {
        i[p] = BigInt(rows.i[p]);
        j[p] = BigInt(rows.j[p]);
      }
      writer.write({
        columnData: [
          { name: 'i', data: i },
          { name: 'j', data: j },
          { name: 'distance', data: Int32Array.from(rows.distance.subarray(0, n)) },
          { name: 'path_a', data: rows.pathA.slice(0, n) },
          { name: 'path_b', data: rows.pathB.slice(0, n) },
        ],
        rowGroupSize: n,
      });
    },
    finish() {
      if (finished) return;
      finished = true;
      writer.finish();
    },
  };
}
