/**
 * The all-pairs search's WebAssembly kernel (kernels/pair-scan.ts, compiled from AssemblyScript by
 * bin/build-kernels.js) and the memory it works in: the grouped records, the run ends and the found
 * pairs all live in the kernel's memory, so a table's runs are scanned (and large groups split) with
 * no copy out and no allocation per pair. One instance per search (per thread), grown to the corpus it searches.
 */
import { WASM_BASE64 } from './pair-scan-wasm.ts';
import { growMemoryTo } from '../wasm-memory.ts';

/** Pairs as columns (pair-list.ts's PairList, spelled out: that module imports this one). */
interface PairColumns {
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
  count: number;
}

interface PairScanExports {
  memory: WebAssembly.Memory;
  scanRuns(
    records: number, ends: number, run: number, runEnd: number, row: number, k: number, maskLow: number, maskHigh: number,
    differ: number, differCount: number, out: number, capacity: number,
  ): number;
  nextRun(): number;
  nextRow(): number;
  splitGroup(records: number, from: number, to: number, local: number, ends: number, buckets: number, rotate: number, shift: number): void;
  mergePairColumns(
    xa: number, xb: number, xd: number, xn: number, ya: number, yb: number, yd: number, yn: number, oa: number, ob: number, od: number,
  ): void;
  sortPairColumns(a: number, b: number, distance: number, n: number, bBits: number, keyBits: number, keys: number, spare: number, counts: number): void;
  groupByKey(
    hi: number, lo: number, n: number, keys: number, ends: number, groups: number, shift: number, counted: number,
    w0: number, r0: number, m0: number, d0: number, w1: number, r1: number, m1: number, d1: number,
    w2: number, r2: number, m2: number, d2: number, w3: number, r3: number, m3: number, d3: number,
    grouped: number, swap: number,
  ): void;
}

/** The kernel's memory laid out for one search, with typed-array views over each region. */
export interface PairScanArena {
  /** Byte offsets of the regions (fingerprint halves and keys 4 bytes, records 16, ends 4, found pairs 9 as three columns, block masks 8). */
  readonly hiAt: number;
  readonly loAt: number;
  readonly keysAt: number;
  readonly groupedAt: number;
  readonly localAt: number;
  readonly endsAt: number;
  readonly localEndsAt: number;
  readonly differAt: number;
  readonly outAt: number;
  /** Found pairs the out region holds. */
  readonly capacity: number;
  /** Views (the fingerprints' halves and one table's keys, a word per document; 4 words a record; ends; the blocks a table's pairs must differ on, as u32 halves; found pairs as columns: documents i, documents j, distances). */
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  readonly keys: Uint32Array;
  readonly grouped: Uint32Array;
  readonly local: Uint32Array;
  readonly ends: Uint32Array;
  readonly localEnds: Uint32Array;
  readonly differ: Uint32Array;
  readonly outA: Uint32Array;
  readonly outB: Uint32Array;
  readonly outDistance: Uint8Array;
  readonly kernel: PairScanExports;
}

let compiled: WebAssembly.Module | undefined;

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Most block masks a table's pairs must differ on (block numbers are bits of a 31-bit mask). */
const MAX_DIFFER = 32;

/** Where the regions start: the kernel's own stack and data stay below (it uses none, but keep a page). */
const BASE = 65536;

/**
 * Bytes kept after each region of records: the kernel's scan reads up to seven records past a run's
 * end (it tests eight a step and ignores those beyond), and the last run ends at its region's end.
 */
const READ_AHEAD = 128;

/**
 * A kernel instance whose memory holds `records` fingerprints and keys, as many grouped records, as many re-sorted ones, `ends`
 * run ends for each, and room for found pairs (at least one run's worth: `records`).
 */
