/**
 * The export worker's API: builds the app's export files off the main thread (every pair of the
 * relation as CSV, the groups in view as CSV, every document's fingerprint as Parquet) and saves them
 * in chunks, never as one string: into a file the person chose (a FileSystemFileHandle from
 * `showSaveFilePicker`, whose writable is committed only by `close`, so the file is whole or as it
 * was), or, where the browser has no picker, into one Blob assembled from chunks, for a download.
 */
import { pairsCsvBytes } from '../core/export/pairs-csv-bytes.ts';
import { groupsCsv } from '../core/export/groups-csv.ts';
import { createFingerprintParquetWriter, FINGERPRINT_ROW_COLUMNS, fingerprintStatusOf, type FingerprintStatus } from '../core/export/fingerprints-parquet.ts';
import type { DuplicateRelation } from '../core/groups/duplicate-relation.ts';
import type { ContainedRelation } from '../core/groups/contained-pairs.ts';
import type { GroupTable } from '../core/groups/group-table.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { formatOfFlags } from '../core/documents/document-status.ts';
import { SIMSIFT_VERSION } from '../core/version.ts';
import { subarrayDocColumns, type DocColumns, type FingerprintColumnName } from '../core/documents/doc-columns.ts';
import { planCsv, planJson, planRows, type PlanDocs, type PlanRelation } from '../core/export/plan.ts';
import type { KeepDecision } from '../core/keep/keep-rules.ts';

/** Where an export goes: the chosen file, or null for a Blob returned to the page. */
export type ExportTarget = FileSystemFileHandle | null;

/** What an export wrote: its size, and the Blob when there was no chosen file. */
export interface ExportOutcome {
  bytes: number;
  blob: Blob | null;
}

/** The parts of the core's GroupTable the groups export reads. */
export type ExportGroups = Pick<GroupTable, 'count' | 'offsets' | 'members' | 'distanceToReference'>;

/** What the fingerprint export reads of a scan: its documents' columns, representatives, settings and k. */
export interface FingerprintRows extends DocColumns<FingerprintColumnName> {
  count: number;
  paths: readonly string[];
  /** Per doc: the doc whose text stands for it, or -1 (copies carry their original's fingerprint). */
  representative: Int32Array;
  settings: SimHashSettings;
  k: number;
}

export const CSV_TYPE = 'text/csv;charset=utf-8';
export const JSON_TYPE = 'application/json;charset=utf-8';
export const PARQUET_TYPE = 'application/vnd.apache.parquet';
/** Bytes gathered before they are folded into a Blob: the browser keeps a Blob's bytes outside the worker's heap (on disk when large). */
const FOLD_BYTES = 32 * 1024 * 1024;
/** Parquet rows per row group. */
const ROWS_PER_GROUP = 2048;

/**
 * Writes `chunks` to `target` (a chosen file: committed by `close`, aborted on any failure so the file
 * is left as it was) or gathers them into a Blob of `type`.
 */
async function save(chunks: Iterable<string | Uint8Array>, target: ExportTarget, type: string): Promise<ExportOutcome> {
  const encoder = new TextEncoder();
  const bytesOf = (chunk: string | Uint8Array) => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  let bytes = 0;
  if (target) {
    const writable = await target.createWritable();
    try {
      for (const chunk of chunks) {
        const data = bytesOf(chunk);
        bytes += data.byteLength;
        await writable.write(data as Uint8Array<ArrayBuffer>);
      }
    } catch (error) {
      await writable.abort().catch(() => undefined);
      throw error;
    }
    await writable.close();
    return { bytes, blob: null };
  }
  let parts: BlobPart[] = [];
  let pending = 0;
  for (const chunk of chunks) {
    const data = bytesOf(chunk);
    bytes += data.byteLength;
    pending += data.byteLength;
    parts.push(data as Uint8Array<ArrayBuffer>);
    if (pending >= FOLD_BYTES) {
      parts = [new Blob(parts)];
      pending = 0;
    }
  }
  return { bytes, blob: new Blob(parts, { type }) };
}

/** The fingerprint Parquet file's bytes, a row group at a time (the core writer's schema and metadata). */
function* fingerprintParquetChunks(source: FingerprintRows): Generator<Uint8Array> {
  const { representative, settings, k } = source;
  const ready: Uint8Array[] = [];
  const writer = createFingerprintParquetWriter({ settings, k, version: SIMSIFT_VERSION }, (chunk) => ready.push(chunk));
  for (let start = 0; start < source.count; start += ROWS_PER_GROUP) {
    const end = Math.min(source.count, start + ROWS_PER_GROUP);
    const status: FingerprintStatus[] = [];
    for (let d = start; d < end; d++) status.push(fingerprintStatusOf(source.status[d], representative[d]));
    writer.write({
      paths: source.paths.slice(start, end),
      status,
      ...subarrayDocColumns(source, FINGERPRINT_ROW_COLUMNS, start, end),
      formats: Array.from(source.flags.subarray(start, end), formatOfFlags),
    });
    yield* ready.splice(0);
  }
  writer.finish();
  yield* ready.splice(0);
}

/** The export worker's API object (exposed by `export.worker.ts`). */
export const exportApi = {
  /**
   * The files' modification times (ms since the epoch; 0 when a Blob is not a File). Read here: in
   * Chromium the first metadata read of a folder-input File is a synchronous IPC, which on the main
   * thread made tasks over 100 ms after a scan (the keep rules' newest/oldest need the times).
   */
  fileTimes(files: readonly Blob[]): Float64Array {
    return Float64Array.from(files, (f) => (f instanceof File ? f.lastModified : 0));
  },
  /**
   * Every pair of the relation as the pairs CSV (the bytes `simsift scan` writes), without the pairs of
   * `skip`ped documents (1 per doc) and the `separated` pairs (a0, b0, a1, b1, …).
   */
  pairsCsv(relation: DuplicateRelation, paths: readonly string[], target: ExportTarget, skip?: Uint8Array, separated?: Uint32Array, contained?: ContainedRelation): Promise<ExportOutcome> {
    return save(pairsCsvBytes(relation, paths, contained, skip, separated), target, CSV_TYPE);
  },

  /** The groups in `order` as the groups CSV; `identical` marks members identical to their reference. */
  groupsCsv(table: ExportGroups, paths: readonly string[], order: Uint32Array, identical: Uint8Array | undefined, target: ExportTarget, skip?: Uint8Array): Promise<ExportOutcome> {
    return save([groupsCsv(table, paths, order, identical, skip)], target, CSV_TYPE);
  },

  /**
   * The keep plan of `decision` as its CSV or JSON file, `root` recorded on it, and its row count. Built
   * here: its rows and text take time in proportion to the grouped documents (at 40,000 pairs, tasks of
   * several hundred ms on the main thread).
   */
  plan(relation: PlanRelation, docs: PlanDocs, decision: KeepDecision, format: 'csv' | 'json', root: string | null): { blob: Blob; rows: number } {
    const rows = planRows(relation, docs, decision);
    const text = format === 'csv' ? planCsv(rows, root) : planJson(rows, root);
    return { blob: new Blob([text], { type: format === 'csv' ? CSV_TYPE : JSON_TYPE }), rows: rows.length };
  },

  /** Every document's fingerprint, path, content hash, word count and status as the Parquet export. */
  fingerprintsParquet(source: FingerprintRows, target: ExportTarget): Promise<ExportOutcome> {
    return save(fingerprintParquetChunks(source), target, PARQUET_TYPE);
  },
};

export type ExportApi = typeof exportApi;
