/**
 * The app's fingerprint export: the scan's documents as the core Parquet file (the schema and
 * metadata `simsift fingerprint --format parquet` writes; only the row groups are smaller), built a
 * row group at a time in time slices on the main thread.
 *
 * Why the main thread is fine: hyparquet-writer encodes about 250,000 rows a second in Node on this
 * 2-core machine (~4 µs a row), so a row group of 2,048 rows is ~8 ms; the export yields to the page after each one, so the
 * tab stays responsive (100,000 documents: ~0.4 s of work spread over ~50 slices). A worker would
 * have to receive every path string first, which costs about as much as encoding them.
 */
import { createFingerprintParquetWriter, fingerprintStatusOf, type FingerprintStatus } from '../../core/export/fingerprints-parquet.ts';
import type { SimHashSettings } from '../../core/simhash/settings.ts';
import { formatOfFlags } from '../../core/documents/document-status.ts';
import { SIMSIFT_VERSION } from '../../core/version.ts';
import type { ScanDocs } from '../../scan/scan-result.ts';

/** What the export reads from a scan result. */
export interface FingerprintExportSource {
  docs: ScanDocs;
  /** Per doc: the doc whose text stands for it, or -1 (copies carry their original's fingerprint). */
  representative: Int32Array;
  settings: SimHashSettings;
  k: number;
}

/** Rows per row group (and per time slice). */
const ROWS_PER_GROUP = 2048;

/** The Parquet file's bytes, in chunks for a Blob, yielding to the page between row groups. */
export async function fingerprintParquetParts(source: FingerprintExportSource): Promise<Uint8Array[]> {
  const { docs, representative, settings, k } = source;
  const parts: Uint8Array[] = [];
  const writer = createFingerprintParquetWriter({ settings, k, version: SIMSIFT_VERSION }, (chunk) => parts.push(chunk));
  for (let start = 0; start < docs.count; start += ROWS_PER_GROUP) {
    const end = Math.min(docs.count, start + ROWS_PER_GROUP);
    const status: FingerprintStatus[] = [];
    for (let d = start; d < end; d++) status.push(fingerprintStatusOf(docs.status[d], representative[d]));
    writer.write({
      paths: docs.paths.slice(start, end),
      status,
      hi: docs.hi.subarray(start, end),
      lo: docs.lo.subarray(start, end),
      contentHi: docs.hashHi.subarray(start, end),
      contentLo: docs.hashLo.subarray(start, end),
      words: docs.words.subarray(start, end),
      formats: Array.from(docs.flags.subarray(start, end), formatOfFlags),
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  writer.finish();
  return parts;
}