export function createPairScanArena(records: number, ends: number): PairScanArena {
  // Compiled once per thread, synchronously (a few hundred bytes: allowed on any thread).
  compiled ??= new WebAssembly.Module(decode(WASM_BASE64));
  const kernel = new WebAssembly.Instance(compiled, {}).exports as unknown as PairScanExports;
  const capacity = Math.max(4096, records);
  const hiAt = BASE;
  const loAt = hiAt + 4 * records;
  const keysAt = loAt + 4 * records;
  const groupedAt = keysAt + 4 * records;
  const localAt = groupedAt + 16 * records + READ_AHEAD;
  const endsAt = localAt + 16 * records + READ_AHEAD;
  const localEndsAt = endsAt + 4 * ends;
  const differAt = localEndsAt + 4 * ends;
  const outAt = differAt + 8 * MAX_DIFFER;
  const bytes = outAt + 9 * capacity;
  growMemoryTo(kernel.memory, bytes);
  const buffer = kernel.memory.buffer;
  return {
    hiAt, loAt, keysAt, groupedAt, localAt, endsAt, localEndsAt, differAt, outAt, capacity, kernel,
    hi: new Uint32Array(buffer, hiAt, records),
    lo: new Uint32Array(buffer, loAt, records),
    keys: new Uint32Array(buffer, keysAt, records),
    grouped: new Uint32Array(buffer, groupedAt, 4 * records),
    local: new Uint32Array(buffer, localAt, 4 * records),
    ends: new Uint32Array(buffer, endsAt, ends),
    localEnds: new Uint32Array(buffer, localEndsAt, ends),
    differ: new Uint32Array(buffer, differAt, 2 * MAX_DIFFER),
    outA: new Uint32Array(buffer, outAt, capacity),
    outB: new Uint32Array(buffer, outAt + 4 * capacity, capacity),
    outDistance: new Uint8Array(buffer, outAt + 8 * capacity, capacity),
  };
}

/** A kernel instance of its own, for one sort or merge (its memory dropped with it). */
function scratchKernel(): PairScanExports {
  compiled ??= new WebAssembly.Module(decode(WASM_BASE64));
  return new WebAssembly.Instance(compiled, {}).exports as unknown as PairScanExports;
}

/**
 * Merges the pairs of x and y, each sorted by (a, b) (a pair in at most one), into `out` from its
 * start (room for both counts), in a kernel instance of its own.
 */
export function mergePairColumns(x: PairColumns, y: PairColumns, out: PairColumns): void {
  const kernel = scratchKernel();
  const xn = x.count;
  const yn = y.count;
  const n = xn + yn;
  const xa = BASE;
  const xb = xa + 4 * xn;
  const ya = xb + 4 * xn;
  const yb = ya + 4 * yn;
  const oa = yb + 4 * yn;
  const ob = oa + 4 * n;
  const xd = ob + 4 * n;
  const yd = xd + xn;
  const od = yd + yn;
  growMemoryTo(kernel.memory, od + n);
  const buffer = kernel.memory.buffer;
  new Uint32Array(buffer, xa, xn).set(x.a.subarray(0, xn));
  new Uint32Array(buffer, xb, xn).set(x.b.subarray(0, xn));
  new Uint8Array(buffer, xd, xn).set(x.distance.subarray(0, xn));
  new Uint32Array(buffer, ya, yn).set(y.a.subarray(0, yn));
  new Uint32Array(buffer, yb, yn).set(y.b.subarray(0, yn));
  new Uint8Array(buffer, yd, yn).set(y.distance.subarray(0, yn));
  kernel.mergePairColumns(xa, xb, xd, xn, ya, yb, yd, yn, oa, ob, od);
  out.a.set(new Uint32Array(buffer, oa, n));
  out.b.set(new Uint32Array(buffer, ob, n));
  out.distance.set(new Uint8Array(buffer, od, n));
}

/** Counters of one of the kernel's sort passes (2^11 buckets, and one more). */
const SORT_COUNTS = 2049;

/**
 * Sorts the first n pairs of the columns a, b, distance by (a, b) in place, in a kernel instance of
 * its own (dropped after, memory and all): the ids take bBits and keyBits - bBits - 7 bits, keyBits <= 64.
 */
export function sortPairColumns(a: Uint32Array, b: Uint32Array, distance: Uint8Array, n: number, bBits: number, keyBits: number): void {
  const kernel = scratchKernel();
  const aAt = BASE;
  const bAt = aAt + 4 * n;
  const dAt = bAt + 4 * n;
  const keysAt = Math.ceil((dAt + n) / 8) * 8;
  const spareAt = keysAt + 8 * n;
  const countsAt = spareAt + 8 * n;
  growMemoryTo(kernel.memory, countsAt + 4 * SORT_COUNTS);
  const buffer = kernel.memory.buffer;
  const columns = [new Uint32Array(buffer, aAt, n), new Uint32Array(buffer, bAt, n), new Uint8Array(buffer, dAt, n)] as const;
  columns[0].set(a.subarray(0, n));
  columns[1].set(b.subarray(0, n));
  columns[2].set(distance.subarray(0, n));
  kernel.sortPairColumns(aAt, bAt, dAt, n, bBits, keyBits, keysAt, spareAt, countsAt);
  a.set(columns[0]);
  b.set(columns[1]);
  distance.set(columns[2]);
}
