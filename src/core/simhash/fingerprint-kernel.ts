/**
 * The fingerprinter's WebAssembly kernel (kernels/fingerprint.ts, compiled from AssemblyScript by
 * bin/build-kernels.js into fingerprint-wasm.ts): in-place tokenizing (pure ASCII text, and text
 * whose non-ASCII code points fold one by one), char n-gram bounds, XXH64 (seed 0) of many byte
 * ranges in one call, per-document dedupe and bit counting of those hashes, and their feature set
 * (sorted distinct low halves). The kernel keeps nothing in its memory: the caller lays out every
 * buffer from address 0.
 */
import { WASM_BASE64 } from './fingerprint-wasm.ts';
import { growMemoryTo } from '../wasm-memory.ts';

/** The kernel's API: its memory (grown by the caller) and its functions. */
export type FingerprintKernel = {
  memory: WebAssembly.Memory;
  /** For f < count: XXH64 of memory[i32 starts[f], i32 ends[f]) stored little-endian at out + 8f. */
  hash(startsPtr: number, endsPtr: number, count: number, outPtr: number): void;
  /**
   * For f < count, takes the 64-bit hash at hashes + 8f; with `dedupe` (1) skips it if the
   * open-addressing table at `table` (mask + 1 i64 slots, 0 = empty, which the caller zeroes before
   * each document) already holds it and else records it; then adds 1 to counters[i] (64 i32
   * counters, added to, never cleared) for each bit i set in the hash. Returns how many hashes were
   * counted.
   */
  tally(hashes: number, count: number, table: number, mask: number, counters: number, dedupe: number): number;
  /**
   * Tokenizes ASCII bytes [start, end) in place, as the fingerprinter's `compactAscii` without stop
   * words: each byte maps through the 256-byte table at `table` (its lowercase if it is a letter or
   * digit, else 0 = separator); tokens are written from address 0 joined by one space, their bounds
   * to the i32 arrays `starts` and `ends`. Returns the token count (and stores the written length
   * as an i32 at `outLength`), or -1 when there are more than `capacity` tokens. `start` must be at
   * least 8: tokens are copied 8 bytes at a time, and the write position stays 8 bytes behind.
   */
  compactAscii(start: number, end: number, table: number, starts: number, ends: number, capacity: number, outLength: number): number;
  /**
   * Tokenizes UTF-8 text [start, end) in place and folds it per code point, as the fingerprinter's
   * `compactTokens` on unnormalized text without stop words: ASCII bytes map through `asciiTable` as
   * in compactAscii; a BMP code point cp maps through the i32 `foldTable[cp]` (kind in bits 24..31:
   * FOLD_SEP, FOLD_WORD, FOLD_SOLO, FOLD_SS (written "ss"), FOLD_ABORT; the folded code point in bits
   * 0..23). Tokens are joined by one space (word mode) or by one space only where a separator stood
   * (`charMode` 1); bounds as in compactAscii. Returns the token count (written length at
   * `outLength`), or -1 when the text needs the full normalization (a FOLD_ABORT code point or one
   * beyond the BMP), -2 when there are more than `capacity` tokens, or -3 - b when block b (code
   * points 256b .. 256b + 255) of the fold table is not filled yet (entry 0). The input is then
   * partly overwritten. The caller keeps the write position from reaching unread input (headroom
   * before `start`); copying 8 bytes at a time happens only while it is 8 bytes behind.
   */
  compactText(
    start: number, end: number, asciiTable: number, foldTable: number, starts: number, ends: number,
    capacity: number, outLength: number, charMode: number,
  ): number;
  /**
   * Writes the offset of every code point of the UTF-8 bytes [0, len) to the i32 array `starts`,
   * then len after them; returns the code point count (char n-grams span starts[f] .. starts[f + n]).
   */
  codePoints(len: number, starts: number): number;
  /**
   * The feature set of the `count` u64 hashes at `hashes`: their low halves sorted ascending without
   * repeats, written as u32 to `keys` (room for `count`); returns how many. `counts` is scratch for
   * 2^bits u32 (bits 1..31): the keys are placed by their top `bits` bits, then insertion-sorted.
   */
  sortedSet(hashes: number, count: number, keys: number, counts: number, bits: number): number;
};

/** Fold-table entry kinds (bits 24..31 of an entry; 0 = block not filled yet); kernels/fingerprint.ts uses the same numbers. */
export const FOLD_SEP = 1, FOLD_WORD = 2, FOLD_SOLO = 3, FOLD_SS = 4, FOLD_ABORT = 5;

/** The kernel module's bytes. */
export function fingerprintKernelBytes(): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0));
}

let compiled: WebAssembly.Module | undefined;

/**
 * A new kernel instance with its own memory (one per fingerprinter, so fingerprinters never share
 * buffers). The module is compiled once per thread, synchronously: it stays under 4 KB (a test says
 * so), the most older Chromium compiled synchronously on a main thread. There is no JavaScript
 * fallback: SimSift needs WebAssembly anyway (the pair search's kernel, xxhash-wasm's content hashes).
 */
export function createFingerprintKernel(): FingerprintKernel {
  compiled ??= new WebAssembly.Module(fingerprintKernelBytes());
  return new WebAssembly.Instance(compiled, {}).exports as unknown as FingerprintKernel;
}

/** The instance `xxh64Bytes` hashes in, kept for the next call unless a large input grew it past this. */
let bytesKernel: FingerprintKernel | null = null;
const KEEP_BYTES = 64 * 1024 * 1024;

/**
 * XXH64 (seed 0) of a whole byte array, or of `parts` one after another as one array, as [hi, lo]
 * uint32 halves, synchronously with the kernel's `hash` (equal to xxhash-wasm's `h64Raw`, which needs
 * an await to load).
 */
export function xxh64Bytes(input: Uint8Array | readonly Uint8Array[]): [number, number] {
  const parts = input instanceof Uint8Array ? [input] : input;
  let length = 0;
  for (const part of parts) length += part.length;
  const kernel = (bytesKernel ??= createFingerprintKernel());
  // [0, 4) the start, [4, 8) the end, [8, 16) the hash, then the bytes.
  const need = 16 + length;
  const memory = kernel.memory;
  growMemoryTo(memory, need);
  const bytes = new Uint8Array(memory.buffer);
  let at = 16;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  const words = new Uint32Array(memory.buffer, 0, 4);
  words[0] = 16;
  words[1] = need;
  kernel.hash(0, 4, 1, 8);
  const out: [number, number] = [words[3]!, words[2]!];
  if (memory.buffer.byteLength > KEEP_BYTES) bytesKernel = null;
  return out;
}
