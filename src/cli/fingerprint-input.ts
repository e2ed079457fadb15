/**
 * Reading the fingerprints `simsift pairs` searches: a text file (one fingerprint per line, as 16
 * hex digits alone or as `simsift fingerprint` prints them, `HEX  path` or `-  path`) or the
 * Parquet export (its `fingerprint` column). Rows keep their numbers: a row without a fingerprint
 * (a `-` line, a null) is left out of the search but still counts, so pair numbers are row numbers
 * of the input in either format.
 */
import { open } from 'node:fs/promises';
import { asyncBufferFromFile, parquetMetadata, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { toHex } from '../core/simhash/fingerprint64.ts';
import { checkCoverage, checkedRowCount } from './parquet-checks.ts';
import { recordedSettings } from '../core/export/fingerprints-parquet.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { errorCode, UsageError } from './cli-common.ts';
import { nameFromBytes, unescapeName } from './terminal-names.ts';
import type { NamedFile } from './input-files.ts';

/** The fingerprints of an input file. */
export interface FingerprintInput {
  format: 'text' | 'parquet';
  /** Fingerprint halves of the rows that have one, in row order. */
  hi: Uint32Array;
  lo: Uint32Array;
  /** Row number of each fingerprint, or null when every row has one (then fingerprint i is row i). */
  rows: Uint32Array | null;
  /** Rows in the input, with or without a fingerprint. */
  totalRows: number;
  /** Each row's path ('' where a text line has none); only when asked for. */
  paths?: string[];
}

/** True when the bytes start like a Parquet file ("PAR1"). */
export function isParquet(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31;
}

/** The first bytes of a checked file (to tell Parquet from text without reading it all). */
export async function readHead(file: NamedFile, bytes = 4): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(file.real, 'r');
    const buffer = new Uint8Array(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(file.given)} (${errorCode(error)})`);
  } finally {
    await handle?.close();
  }
}

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

// Hex digit values by byte; -1 for anything else.
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[65 + c] = 10 + c;
  HEX[97 + c] = 10 + c;
}

const isBlank = (b: number) => b === 32 || b === 9;

/**
 * Parses one fingerprint per line straight from the bytes, without a string per line: 16 hex
 * digits (either case), optionally followed by spaces or tabs and a path (what `simsift
 * fingerprint` prints); `-` instead of the digits marks a row without a fingerprint. Surrounding
 * spaces, tabs and a CR are ignored; a final newline is optional.
 */
export function parseFingerprintLines(bytes: Uint8Array, name: string, withPaths = false): Omit<FingerprintInput, 'format'> {
  let lines = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lines++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) lines++;
  const hi = new Uint32Array(lines);
  const lo = new Uint32Array(lines);
  const rows = new Uint32Array(lines);
  const paths: string[] | undefined = withPaths ? new Array<string>(lines).fill('') : undefined;
  const text = withPaths ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  let n = 0;
  let pos = 0;
  for (let line = 0; line < lines; line++) {
    // Most lines are 16 hex digits and a newline (what `simsift fingerprint` writes without paths):
    // read those without searching for the line's end.
    if (!paths && (pos + 16 === bytes.length || bytes[pos + 16] === 10)) {
      let h = 0;
      let l = 0;
      let bad = 0;
      for (let q = 0; q < 8; q++) {
        const v = HEX[bytes[pos + q]];
        bad |= v;
        h = (h << 4) | v;
      }
      for (let q = 8; q < 16; q++) {
        const v = HEX[bytes[pos + q]];
        bad |= v;
        l = (l << 4) | v;
      }
      if (bad >= 0) {
        hi[n] = h >>> 0;
        lo[n] = l >>> 0;
        rows[n] = line;
        n++;
        pos += 17;
        continue;
      }
    }
    let end = bytes.indexOf(10, pos);
    if (end < 0) end = bytes.length;
    let s = pos;
    let e = end;
    while (s < e && isBlank(bytes[s])) s++;
    while (e > s && (isBlank(bytes[e - 1]) || bytes[e - 1] === 13)) e--;
    const dash = bytes[s] === 45 /* - */ && (e - s === 1 || isBlank(bytes[s + 1]));
    if (paths && text) {
      // The path starts after the fingerprint (or `-`) and the blanks after it; `simsift fingerprint` writes two spaces.
      let p = s + (dash ? 1 : 16);
      while (p < e && isBlank(bytes[p])) p++;
      // `simsift fingerprint` escapes names (one line per file, nothing a terminal acts on): read them back.
      if (p < e) paths[line] = unescapeName(nameFromBytes(text.subarray(p, e)));
    }
    if (dash) {
      pos = end + 1;
      continue; // no fingerprint (binary or too short): the row keeps its number
    }
    let h = 0;
    let l = 0;
    let ok = e - s === 16 || (e - s > 17 && isBlank(bytes[s + 16]));
    for (let q = 0; ok && q < 16; q++) {
      const v = HEX[bytes[s + q]];
      if (v < 0) ok = false;
      else if (q < 8) h = (h << 4) | v;
      else l = (l << 4) | v;
    }
    if (!ok) {
      const shown = Buffer.from(bytes.subarray(pos, Math.min(end, pos + 40))).toString('utf8');
      throw new UsageError(
        `${name}:${line + 1}: expected 16 hex digits, got ${JSON.stringify(shown)}${end - pos > 40 ? '...' : ''}`,
      );
    }
    hi[n] = h >>> 0;
    lo[n] = l >>> 0;
    rows[n] = line;
    n++;
    pos = end + 1;
  }
  const withPathList = paths ? { paths } : {};
  if (n === lines) return { hi, lo, rows: null, totalRows: lines, ...withPathList };
  return { hi: hi.slice(0, n), lo: lo.slice(0, n), rows: rows.slice(0, n), totalRows: lines, ...withPathList };
}
