/**
 * Reading the fingerprints `simsift pairs` searches: a text file (one fingerprint per line, as 16
 * hex digits alone or as `simsift fingerprint` prints them, `HEX  path` or `-  path`) or the
 * Parquet export (its `fingerprint` column). Rows keep their numbers: a row without a fingerprint
 * (a `-` line, a null) is left out of the search but still counts, so pair numbers are row numbers
 * of the input in either format. The Parquet side is fingerprint-parquet-input.ts, loaded only for
 * a Parquet input.
 */
import { open } from 'node:fs/promises';
import { errorCode, UsageError } from './cli-common.ts';
import { nameFromBytes, unescapeName } from './terminal-names.ts';
import type { NamedFile } from './input-files.ts';
import { parseLeadingHexLines } from './text-lines.ts';

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

// Hex digit values by byte; -1 for anything else.
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[65 + c] = 10 + c;
  HEX[97 + c] = 10 + c;
}

/** The value of two hex digits by their bytes (first << 8 | second), -1 unless both are digits: half the lookups of HEX. */
let hexPairs: Int16Array | null = null;
function hexPairTable(): Int16Array {
  if (hexPairs) return hexPairs;
  const table = new Int16Array(65536).fill(-1);
  for (let a = 0; a < 256; a++) {
    if (HEX[a] < 0) continue;
    for (let b = 0; b < 256; b++) if (HEX[b] >= 0) table[(a << 8) | b] = (HEX[a] << 4) | HEX[b];
  }
  return (hexPairs = table);
}

const isBlank = (b: number) => b === 32 || b === 9;

/**
 * Parses one fingerprint per line straight from the bytes, without a string per line: 16 hex
 * digits (either case), optionally followed by spaces or tabs and a path (what `simsift
 * fingerprint` prints); `-` instead of the digits marks a row without a fingerprint. Surrounding
 * spaces, tabs and a CR are ignored; a final newline is optional. One pass over the bytes: every
 * line with a fingerprint but the last takes at least 17 bytes, so length / 17 rounded up bounds them.
 * With `shared`, hi and lo are in SharedArrayBuffers (what the pair-search threads read in place).
 */
export function parseFingerprintLines(bytes: Uint8Array, name: string, withPaths = false, shared = false): Omit<FingerprintInput, 'format'> {
  const length = bytes.length;
  const pair = hexPairTable();
  const words = (count: number) => new Uint32Array(shared ? new SharedArrayBuffer(4 * count) : new ArrayBuffer(4 * count));
  const hi = words(Math.ceil(length / 17));
  const lo = words(hi.length);
  // Null while every line has had a fingerprint (then fingerprint i is row i).
  let rows: Uint32Array | null = null;
  const paths: string[] | undefined = withPaths ? [] : undefined;
  const text = withPaths ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  let n = 0;
  let pos = 0;
  let line = 0;
  if (!paths) {
    // The leading lines of 16 hex digits alone (`simsift fingerprint`'s without paths) in the kernel.
    n = parseLeadingHexLines(bytes, hi, lo);
    pos = n * 17;
    line = n;
  }
  for (; pos < length; line++) {
    // Most lines are 16 hex digits and a newline (what `simsift fingerprint` writes without paths):
    // read those without searching for the line's end, two digits a lookup.
    if (!paths && (pos + 16 === length || bytes[pos + 16] === 10)) {
      const h0 = pair[(bytes[pos] << 8) | bytes[pos + 1]];
      const h1 = pair[(bytes[pos + 2] << 8) | bytes[pos + 3]];
      const h2 = pair[(bytes[pos + 4] << 8) | bytes[pos + 5]];
      const h3 = pair[(bytes[pos + 6] << 8) | bytes[pos + 7]];
      const l0 = pair[(bytes[pos + 8] << 8) | bytes[pos + 9]];
      const l1 = pair[(bytes[pos + 10] << 8) | bytes[pos + 11]];
      const l2 = pair[(bytes[pos + 12] << 8) | bytes[pos + 13]];
      const l3 = pair[(bytes[pos + 14] << 8) | bytes[pos + 15]];
      if ((h0 | h1 | h2 | h3 | l0 | l1 | l2 | l3) >= 0) {
        hi[n] = ((h0 << 24) | (h1 << 16) | (h2 << 8) | h3) >>> 0;
        lo[n] = ((l0 << 24) | (l1 << 16) | (l2 << 8) | l3) >>> 0;
        if (rows) rows[n] = line;
        n++;
        pos += 17;
        continue;
      }
    }
    let end = bytes.indexOf(10, pos);
    if (end < 0) end = length;
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
      paths.push(p < e ? unescapeName(nameFromBytes(text.subarray(p, e))) : '');
    }
    if (dash) {
      // No fingerprint (binary or too short): the row keeps its number, so from here rows are recorded.
      if (!rows) {
        rows = new Uint32Array(hi.length);
        for (let r = 0; r < n; r++) rows[r] = r;
      }
      pos = end + 1;
      continue;
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
    if (rows) rows[n] = line;
    n++;
    pos = end + 1;
  }
  const withPathList = paths ? { paths } : {};
  // Exact lengths: a file of 17-byte lines fills its arrays, anything else is copied once.
  const copy = (a: Uint32Array) => {
    const exact = words(n);
    exact.set(a.subarray(0, n));
    return exact;
  };
  const fit = (a: Uint32Array) => (a.length === n ? a : shared ? copy(a) : a.slice(0, n));
  return { hi: fit(hi), lo: fit(lo), rows: rows && (rows.length === n ? rows : rows.slice(0, n)), totalRows: line, ...withPathList };
}
