/**
 * The fingerprinter's buffers (one per fingerprinter, in its kernel's memory) and how text gets into
 * them: the layout, encoding with headroom for the in-place tokenizers, and the tables the kernel
 * reads (the ASCII byte classes and the per-code-point fold table).
 */
import { charClass, MARK, SEP, SOLO } from '../text/char-class.ts';
import { FOLDS_TO_SS, simpleFold } from '../text/simple-fold.ts';
import { createFingerprintKernel, FOLD_ABORT, FOLD_SEP, FOLD_SOLO, FOLD_SS, FOLD_WORD, type FingerprintKernel } from './fingerprint-kernel.ts';
import { growMemoryTo } from '../wasm-memory.ts';

const encoder = new TextEncoder();

/** Byte → its lowercase if it is an ASCII letter or digit, else 0 (separators and all non-ASCII bytes). */
export const ASCII_WORD = new Uint8Array(256);
/** Byte → 1 if it is an ASCII separator. */
export const ASCII_SEP = new Uint8Array(256);
for (let b = 0; b < 128; b++) {
  if (charClass(b) === SEP) ASCII_SEP[b] = 1;
  else ASCII_WORD[b] = b >= 65 && b <= 90 ? b + 32 : b;
}

/**
 * Reusable per-fingerprinter buffers, all in one memory (the WASM kernel's when it is available, so
 * the kernel reads the compacted text and token bounds where the tokenizer wrote them):
 * [buf: bufCap bytes][starts: tokCap int32][ends: tokCap int32][hashes: tokCap x (lo, hi) uint32].
 * buf comes first so growing the token arrays never moves the text. Grown on demand, never shrunk.
 */
export type Engine = {
  kernel: FingerprintKernel;
  memory: ArrayBuffer;
  bufCap: number;
  tokCap: number;
  /** Input UTF-8 at [inputStart, inputStart + len); compacted tokens are written from 0. */
  buf: Uint8Array;
  inputStart: number;
  /** Token i = buf[starts[i], ends[i]); in char mode, after `codePoints`, starts holds code point offsets. */
  starts: Int32Array;
  ends: Int32Array;
  /** Feature f's XXH64 as hashes[2f] = lo, hashes[2f + 1] = hi (a little-endian uint64). */
  hashes: Uint32Array;
  /** Distinct-feature table, 4 uint32 per slot: stamp, hash hi, hash lo, occurrences. */
  table: Uint32Array;
  tableBits: number;
  /**
   * This document's slots are [0, tableMask]: sized for its own feature count, not the largest
   * document's, so a small document after a huge one stays in a small, cached part of the table.
   */
  tableMask: number;
  /** A slot is live iff its stamp equals this, so the table needs no clearing between documents. */
  docStamp: number;
  /** The kernel's tally table (2^tallyBits i64 slots, zeroed per document) and its 64 bit counters. */
  tallyBits: number;
  tallyPtr: number;
  counters: Int32Array;
  /** The kernel's copy of ASCII_WORD, followed by an i32 slot for compactAscii's written length. */
  asciiTablePtr: number;
  /** The kernel's copy of FOLD_ENTRIES (65,536 i32), filled block by block as the kernel asks. */
  foldTablePtr: number;
  /** The i32 the kernel's tokenizers write their output length to (a view kept, not made per document). */
  outLength: Int32Array;
  /** buf from byte 8 on, where ASCII text is encoded first (a view kept, not made per document). */
  input8: Uint8Array;
  /** Table offsets of the slots `tableFeatures` filled, so reading them back skips empty slots. */
  used: Int32Array;
  bitCounts: Float64Array;
  /** Whether the last encoded text was pure ASCII (then it was not normalized, only lowercased). */
  ascii: boolean;
  /** Outputs of the last compaction. */
  words: number;
  compactLength: number;
};

/** Buffers grown past this for one huge document are dropped after it (about a 25 MB text). */
export const RELEASE_BYTES = 256 * 1024 * 1024;

export function createEngine(): Engine {
  const e: Engine = {
    kernel: createFingerprintKernel(),
    memory: new ArrayBuffer(0),
    bufCap: 0,
    tokCap: 0,
    buf: new Uint8Array(0),
    inputStart: 0,
    starts: new Int32Array(0),
    ends: new Int32Array(0),
    hashes: new Uint32Array(0),
    table: new Uint32Array(4 << 12),
    tableBits: 12,
    tableMask: (1 << 12) - 1,
    docStamp: 0,
    tallyBits: 12,
    tallyPtr: 0,
    counters: new Int32Array(64),
    asciiTablePtr: 0,
    foldTablePtr: 0,
    outLength: new Int32Array(1),
    input8: new Uint8Array(0),
    used: new Int32Array(1 << 12),
    bitCounts: new Float64Array(64),
    ascii: true,
    words: 0,
    compactLength: 0,
  };
  layout(e, 1 << 16, 1 << 12, false);
  return e;
}

/**
 * Makes room for bufCap bytes and tokCap tokens (and, with the kernel, a tally table of 2^tallyBits
 * slots and the 64 bit counters after the token arrays). With `keep` (growth in the middle of
 * tokenizing), the text and the token bounds written so far are kept: the token arrays move when
 * tokCap grows. The tally table is per document and is cleared whenever the layout changes.
 */
