/**
 * Reading the Parquet export's fingerprints and recorded settings (hyparquet): apart from
 * fingerprint-input.ts, so a text input never loads the Parquet decoder.
 */
import { asyncBufferFromFile, parquetMetadata, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { toHex } from '../core/simhash/fingerprint64.ts';
import { recordedSettings } from '../core/export/fingerprints-parquet.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { UsageError } from './cli-common.ts';
import type { FingerprintInput } from './fingerprint-input.ts';
import type { NamedFile } from './input-files.ts';
import { checkCoverage, checkedRowCount } from './parquet-checks.ts';

/** The settings a Parquet export's metadata records (its footer only is read); undefined when it has none. */
export async function readRecordedSettings(file: NamedFile): Promise<SimHashSettings | undefined> {
  try {
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file.real));
    return recordedSettings(metadata.key_value_metadata ?? []).settings;
  } catch (error) {
    throw new UsageError(`${file.given}: not a readable fingerprint Parquet file (${error instanceof Error ? error.message : String(error)})`);
  }
}

/**
 * The `fingerprint` column of a Parquet export (hyparquet: pure JavaScript, no DuckDB needed here),
 * checked first (parquet-checks.ts) and, where the file has `fingerprint_hex`, each fingerprint against
 * its hex form, so a damaged byte in either is an error rather than another pair.
 */
export async function parseFingerprintParquet(bytes: Uint8Array, name: string, withPaths = false): Promise<FingerprintInput> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const unreadable = (error: unknown) => new UsageError(`${name}: not a readable fingerprint Parquet file (${error instanceof Error ? error.message : String(error)})`);
  let metadata;
  try {
    metadata = parquetMetadata(buffer);
  } catch (error) {
    throw unreadable(error);
  }
  const total = checkedRowCount(metadata, bytes.length, { fingerprint: 'INT64', fingerprint_hex: 'BYTE_ARRAY', path: 'BYTE_ARRAY' }, name);
  const present = new Set(metadata.schema.slice(1).map((e) => e.name));
  if (!present.has('fingerprint')) throw new UsageError(`${name}: a fingerprint Parquet file needs a fingerprint column (it has ${[...present].join(', ')})`);
  const columns = ['fingerprint', ...(present.has('fingerprint_hex') ? ['fingerprint_hex'] : []), ...(withPaths ? ['path'] : [])];
  const read = new Map(columns.map((c) => [c, [] as { start: number; values: ArrayLike<unknown> }[]]));
  let pastEnd: string | undefined;
  try {
    await parquetRead({
      file: buffer,
      metadata,
      columns,
      onChunk: (chunk) => {
        // Never thrown from here (the decoder does not pass it on): kept, and thrown once the read ends.
        if (chunk.rowStart < 0 || chunk.rowStart + chunk.columnData.length > total) pastEnd ??= chunk.columnName;
        else read.get(chunk.columnName)?.push({ start: chunk.rowStart, values: chunk.columnData });
      },
    });
  } catch (error) {
    throw error instanceof UsageError ? error : unreadable(error);
  }
  if (pastEnd !== undefined) throw new UsageError(`${name}: a damaged Parquet file (${pastEnd} has rows past the ${total} it claims)`);
  for (const [column, chunks] of read) checkCoverage(chunks.map((c) => ({ start: c.start, length: c.values.length })), total, column, name);
  const hi = new Uint32Array(total);
  const lo = new Uint32Array(total);
  const rows = new Uint32Array(total);
  const seen = new Uint8Array(total);
  for (const c of read.get('fingerprint')!) {
    for (let r = 0; r < c.values.length; r++) {
      const v = c.values[r];
      if (v === null || v === undefined) continue;
      if (typeof v !== 'bigint') throw new UsageError(`${name}: the fingerprint column holds ${typeof v} values, expected 64-bit integers`);
      const u = BigInt.asUintN(64, v);
      hi[c.start + r] = Number(u >> 32n);
      lo[c.start + r] = Number(u & 0xffffffffn);
      seen[c.start + r] = 1;
    }
  }
  for (const c of read.get('fingerprint_hex') ?? []) {
    for (let r = 0; r < c.values.length; r++) {
      const row = c.start + r;
      const v = c.values[r] ?? null;
      const want = seen[row] ? toHex(hi[row], lo[row]) : null;
      if (v !== want) {
        throw new UsageError(`${name}: a damaged Parquet file (row ${row + 1}: fingerprint ${want ?? 'null'} but fingerprint_hex ${JSON.stringify(v)})`);
      }
    }
  }
  let n = 0;
  for (let r = 0; r < total; r++) {
    if (!seen[r]) continue;
    hi[n] = hi[r];
    lo[n] = lo[r];
    rows[n] = r;
    n++;
  }
  let paths: string[] | undefined;
  if (withPaths) {
    paths = new Array<string>(total).fill('');
    for (const c of read.get('path')!) for (let r = 0; r < c.values.length; r++) paths[c.start + r] = String(c.values[r] ?? '');
  }
  return {
    format: 'parquet',
    hi: hi.slice(0, n),
    lo: lo.slice(0, n),
    rows: n === total ? null : rows.slice(0, n),
    totalRows: total,
    ...(paths ? { paths } : {}),
  };
}
