/**
 * The all-pairs search's WebAssembly kernel (kernels/pair-scan.ts, compiled from AssemblyScript by
 * bin/build-kernels.js) and the memory it works in: the grouped records, the run ends and the found
 * pairs all live in the kernel's memory, so a table's runs are scanned (and large groups split) with
 * no copy out and no allocation per pair. One instance per search (per thread), grown to the corpus it searches.
 */
import { WASM_BASE64 } from './pair-scan-wasm.ts';
import { growMemoryTo } from '../wasm-memory.ts';

interface PairScanExports {
  memory: WebAssembly.Memory;
  scanRuns(
    records: number, ends: number, run: number, runEnd: number, row: number, k: number, maskLow: number, maskHigh: number,
    differ: number, differCount: number, out: number, capacity: number,
  ): number;
  nextRun(): number;
  nextRow(): number;
  splitGroup(
    records: number, from: number, to: number, local: number, ends: number, buckets: number,
    hiWord: number, rH: number, mH: number, loLen: number, rL: number, mL: number, digitShift: number,
  ): void;
}

/** The kernel's memory laid out for one search, with typed-array views over each region. */
export interface PairScanArena {
  /** Byte offsets of the regions (records are 16 bytes, ends 4, found pairs 12, block masks 8). */
  readonly groupedAt: number;
  readonly localAt: number;
  readonly endsAt: number;
  readonly localEndsAt: number;
  readonly differAt: number;
  readonly outAt: number;
  /** Found pairs the out region holds. */
  readonly capacity: number;
  /** Views (4 words a record; ends; the blocks a table's pairs must differ on, as u32 halves; found pairs as document i, document j, distance). */
  readonly grouped: Uint32Array;
  readonly local: Uint32Array;
  readonly ends: Uint32Array;
  readonly localEnds: Uint32Array;
  readonly differ: Uint32Array;
  readonly out: Uint32Array;
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
 * A kernel instance whose memory holds `records` grouped records, as many re-sorted ones, `ends`
 * run ends for each, and room for found pairs (at least one run's worth: `records`).
 */
export function createPairScanArena(records: number, ends: number): PairScanArena {
  // Compiled once per thread, synchronously (a few hundred bytes: allowed on any thread).
  compiled ??= new WebAssembly.Module(decode(WASM_BASE64));
  const kernel = new WebAssembly.Instance(compiled, {}).exports as unknown as PairScanExports;
  const capacity = Math.max(4096, records);
  const groupedAt = BASE;
  const localAt = groupedAt + 16 * records;
  const endsAt = localAt + 16 * records;
  const localEndsAt = endsAt + 4 * ends;
  const differAt = localEndsAt + 4 * ends;
  const outAt = differAt + 8 * MAX_DIFFER;
  const bytes = outAt + 12 * capacity;
  growMemoryTo(kernel.memory, bytes);
  const buffer = kernel.memory.buffer;
  return {
    groupedAt, localAt, endsAt, localEndsAt, differAt, outAt, capacity, kernel,
    grouped: new Uint32Array(buffer, groupedAt, 4 * records),
    local: new Uint32Array(buffer, localAt, 4 * records),
    ends: new Uint32Array(buffer, endsAt, ends),
    localEnds: new Uint32Array(buffer, localEndsAt, ends),
    differ: new Uint32Array(buffer, differAt, 2 * MAX_DIFFER),
    out: new Uint32Array(buffer, outAt, 3 * capacity),
  };
}