export function layout(e: Engine, bufCap: number, tokCap: number, keep: boolean, tallyBits = e.tallyBits): void {
  bufCap = Math.max(e.bufCap, (bufCap + 7) & ~7);
  tokCap = Math.max(e.tokCap, tokCap);
  const tallyStart = bufCap + 16 * tokCap;
  const countersStart = tallyStart + (8 << tallyBits);
  const asciiStart = countersStart + 4 * 64; // the kernel's ASCII table (256 bytes) and an i32 result
  const foldStart = asciiStart + 256 + 8;
  const bytes = foldStart + 4 * 0x10000;
  const oldStarts = keep ? e.starts.slice() : null;
  const oldEnds = keep ? e.ends.slice() : null;
  const memory = e.kernel.memory;
  growMemoryTo(memory, bytes);
  e.memory = memory.buffer;
  e.bufCap = bufCap;
  e.tokCap = tokCap;
  e.buf = new Uint8Array(e.memory, 0, bufCap);
  e.input8 = e.buf.subarray(8);
  e.starts = new Int32Array(e.memory, bufCap, tokCap);
  e.ends = new Int32Array(e.memory, bufCap + 4 * tokCap, tokCap);
  e.hashes = new Uint32Array(e.memory, bufCap + 8 * tokCap, 2 * tokCap);
  if (oldStarts && oldEnds) {
    e.starts.set(oldStarts);
    e.ends.set(oldEnds);
  }
  e.tallyBits = tallyBits;
  e.tallyPtr = tallyStart;
  e.counters = new Int32Array(e.memory, countersStart, 64);
  new Uint8Array(e.memory, asciiStart, 256).set(ASCII_WORD);
  e.asciiTablePtr = asciiStart;
  new Int32Array(e.memory, foldStart, 0x10000).set(FOLD_ENTRIES);
  e.foldTablePtr = foldStart;
  e.outLength = new Int32Array(e.memory, asciiStart + 256, 1);
}

/**
 * Puts `text` as UTF-8 at e.inputStart, leaving headroom before it because the in-place compaction
 * (writing from 0) may write more bytes than it reads: word mode inserts a space before a token that
 * touches the previous one (in "東京" between 東 and 京), and a fold may grow a code point by one
 * byte (Ⱥ, 2 bytes, folds to ⱥ, 3 bytes): at most 2 bytes per UTF-16 unit together. ASCII text
 * never grows, so it is first encoded with little headroom and room for one byte per unit; other
 * text is encoded again with the full headroom and room for 3 bytes per unit.
 */
export function encodeAt(e: Engine, text: string): number {
  const len = text.length;
  e.inputStart = 8;
  let need = e.inputStart + len + 8;
  if (e.bufCap < need) layout(e, Math.max(need, Math.min(e.bufCap * 2, 4 * need)), 0, false);
  const first = encoder.encodeInto(text, e.input8);
  if (first.read === len && first.written === len) return endInput(e, len);
  e.inputStart = 2 * len + 8;
  need = e.inputStart + 3 * len + 8;
  if (e.bufCap < need) layout(e, need, 0, false);
  return endInput(e, encoder.encodeInto(text, e.buf.subarray(e.inputStart)).written);
}

/**
 * Zeroes the 8 bytes after the encoded input: the kernel reads 8 bytes at a time and ends a token at
 * a non-word byte, so without this a token at the end of the text ran on into what an earlier, longer
 * document had left there (a fresh buffer is zero, so the first document never showed it).
 */
function endInput(e: Engine, written: number): number {
  const end = e.inputStart + written;
  e.buf.fill(0, end, Math.min(e.bufCap, end + 8));
  return written;
}

/** Encodes text as it is and notes whether it is pure ASCII (normalization happens later, see `prepare`). */
export function encode(e: Engine, text: string): number {
  const written = encodeAt(e, text);
  e.ascii = written === text.length;
  return written;
}

export function ensureTokenCapacity(e: Engine, count: number): void {
  if (e.tokCap < count) layout(e, 0, Math.max(count, e.tokCap * 2), true);
}

/**
 * First guess of the token arrays' size for `len` input bytes; the tokenizers grow them when a
 * document has more tokens (real text averages 5 to 7 bytes per word and its separator, so len/8 usually fits).
 */
export function tokenGuess(len: number): number {
  return (len >> 3) + 64;
}

/**
 * Puts normalized UTF-8 at e.inputStart, with headroom for the space word mode inserts before a
 * token that touches the previous one (at most one per byte; ASCII never needs it). Folding it
 * again changes nothing (normalizeText is idempotent on every code point), so it never grows.
 */
export function copyNormalized(e: Engine, utf8: Uint8Array): number {
  const len = utf8.length;
  e.inputStart = e.ascii ? 8 : len + 8;
  const need = e.inputStart + len + 8;
  if (e.bufCap < need) layout(e, Math.max(need, Math.min(e.bufCap * 2, 4 * need)), 0, false);
  e.buf.set(utf8, e.inputStart);
  return endInput(e, len);
}

/**
 * Per BMP code point, what the kernel's `compactText` does with it (see `FingerprintKernel.compactText`):
 * the kind and folded code point of `compactTokens` with folding, or 0 while its block is not filled.
 * Shared by all fingerprinters; each kernel holds a copy.
 */
export const FOLD_ENTRIES = new Int32Array(0x10000);

/** Fills block `block` of FOLD_ENTRIES from simpleFold and the class table (the rules of `compactTokens` with folding). */
export function fillFoldBlock(block: number): void {
  for (let cp = block << 8; cp < (block + 1) << 8; cp++) {
    const f = simpleFold(cp);
    let entry: number;
    if (f === FOLDS_TO_SS) entry = (FOLD_SS << 24) | 0x73;
    else if (f < 0) entry = FOLD_ABORT << 24;
    else {
      const cls = charClass(f);
      const kind = cls === SEP ? FOLD_SEP : cls === SOLO ? FOLD_SOLO : cls === MARK ? FOLD_ABORT : FOLD_WORD;
      entry = (kind << 24) | f;
    }
    FOLD_ENTRIES[cp] = entry;
  }
}
