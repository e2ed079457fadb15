/**
 * `simsift fingerprint --format parquet`: collects one row per file and writes the core's Parquet
 * export (core/export/fingerprints-parquet.ts) to an output opened by atomic-file.ts, a row group at a time.
 */
import type { AtomicFile } from './atomic-file.ts';
import { createFingerprintParquetWriter, FINGERPRINT_ROW_COLUMNS, type FingerprintStatus } from '../core/export/fingerprints-parquet.ts';
import { allocateDocColumns, subarrayDocColumns } from '../core/documents/doc-columns.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { DocumentFormat } from '../core/text/document-format.ts';
import { SIMSIFT_VERSION } from '../core/version.ts';

/** One file's row: its status, fingerprint and content hash halves (0 where there are none), word count. */
export interface FingerprintRow extends Record<(typeof FINGERPRINT_ROW_COLUMNS)[number], number> {
  status: FingerprintStatus;
  /** The file's format (null when it could not be told: an unreadable file). */
  format: DocumentFormat | null;
}

/** Rows per row group: large enough for DuckDB and Spark to read in parallel, small enough to buffer. */
const ROW_GROUP = 65_536;

/** One row per file, then `finish` (the footer; the caller commits the file). */
export interface FingerprintParquetSink {
  add(path: string, row: FingerprintRow): void;
  finish(): void;
  readonly rows: number;
}

/** A sink writing to `file` (a write error throws atomic-file.ts's OutputError). */
export function createFingerprintParquetSink(file: AtomicFile, settings: SimHashSettings): FingerprintParquetSink {
  const writer = createFingerprintParquetWriter({ settings, version: SIMSIFT_VERSION }, (chunk) => file.writeSync(chunk));
  let paths: string[] = [];
  let status: FingerprintStatus[] = [];
  let formats: (DocumentFormat | null)[] = [];
  const cols = allocateDocColumns(FINGERPRINT_ROW_COLUMNS, ROW_GROUP);
  const flush = () => {
    writer.write({ paths, status, ...subarrayDocColumns(cols, FINGERPRINT_ROW_COLUMNS, 0, paths.length), formats });
    paths = [];
    status = [];
    formats = [];
  };
  return {
    get rows() {
      return writer.rows + paths.length;
    },
    add(path, row) {
      const r = paths.length;
      paths.push(path);
      status.push(row.status);
      formats.push(row.format);
      for (const c of FINGERPRINT_ROW_COLUMNS) cols[c][r] = row[c];
      if (paths.length === ROW_GROUP) flush();
    },
    finish() {
      if (paths.length > 0) flush();
      writer.finish();
    },
  };
}
