/**
 * Text to 64-bit SimHash fingerprints: the fused hot path that normalizes, tokenizes, cuts features,
 * hashes them with XXH64 and sums their bits, on reusable typed arrays with no allocation per token.
 *
 * Exact definition (tests hold it equal to the string-level reference built from normalize.ts and
 * tokenize.ts and to xxhash-wasm's h64):
 * - text is normalized as by `normalizeText` (NFKC + case folding) and encoded to UTF-8. Fast paths
 *   with the same result: ASCII text is lowercased while tokenizing; text whose other characters
 *   are all "simple" (simple-fold.ts) is folded per code point while tokenizing; anything else is
 *   normalized as a whole string first;
 * - tokens follow tokenize.ts; with stop words on, English stop words are dropped;
 * - a word shingle's bytes are the UTF-8 of its n tokens joined by one space 0x20 ("the quick brown");
 *   a single word's bytes are the token's UTF-8; a character n-gram's bytes are the UTF-8 of n
 *   consecutive code points of `charStream` (tokens joined by one space where a separator stood
 *   between them, by nothing where they touched);
 * - a feature's hash is XXH64 with seed 0 of those bytes, as uint32 halves (hi = bits 63..32);
 * - weights: binary counts each distinct feature once; tf counts every occurrence; tfidf gives each
 *   distinct feature tf * idf (idf from `DocumentFrequencies`, keyed by the hash's low 32 bits),
 *   rounded to a multiple of 2^-20 so the sums are exact and do not depend on the order of features;
 * - bit i of the fingerprint is 1 iff the sum over features of (+w if the hash has bit i, else -w) is > 0;
 * - a document with no feature at all (empty, only separators, fewer tokens than the shingle size,
 *   fewer code points than the n-gram size) is 'too-short' and gets no fingerprint.
 *
 * How it is fast, per document: (1) the text is encoded to UTF-8 once; (2) one tokenizer pass moves
 * the tokens, folded and joined as "w1 w2 w3 ...", to the front of that same buffer (the write
 * position never passes the read position), recording token bounds, so every feature is one
 * contiguous byte range; the WebAssembly kernel (fingerprint-kernel.ts) runs this pass for ASCII
 * text and for text of simple characters without stop words (JavaScript does stop words and text
 * normalized as a whole); (3) the kernel hashes all ranges in one call; (4) the kernel dedupes the
 * hashes in a table of i64 slots zeroed per document over the part the document uses (large
 * documents in cache-sized partitions by the hashes' top bits) and counts bits in eight byte-sliced
 * i64 counters (tf-idf weights are summed in JavaScript, 256 buckets per hash byte). No
 * allocation per token or per feature, and none per document but the result.
 */
import { normalizeText } from '../text/normalize.ts';
import { CHAR_CLASS_TABLE, charClass, MARK, SEP, SOLO } from '../text/char-class.ts';
import { ENGLISH_STOP_WORDS } from '../text/stop-words.ts';
import { FOLDS_TO_SS, SIMPLE_FOLD_TABLE, simpleFold } from '../text/simple-fold.ts';
import { createFingerprintKernel, FOLD_ABORT, FOLD_SEP, FOLD_SOLO, FOLD_SS, FOLD_WORD, type FingerprintKernel } from './fingerprint-kernel.ts';
import { validateSettings } from './settings.ts';
import type { SimHashSettings } from './settings.ts';
import { createDocumentFrequencyTable, inverseDocumentFrequency } from './document-frequencies.ts';
import type { DocumentFrequencies, DocumentFrequencyTable } from './document-frequencies.ts';

/** The fingerprint of one document. `hi`/`lo` are 0 and meaningless when `status` is 'too-short'. */
export type FingerprintResult = {
  status: 'ok' | 'too-short';
  hi: number;
  lo: number;
  /** Feature occurrences cut from the document (before removing repeats). */
  features: number;
  /** Word tokens in the document (before stop-word removal). */
  words: number;
};

/** Options beyond the settings. */
export type FingerprinterOptions = {
  /** Corpus document frequencies; required when `settings.weights` is 'tfidf'. */
  documentFrequencies?: DocumentFrequencies;
};

