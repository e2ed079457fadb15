/**
 * The command line's text-lines kernel (kernels/text-lines.ts) and its memory: `simsift pairs` reads a
 * text input straight into that memory (textInputBuffer), parses its lines of 16 hex digits there, and
 * formats its pair lines there. One instance per thread, made at first use and let go once it has
 * parsed an input read into it (its memory holds the whole input).
 */
import type { PairList } from '../core/index/pair-list.ts';
import { growMemoryTo } from '../core/wasm-memory.ts';
import { WASM_BASE64 } from './text-lines-wasm.ts';

interface TextLinesExports {
  memory: WebAssembly.Memory;
  parseHexLines(text: number, length: number, hiOut: number, loOut: number): number;
  formatPairs(a: number, b: number, distance: number, count: number, out: number): number;
}

/** Where the regions start: the kernel's own stack and data stay below (it uses none, but keep a page). */
const BASE = 65536;
/** Longest `i j distance` line: two 32-bit numbers (10 digits each), a distance <= 64, two spaces and a newline. */
const PAIR_LINE_MAX = 10 + 1 + 10 + 1 + 2 + 1;
/** Bytes of the shortest line with a fingerprint: 16 hex digits and a newline. */
const LINE_BYTES = 17;

let kernel: TextLinesExports | null = null;

function textLines(): TextLinesExports {
  kernel ??= new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(WASM_BASE64, 'base64')), {}).exports as unknown as TextLinesExports;
  return kernel;
}

const align8 = (at: number) => Math.ceil(at / 8) * 8;

/**
 * Lines parsed per kernel call, their fingerprints then copied out: a region this small is touched
 * once and reused, where one for every line would be as much fresh memory as the fingerprints.
 */
const CHUNK_LINES = 65536;

/** Where the fingerprints of a text of `length` bytes at `at` go (a chunk's worth), and the memory's end after them. */
function fingerprintRegions(at: number, length: number): { hiAt: number; loAt: number; end: number } {
  const lines = Math.min(Math.ceil(length / LINE_BYTES), CHUNK_LINES);
  const hiAt = align8(at + length);
  const loAt = hiAt + 4 * lines;
  return { hiAt, loAt, end: loAt + 4 * lines };
}

/**
 * `size` bytes in the kernel's memory, with room behind them for the fingerprints they can hold: a
 * text input read here is parsed where it lies (parseLeadingHexLines), with no copy. The view lasts
 * until this thread's next use of the kernel.
 */
export function textInputBuffer(size: number): Uint8Array {
  const k = textLines();
  growMemoryTo(k.memory, fingerprintRegions(BASE, size).end);
  return new Uint8Array(k.memory.buffer, BASE, size);
}

/**
 * Parses the leading lines of `bytes` that are 16 hex digits and a newline (the last may end at the
 * end) into hi[0..) and lo[0..), stopping at the first other line; returns how many it parsed.
 * Bytes outside the kernel's memory (not from textInputBuffer) are copied in first.
 */
export function parseLeadingHexLines(bytes: Uint8Array, hi: Uint32Array, lo: Uint32Array): number {
  const k = textLines();
  let at = BASE;
  if (bytes.buffer === k.memory.buffer) {
    at = bytes.byteOffset;
    // The next use makes a new instance: this one's memory (the whole input) goes once its reader drops the view.
    kernel = null;
  } else {
    growMemoryTo(k.memory, fingerprintRegions(BASE, bytes.length).end);
    new Uint8Array(k.memory.buffer).set(bytes, BASE);
  }
  const { hiAt, loAt, end } = fingerprintRegions(at, bytes.length);
  // A view made elsewhere than textInputBuffer without room behind it: growing would detach it.
  if (end > k.memory.buffer.byteLength) return 0;
  const chunk = (loAt - hiAt) / 4;
  const chunkHi = new Uint32Array(k.memory.buffer, hiAt, chunk);
  const chunkLo = new Uint32Array(k.memory.buffer, loAt, chunk);
  let n = 0;
  // A chunk ends at a line's end, so each call sees whole lines (the last may end at the end of the text).
  for (let from = 0; from < bytes.length; from = n * LINE_BYTES) {
    const length = Math.min(bytes.length - from, chunk * LINE_BYTES);
    const parsed = Math.min(k.parseHexLines(at + from, length, hiAt, loAt), hi.length - n, lo.length - n);
    hi.set(chunkHi.subarray(0, parsed), n);
    lo.set(chunkLo.subarray(0, parsed), n);
    n += parsed;
    if (parsed < chunk) break;
  }
  return n;
}

/** Pairs [start, end) as `a b distance` lines, in a new buffer of their own (a stream may hold it until it drains). */
export function pairLineBytes(pairs: PairList, start: number, end: number): Buffer {
  const k = textLines();
  const count = end - start;
  const aAt = BASE;
  const bAt = aAt + 4 * count;
  const dAt = bAt + 4 * count;
  const outAt = align8(dAt + count);
  growMemoryTo(k.memory, outAt + PAIR_LINE_MAX * count);
  const memory = k.memory.buffer;
  new Uint32Array(memory, aAt, count).set(pairs.a.subarray(start, end));
  new Uint32Array(memory, bAt, count).set(pairs.b.subarray(start, end));
  new Uint8Array(memory, dAt, count).set(pairs.distance.subarray(start, end));
  const length = k.formatPairs(aAt, bAt, dAt, count, outAt);
  return Buffer.from(new Uint8Array(memory, outAt, length));
}