/** A reusable fingerprinting engine for one set of settings. Not shareable between threads; create one per worker. */
export type Fingerprinter = {
  readonly settings: SimHashSettings;
  /** Fingerprints one document's text. */
  fingerprint(text: string): FingerprintResult;
  /**
   * The document's distinct features as sorted distinct uint32 keys (the low 32 bits of each feature
   * hash), for exact Jaccard and for counting document frequencies. Empty when too short.
   */
  featureSet(text: string): Uint32Array;
  /**
   * `fingerprint` of the text whose normalized form (normalizeText) has the UTF-8 `utf8`, as
   * text/normalized-utf8.ts writes it; `ascii` says that every byte is ASCII. The same result as
   * `fingerprint(text)`, without the string: the bytes are tokenized as they are.
   */
  fingerprintNormalized(utf8: Uint8Array, ascii: boolean): FingerprintResult;
  /** `featureSet` of the text whose normalized UTF-8 is `utf8` (see fingerprintNormalized). */
  featureSetNormalized(utf8: Uint8Array, ascii: boolean): Uint32Array;
  /**
   * `fingerprintNormalized`, and also `featureSetNormalized` when the document has fewer than
   * `setBelowWords` words (else `set` is null): from the same tokens and feature hashes, one pass
   * instead of two (the features do not depend on the weights).
   */
  fingerprintNormalizedWithSet(utf8: Uint8Array, ascii: boolean, setBelowWords: number): FingerprintResult & { set: Uint32Array | null };
};

const encoder = new TextEncoder();
/** TF-IDF weights are rounded to multiples of 2^-20 so that float sums are exact. */
const WEIGHT_SCALE = 1 << 20;

/** Byte → its lowercase if it is an ASCII letter or digit, else 0 (separators and all non-ASCII bytes). */
const ASCII_WORD = new Uint8Array(256);
/** Byte → 1 if it is an ASCII separator. */
const ASCII_SEP = new Uint8Array(256);
for (let b = 0; b < 128; b++) {
  if (charClass(b) === SEP) ASCII_SEP[b] = 1;
  else ASCII_WORD[b] = b >= 65 && b <= 90 ? b + 32 : b;
}

/** Stop words as a byte-keyed open-addressing table (FNV-1a of the token bytes), so lookups allocate nothing. */
const STOP_CAPACITY = 1024;
const STOP_MAX_LEN = 16;
const stopSlots = new Int32Array(STOP_CAPACITY).fill(-1);
const stopBytes: Uint8Array[] = [];
function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}
for (const word of ENGLISH_STOP_WORDS) {
  const bytes = encoder.encode(word);
  let slot = fnv1a(bytes, 0, bytes.length) & (STOP_CAPACITY - 1);
  while (stopSlots[slot] !== -1) slot = (slot + 1) & (STOP_CAPACITY - 1);
  stopSlots[slot] = stopBytes.length;
  stopBytes.push(bytes);
}
function isStopWordBytes(bytes: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len > STOP_MAX_LEN) return false;
  let slot = fnv1a(bytes, start, end) & (STOP_CAPACITY - 1);
  for (;;) {
    const idx = stopSlots[slot];
    if (idx === -1) return false;
    const word = stopBytes[idx];
    if (word.length === len) {
      let same = true;
      for (let i = 0; i < len; i++) {
        if (word[i] !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return true;
    }
    slot = (slot + 1) & (STOP_CAPACITY - 1);
  }
}

/**
 * Reusable per-fingerprinter buffers, all in one memory (the WASM kernel's when it is available, so
 * the kernel reads the compacted text and token bounds where the tokenizer wrote them):
 * [buf: bufCap bytes][starts: tokCap int32][ends: tokCap int32][hashes: tokCap x (lo, hi) uint32].
 * buf comes first so growing the token arrays never moves the text. Grown on demand, never shrunk.
 */
type Engine = {
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

const PAGE = 65536;
/** Buffers grown past this for one huge document are dropped after it (about a 25 MB text). */
const RELEASE_BYTES = 256 * 1024 * 1024;

function createEngine(): Engine {
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
function layout(e: Engine, bufCap: number, tokCap: number, keep: boolean, tallyBits = e.tallyBits): void {
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
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
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
function encodeAt(e: Engine, text: string): number {
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
function encode(e: Engine, text: string): number {
  const written = encodeAt(e, text);
  e.ascii = written === text.length;
  return written;
}

function ensureTokenCapacity(e: Engine, count: number): void {
  if (e.tokCap < count) layout(e, 0, Math.max(count, e.tokCap * 2), true);
}

/**
 * First guess of the token arrays' size for `len` input bytes; the tokenizers grow them when a
 * document has more tokens (real text averages 5 to 7 bytes per word and its separator, so len/8 usually fits).
 */
function tokenGuess(len: number): number {
  return (len >> 3) + 64;
}

/**
 * `compactTokens` for pure ASCII input, where every token is a run of ASCII letters and digits and
 * tokens are always separated, so word and char mode both join them by one space: the same result
 * with two tight loops per token and no state machine.
 */
function compactAscii(e: Engine, len: number, stopWords: boolean): number {
  ensureTokenCapacity(e, tokenGuess(len));
  if (!stopWords) {
    const k = e.kernel;
    const outLength = e.asciiTablePtr + 256;
    const count = k.compactAscii(e.inputStart, e.inputStart + len, e.asciiTablePtr, e.starts.byteOffset, e.ends.byteOffset, e.tokCap, outLength);
    if (count >= 0) {
      e.words = count;
      e.compactLength = e.outLength[0];
      return count;
    }
    // More tokens than the guess: the input is partly overwritten, so the caller encodes it again.
    ensureTokenCapacity(e, (len >> 1) + 2);
    return -1;
  }
  let b8 = e.buf;
  let st = e.starts;
  let en = e.ends;
  let cap = e.tokCap;
  const end = e.inputStart + len;
  let r = e.inputStart;
  let w = 0;
  let count = 0;
  let words = 0;
  for (;;) {
    while (r < end && ASCII_WORD[b8[r]] === 0) r++;
    if (r >= end) break;
    const joinAt = w;
    if (count > 0) b8[w++] = 0x20;
    const start = w;
    let v = ASCII_WORD[b8[r++]];
    do {
      b8[w++] = v;
    } while (r < end && (v = ASCII_WORD[b8[r++]]) !== 0);
    // r is one past the first separator (or at end): that separator was consumed, which is fine.
    words++;
    if (stopWords && isStopWordBytes(b8, start, w)) {
      w = joinAt;
      continue;
    }
    if (count === cap) {
      // Growing may move the token arrays and (WASM memory) replace the buffer's ArrayBuffer.
      ensureTokenCapacity(e, 2 * cap);
      b8 = e.buf;
      st = e.starts;
      en = e.ends;
      cap = e.tokCap;
    }
    st[count] = start;
    en[count++] = w;
  }
  e.words = words;
  e.compactLength = w;
  return count;
}

/**
 * Per BMP code point, what the kernel's `compactText` does with it (see `FingerprintKernel.compactText`):
 * the kind and folded code point of `compactTokens` with folding, or 0 while its block is not filled.
 * Shared by all fingerprinters; each kernel holds a copy.
 */
const FOLD_ENTRIES = new Int32Array(0x10000);

/** Fills block `block` of FOLD_ENTRIES from simpleFold and the class table (the rules of `compactTokens` with folding). */
function fillFoldBlock(block: number): void {
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

/**
 * `compactTokens` with folding and without stop words, in the kernel. When the kernel meets a
 * code point whose fold-table block is not filled yet, or runs out of token room, the block is
 * filled (or the room grown) and the text encoded and tokenized again. Returns -1 when the text
 * needs the full normalization.
 */
function compactTextKernel(e: Engine, kernel: FingerprintKernel, text: string | Uint8Array, len: number, charMode: boolean): number {
  ensureTokenCapacity(e, tokenGuess(len));
  for (let attempt = 0; ; attempt++) {
    const outLength = e.asciiTablePtr + 256;
    const count = kernel.compactText(
      e.inputStart, e.inputStart + len, e.asciiTablePtr, e.foldTablePtr, e.starts.byteOffset, e.ends.byteOffset, e.tokCap, outLength,
      charMode ? 1 : 0,
    );
    if (count >= 0) {
      e.words = count;
      e.compactLength = e.outLength[0];
      return count;
    }
    if (count === -1) return -1;
    if (count === -2) {
      // Every token holds at least 2 input bytes (with its separator, or 3 for a one-character token), but for the first.
      ensureTokenCapacity(e, attempt === 0 ? (len >> 1) + 2 : len + 2);
    } else {
      const block = -3 - count;
      if (FOLD_ENTRIES[block << 8] === 0) fillFoldBlock(block);
      new Int32Array(e.memory, e.foldTablePtr + (block << 10), 256).set(FOLD_ENTRIES.subarray(block << 8, (block + 1) << 8));
    }
    len = typeof text === 'string' ? encodeAt(e, text) : copyNormalized(e, text);
  }
}

/**
 * Puts normalized UTF-8 at e.inputStart, with headroom for the space word mode inserts before a
 * token that touches the previous one (at most one per byte; ASCII never needs it). Folding it
 * again changes nothing (normalizeText is idempotent on every code point), so it never grows.
 */
function copyNormalized(e: Engine, utf8: Uint8Array): number {
  const len = utf8.length;
  e.inputStart = e.ascii ? 8 : len + 8;
  const need = e.inputStart + len + 8;
  if (e.bufCap < need) layout(e, Math.max(need, Math.min(e.bufCap * 2, 4 * need)), 0, false);
  e.buf.set(utf8, e.inputStart);
  return endInput(e, len);
}

/**
 * Tokenizes the encoded input in place: tokens move to the front of buf, joined by one space (word
 * mode) or by one space only where a separator stood (char mode); fills starts/ends; returns the
 * token count (stop words dropped when asked). Runs of ASCII word bytes and of ASCII separators are
 * consumed by tight inner loops; other code points are decoded and looked up in the class table.
 */
function compactTokens(e: Engine, len: number, charMode: boolean, stopWords: boolean, fold: boolean): number {
  ensureTokenCapacity(e, tokenGuess(len));
  let b8 = e.buf;
  let st = e.starts;
  let en = e.ends;
  let cap = e.tokCap;
  const end = e.inputStart + len;
  let r = e.inputStart;
  let w = 0;
  let count = 0;
  let words = 0;
  let state = SEP; // SEP: no open token; 1 (WORD): in a word; SOLO: in a one-character token
  let sawSep = false;
  let joinAt = 0; // write position before the open token's joiner (to undo a stop word)
  let ss = false; // the current code point is ß or ẞ, written as "ss"
  while (r < end) {
    const b = b8[r];
    let v = ASCII_WORD[b];
    if (v !== 0) {
      // ASCII letter or digit
      if (state !== 1) {
        if (state === SOLO) en[count++] = w;
        joinAt = w;
        if (count > 0 && (sawSep || !charMode)) b8[w++] = 0x20;
        sawSep = false;
        if (count === cap) {
          ensureTokenCapacity(e, 2 * cap);
          b8 = e.buf;
          st = e.starts;
          en = e.ends;
          cap = e.tokCap;
        }
        st[count] = w;
        state = 1;
        words++;
      }
      b8[w++] = v;
      r++;
      while (r < end && (v = ASCII_WORD[b8[r]]) !== 0) {
        b8[w++] = v;
        r++;
      }
      continue;
    }
    if (ASCII_SEP[b] !== 0) {
      if (state !== SEP) {
        if (stopWords && isStopWordBytes(b8, st[count], w)) w = joinAt;
        else en[count++] = w;
        state = SEP;
      }
      sawSep = true;
      r++;
      while (r < end && ASCII_SEP[b8[r]] !== 0) r++;
      continue;
    }
    // Non-ASCII: decode one code point (the buffer holds valid UTF-8 from TextEncoder).
    let cp: number;
    let size: number;
    if (b < 0xe0) {
      cp = ((b & 0x1f) << 6) | (b8[r + 1] & 0x3f);
      size = 2;
    } else if (b < 0xf0) {
      cp = ((b & 0x0f) << 12) | ((b8[r + 1] & 0x3f) << 6) | (b8[r + 2] & 0x3f);
      size = 3;
    } else {
      cp = ((b & 0x07) << 18) | ((b8[r + 1] & 0x3f) << 12) | ((b8[r + 2] & 0x3f) << 6) | (b8[r + 3] & 0x3f);
      size = 4;
    }
    if (fold) {
      // Unnormalized input: fold simple code points here; anything else aborts to the full path.
      if (cp >= 0x10000) return -1;
      let f = SIMPLE_FOLD_TABLE[cp];
      if (f === -1) f = simpleFold(cp);
      if (f === FOLDS_TO_SS) {
        cp = 0x73; // written twice below: "ss", never longer than ß (2 bytes) or ẞ (3)
        ss = true;
      } else if (f < 0) return -1;
      else cp = f;
    }
    let cls = CHAR_CLASS_TABLE[cp];
    if (cls === 255) cls = charClass(cp);
    if (cls === SEP) {
      if (state !== SEP) {
        if (stopWords && isStopWordBytes(b8, st[count], w)) w = joinAt;
        else en[count++] = w;
        state = SEP;
      }
      sawSep = true;
      r += size;
      continue;
    }
    if (cls !== MARK || state === SEP) {
      if (cls === SOLO || state !== 1) {
        // A new token starts: close the open one first.
        if (state !== SEP) {
          if (stopWords && isStopWordBytes(b8, st[count], w)) {
            w = joinAt;
            sawSep = true;
          } else en[count++] = w;
        }
        joinAt = w;
        if (count > 0 && (sawSep || !charMode)) b8[w++] = 0x20;
        sawSep = false;
        if (count === cap) {
          ensureTokenCapacity(e, 2 * cap);
          b8 = e.buf;
          st = e.starts;
          en = e.ends;
          cap = e.tokCap;
        }
        st[count] = w;
        state = cls === SOLO ? SOLO : 1;
        words++;
      }
    }
    // (a mark after an open token continues it, whatever its kind)
    r += size;
    // Write the (possibly folded) code point as UTF-8; a fold grows it by at most one byte, which
    // the headroom before the input absorbs (see encodeAt).
    if (cp < 0x80) {
      b8[w++] = cp; // ı folds to i
      if (ss) {
        b8[w++] = cp;
        ss = false;
      }
    } else if (cp < 0x800) {
      b8[w++] = 0xc0 | (cp >> 6);
      b8[w++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      b8[w++] = 0xe0 | (cp >> 12);
      b8[w++] = 0x80 | ((cp >> 6) & 0x3f);
      b8[w++] = 0x80 | (cp & 0x3f);
    } else {
      b8[w++] = 0xf0 | (cp >> 18);
      b8[w++] = 0x80 | ((cp >> 12) & 0x3f);
      b8[w++] = 0x80 | ((cp >> 6) & 0x3f);
      b8[w++] = 0x80 | (cp & 0x3f);
    }
  }
  if (state !== SEP) {
    if (stopWords && isStopWordBytes(b8, st[count], w)) w = joinAt;
    else en[count++] = w;
  }
  e.words = words;
  e.compactLength = w;
  return count;
}

/** Char mode: replaces starts with the code point offsets of buf[0, compactLength) (plus the end); returns the code point count. */
function codePoints(e: Engine): number {
  ensureTokenCapacity(e, e.compactLength + 1);
  return e.kernel.codePoints(e.compactLength, e.starts.byteOffset);
}

/** Slots of a dedupe table for `count` features: a power of two, at least twice the count (<= 50% load). */
function tableBitsFor(count: number): number {
  let bits = 8;
  while (1 << bits < count * 2) bits++;
  return bits;
}

/** Sizes the distinct-feature table for `count` features at <= 50% load and starts a new document in it. */
function resetTable(e: Engine, count: number): void {
  const bits = tableBitsFor(count);
  if (bits > e.tableBits) {
    e.tableBits = bits;
    e.table = new Uint32Array(4 << bits);
    e.docStamp = 0;
  }
  e.tableMask = (1 << bits) - 1;
  e.docStamp++;
  if (e.docStamp === 0xffffffff) {
    e.table.fill(0);
    e.docStamp = 1;
  }
}

/** Hashes features f = buf[starts[f], endArr[f + endOffset]) for f < count into e.hashes, in one call to the kernel. */
function hashFeatures(e: Engine, count: number, endArr: Int32Array, endOffset: number): void {
  e.kernel.hash(e.starts.byteOffset, endArr.byteOffset + 4 * endOffset, count, e.hashes.byteOffset);
}

/**
 * Hashes features f = buf[starts[f], endArr[f + endOffset]) for f < count (endArr: starts in char
 * mode, else ends) and adds their bits to
 * e.bitCounts (with `dedupe`, each distinct feature once) with the kernel's `hash` and `tally`
 * (byte-sliced i64 counters). Returns how many features counted.
 */
function hashAndCount(e: Engine, count: number, charMode: boolean, endOffset: number, dedupe: boolean): number {
  const kernel = e.kernel;
  // The table is sized for the largest document so far; this document uses a part sized for it.
  const bits = tableBitsFor(count);
  if (dedupe && bits > e.tallyBits) layout(e, 0, 0, true, bits);
  const partitioned = dedupe && count > PARTITION_ABOVE && e.tokCap >= count;
  // This document's part of the table starts empty (zeroing 16 bytes per feature beats stamping every slot).
  if (dedupe && !partitioned) new Uint8Array(e.memory, e.tallyPtr, 8 << bits).fill(0);
  const counters = e.counters;
  counters.fill(0);
  const endArr = charMode ? e.starts : e.ends;
  kernel.hash(e.starts.byteOffset, endArr.byteOffset + 4 * endOffset, count, e.hashes.byteOffset);
  const total = partitioned
      ? tallyPartitioned(e, kernel, count)
      : kernel.tally(e.hashes.byteOffset, count, e.tallyPtr, (1 << bits) - 1, counters.byteOffset, dedupe ? 1 : 0);
  const bitCounts = e.bitCounts;
  for (let i = 0; i < 64; i++) bitCounts[i] += counters[i];
  return total;
}

/** Documents with more features than this dedupe them in partitions (see `tallyPartitioned`). */
const PARTITION_ABOVE = 1 << 16;
/** Features per partition aimed at: its dedupe table (2x, 8 bytes a slot) then stays within 256 KB. */
const PARTITION_SIZE = 1 << 14;

/**
 * Dedupes and counts a large document's hashes (already in e.hashes) partition by partition: the
 * hashes are grouped by their top bits into the token arrays (free once the features are hashed),
 * then each group is tallied with a table sized for it, which stays in cache, instead of probing
 * one table of 16 bytes per feature at random. Equal hashes fall in the same group, so the
 * distinct features and their bits are the same. Returns how many features counted.
 */
function tallyPartitioned(e: Engine, kernel: FingerprintKernel, count: number): number {
  let p = 1;
  while (count >>> p > PARTITION_SIZE && p < 16) p++;
  const shift = 32 - p;
  const hashes = e.hashes;
  const sizes = new Int32Array((1 << p) + 1);
  for (let f = 0; f < count; f++) sizes[(hashes[2 * f + 1] >>> shift) + 1]++;
  for (let k = 1; k <= 1 << p; k++) sizes[k] += sizes[k - 1]; // sizes[k] = where group k starts
  const groupStart = sizes.slice();
  const grouped = new Uint32Array(e.memory, e.starts.byteOffset, 2 * count);
  for (let f = 0; f < count; f++) {
    const hi = hashes[2 * f + 1];
    const at = 2 * sizes[hi >>> shift]++;
    grouped[at] = hashes[2 * f];
    grouped[at + 1] = hi;
  }
  const table = new Uint8Array(e.memory, e.tallyPtr, 8 << e.tallyBits);
  let total = 0;
  for (let k = 0; k < 1 << p; k++) {
    const n = groupStart[k + 1] - groupStart[k];
    if (n === 0) continue;
    const bits = tableBitsFor(n);
    table.fill(0, 0, 8 << bits);
    total += kernel.tally(grouped.byteOffset + 8 * groupStart[k], n, e.tallyPtr, (1 << bits) - 1, e.counters.byteOffset, 1);
  }
  return total;
}

/**
 * counts[8 j + b] += the sum of buckets[256 j + v] over the byte values v with bit b set, by folding
 * each 256-bucket row in halves: the upper half's sum is bit 7's count, then the upper half is
 * added onto the lower one (bit 7 no longer matters) and bit 6 comes from the new upper half, and
 * so on: 255 additions per row instead of 8 per bucket. Leaves the buckets scrambled.
 */
function spreadBuckets(buckets: Uint32Array | Float64Array, counts: Float64Array): void {
  for (let j = 0; j < 8; j++) {
    const row = 256 * j;
    for (let half = 128, bit = 7; half >= 1; half >>= 1, bit--) {
      let sum = 0;
      for (let u = 0; u < half; u++) {
        const x = buckets[row + half + u];
        sum += x;
        buckets[row + u] += x;
      }
      counts[8 * j + bit] += sum;
    }
  }
}

/**
 * Records every hashed feature in the distinct-feature table only (for tf-idf and feature sets),
 * listing the slots it fills in e.used; returns how many distinct features there are.
 */
function tableFeatures(e: Engine, count: number): number {
  const hashes = e.hashes;
  const table = e.table;
  const mask = e.tableMask;
  const ds = e.docStamp;
  if (e.used.length < count) e.used = new Int32Array(Math.max(count, 2 * e.used.length));
  const used = e.used;
  let distinct = 0;
  for (let f = 0; f < count; f++) {
    const lo = hashes[2 * f];
    const hi = hashes[2 * f + 1];
    let slot = (lo & mask) << 2;
    for (;;) {
      if (table[slot] !== ds) {
        table[slot] = ds;
        table[slot + 1] = hi;
        table[slot + 2] = lo;
        table[slot + 3] = 1;
        used[distinct++] = slot;
        break;
      }
      if (table[slot + 2] === lo && table[slot + 1] === hi) {
        table[slot + 3]++;
        break;
      }
      slot = (slot + 4) & ((mask << 2) | 3);
    }
  }
  return distinct;
}

/** Radix sort scratch: a second key buffer and the byte counts, grown on demand. */
let radixScratch = new Uint32Array(1024);
const radixCounts = new Int32Array(256);

/**
 * The low halves hashes[2f] for f < count, sorted ascending (with repeats): an LSD radix sort by
 * bytes, which beats TypedArray#sort on these short arrays of uniformly spread keys.
 */
function sortLowHalves(hashes: Uint32Array, count: number): Uint32Array {
  let a = new Uint32Array(count);
  for (let f = 0; f < count; f++) a[f] = hashes[2 * f];
  if (count < 64) return a.sort();
  // The scratch is kept for documents up to 2^20 features (4 MB); a larger one gets its own.
  if (radixScratch.length < count && count <= 1 << 20) radixScratch = new Uint32Array(Math.min(1 << 20, Math.max(count, 2 * radixScratch.length)));
  let b = radixScratch.length >= count ? radixScratch : new Uint32Array(count);
  const counts = radixCounts;
  for (let shift = 0; shift < 32; shift += 8) {
    counts.fill(0);
    for (let i = 0; i < count; i++) counts[(a[i] >>> shift) & 0xff]++;
    let at = 0;
    for (let v = 0; v < 256; v++) {
      const c = counts[v];
      counts[v] = at;
      at += c;
    }
    for (let i = 0; i < count; i++) {
      const x = a[i];
      b[counts[(x >>> shift) & 0xff]++] = x;
    }
    const t = a;
    a = b;
    b = t;
  }
  // After four passes the sorted keys are back in the array first filled.
  return a;
}

/**
 * Creates a fingerprinter for `settings`. Throws a RangeError for invalid settings, or when the
 * weights are 'tfidf' and no `documentFrequencies` are given.
 */
export function createFingerprinter(settings: SimHashSettings, options: FingerprinterOptions = {}): Fingerprinter {
  validateSettings(settings);
  const frozen: SimHashSettings = Object.freeze({
    features: Object.freeze({ ...settings.features }),
    weights: settings.weights,
    stopWords: settings.stopWords,
  });
  let dfTable: DocumentFrequencyTable | null = null;
  if (settings.weights === 'tfidf') {
    if (!options.documentFrequencies) {
      throw new RangeError('tfidf weights need the corpus document frequencies (options.documentFrequencies)');
    }
    dfTable = createDocumentFrequencyTable(options.documentFrequencies);
  }
  const charMode = settings.features.kind === 'char-ngram';
  const n = settings.features.kind === 'word' ? 1 : settings.features.n;
  const stopWords = settings.stopWords;
  const weights = settings.weights;
  let e = createEngine();
  /** After a huge document, start over with small buffers: WASM memory never shrinks, a new instance's does not exist yet. */
  function release(): void {
    if (e.memory.byteLength > RELEASE_BYTES) e = createEngine();
  }

  /** Encodes and tokenizes; returns the number of features (0 when too short). */
  function prepare(text: string): number {
    const len = encode(e, text);
    let tokens: number;
    if (e.ascii) {
      tokens = compactAscii(e, len, stopWords);
      // The kernel ran out of token room (tokens shorter than the guess): again, with room for all.
      if (tokens < 0) tokens = compactAscii(e, encodeAt(e, text), stopWords);
    } else {
      // Fold while tokenizing if every non-ASCII code point is simple, else normalize the whole text.
      tokens = !stopWords ? compactTextKernel(e, e.kernel, text, len, charMode) : compactTokens(e, len, charMode, stopWords, true);
      if (tokens < 0) tokens = compactTokens(e, encodeAt(e, normalizeText(text)), charMode, stopWords, false);
    }
    return featureCount(tokens);
  }

  /** `prepare` for text that is normalized already, given as its UTF-8. */
  function prepareNormalized(utf8: Uint8Array, ascii: boolean): number {
    e.ascii = ascii;
    const len = copyNormalized(e, utf8);
    let tokens: number;
    if (ascii) {
      tokens = compactAscii(e, len, stopWords);
      // The kernel ran out of token room and overwrote part of the input: copy it again.
      if (tokens < 0) tokens = compactAscii(e, copyNormalized(e, utf8), stopWords);
    } else {
      // The kernel's folding tokenizer, where it can (folding normalized text changes nothing); else JavaScript's.
      tokens = !stopWords ? compactTextKernel(e, e.kernel, utf8, len, charMode) : -1;
      if (tokens < 0) tokens = compactTokens(e, copyNormalized(e, utf8), charMode, stopWords, false);
    }
    return featureCount(tokens);
  }

  function featureCount(tokens: number): number {
    if (charMode) return Math.max(0, codePoints(e) - n + 1);
    return Math.max(0, tokens - n + 1);
  }
  // Feature f spans buf[starts[f], endArray()[f + endOffset]).
  const endOffset = charMode ? n : n - 1;
  const endArray = () => (charMode ? e.starts : e.ends);

  // The last fingerprint's halves (set by bitsFromCounts and tfidfBits; no array per document).
  let outHi = 0;
  let outLo = 0;

  /** Bit i set iff (documents with bit i) - (without) > 0, i.e. 2 * count > total. */
  function bitsFromCounts(total: number): void {
    const c = e.bitCounts;
    let hi = 0;
    let lo = 0;
    for (let i = 0; i < 32; i++) {
      if (2 * c[i] > total) lo |= 1 << i;
      if (2 * c[i + 32] > total) hi |= 1 << i;
    }
    outHi = hi >>> 0;
    outLo = lo >>> 0;
  }

  // idf by document frequency, memoized for the common small frequencies (Math.log per feature is slow).
  const idfCache = new Float64Array(4096).fill(-1);
  function idfOf(df: number): number {
    if (df < 4096) {
      const cached = idfCache[df];
      if (cached >= 0) return cached;
      return (idfCache[df] = inverseDocumentFrequency(dfTable!.documents, df));
    }
    return inverseDocumentFrequency(dfTable!.documents, df);
  }

  /**
   * TF-IDF bits without 64 additions per feature: each feature's weight is added to one of 256
   * buckets per hash byte (8 additions), and only then spread over the bits of each bucket's byte
   * value. Weights are integers (WEIGHT_SCALE), so the sums are exact in any order.
   */
  const byteSums = new Float64Array(8 * 256);
  function tfidfBits(distinct: number): void {
    const df = dfTable!;
    const table = e.table;
    const used = e.used;
    byteSums.fill(0);
    let total = 0;
    for (let u = 0; u < distinct; u++) {
      const at = used[u];
      const hi = table[at + 1];
      const lo = table[at + 2];
      const w = Math.round(table[at + 3] * idfOf(df.get(lo)) * WEIGHT_SCALE);
      total += w;
      byteSums[lo & 0xff] += w;
      byteSums[256 + ((lo >>> 8) & 0xff)] += w;
      byteSums[512 + ((lo >>> 16) & 0xff)] += w;
      byteSums[768 + (lo >>> 24)] += w;
      byteSums[1024 + (hi & 0xff)] += w;
      byteSums[1280 + ((hi >>> 8) & 0xff)] += w;
      byteSums[1536 + ((hi >>> 16) & 0xff)] += w;
      byteSums[1792 + (hi >>> 24)] += w;
    }
    // set[i] = total weight of features with bit i; the bit's sum is set - (total - set).
    const set = e.bitCounts;
    set.fill(0);
    spreadBuckets(byteSums, set);
    let h = 0;
    let l = 0;
    for (let i = 0; i < 32; i++) {
      if (2 * set[i] > total) l |= 1 << i;
      if (2 * set[i + 32] > total) h |= 1 << i;
    }
    outHi = h >>> 0;
    outLo = l >>> 0;
  }

  return {
    settings: frozen,
    fingerprint(text: string): FingerprintResult {
      return fingerprintPrepared(prepare(text));
    },
    featureSet(text: string): Uint32Array {
      return featureSetPrepared(prepare(text));
    },
    fingerprintNormalized(utf8: Uint8Array, ascii: boolean): FingerprintResult {
      return fingerprintPrepared(prepareNormalized(utf8, ascii));
    },
    featureSetNormalized(utf8: Uint8Array, ascii: boolean): Uint32Array {
      return featureSetPrepared(prepareNormalized(utf8, ascii));
    },
    fingerprintNormalizedWithSet(utf8: Uint8Array, ascii: boolean, setBelowWords: number) {
      const count = prepareNormalized(utf8, ascii);
      const print = fingerprintHashed(count);
      // Every weighting left the features' hashes in e.hashes.
      const set = print.words < setBelowWords ? (count === 0 ? new Uint32Array(0) : distinctLowHalves(count)) : null;
      release();
      return { ...print, set };
    },
  };

  /** The fingerprint of the document `prepare` left in the engine (`count` features). */
  function fingerprintPrepared(count: number): FingerprintResult {
    const print = fingerprintHashed(count);
    release();
    return print;
  }

  /** fingerprintPrepared, leaving the engine as it is: the features' hashes stay in e.hashes. */
  function fingerprintHashed(count: number): FingerprintResult {
    const words = e.words;
    if (count === 0) return { status: 'too-short', hi: 0, lo: 0, features: 0, words };
    e.bitCounts.fill(0);
    if (weights === 'binary') {
      resetTable(e, count);
      bitsFromCounts(hashAndCount(e, count, charMode, endOffset, true));
    } else if (weights === 'tf') {
      bitsFromCounts(hashAndCount(e, count, charMode, endOffset, false));
    } else {
      resetTable(e, count);
      hashFeatures(e, count, endArray(), endOffset);
      tfidfBits(tableFeatures(e, count));
    }
    return { status: 'ok', hi: outHi, lo: outLo, features: count, words };
  }

  /** The feature set of the document `prepare` left in the engine (`count` features). */
  function featureSetPrepared(count: number): Uint32Array {
    if (count === 0) {
      release();
      return new Uint32Array(0);
    }
    hashFeatures(e, count, endArray(), endOffset);
    const set = distinctLowHalves(count);
    release();
    return set;
  }

  /** The feature set from the `count` hashes in e.hashes. */
  function distinctLowHalves(count: number): Uint32Array {
    // The keys are the low halves of the hashes: sorting all of them and keeping each once gives
    // the distinct ones, without a table.
    const out = sortLowHalves(e.hashes, count);
    // Two distinct 64-bit hashes may share their low half: keep each key once.
    let m = 0;
    for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[m - 1]) out[m++] = out[i];
    return m === out.length ? out : out.slice(0, m);
  }
}
