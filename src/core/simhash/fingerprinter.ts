/**
 * Text to 64-bit SimHash fingerprints: the fused hot path that normalizes, tokenizes, cuts features,
 * hashes them with XXH64 and sums their bits, on reusable typed arrays with no allocation per token.
 *
 * Exact definition (tests hold it equal to the string-level reference built from normalize.ts and
 * tokenize.ts and to xxhash-wasm's h64):
 * - text is normalized by `normalizeText` (NFKC + case folding; ASCII text is only lowercased) and
 *   encoded to UTF-8 once;
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
 * To avoid a copy per token, the compaction of tokens into "w1 w2 w3 ..." happens in place in the
 * UTF-8 buffer (the write position never passes the read position), so each shingle is one
 * contiguous byte range that is hashed directly.
 */
import { normalizeText } from '../text/normalize.ts';
import { CHAR_CLASS_TABLE, charClass, MARK, SEP, SOLO } from '../text/char-class.ts';
import { ENGLISH_STOP_WORDS } from '../text/stop-words.ts';
import { xxh64Range, xxhOut } from './xxh64.ts';
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
};

const encoder = new TextEncoder();
/** Features per SWAR batch: each 8-bit lane counts at most 255 before it is flushed. */
const SWAR_BATCH = 255;
/** TF-IDF weights are rounded to multiples of 2^-20 so that float sums are exact. */
const WEIGHT_SCALE = 1 << 20;

/**
 * SWAR expansion: EXPAND[2v] / EXPAND[2v + 1] spread bits 0-3 / 4-7 of byte v into the four 8-bit
 * lanes of a uint32, so adding them counts, per bit position, how many hashes had that bit set.
 */
const EXPAND = new Uint32Array(512);
for (let v = 0; v < 256; v++) {
  let low = 0;
  let high = 0;
  for (let t = 0; t < 4; t++) {
    if (v & (1 << t)) low |= 1 << (8 * t);
    if (v & (1 << (t + 4))) high |= 1 << (8 * t);
  }
  EXPAND[2 * v] = low >>> 0;
  EXPAND[2 * v + 1] = high >>> 0;
}

/** ASCII byte → class (SEP or WORD). */
const ASCII_CLASS = new Uint8Array(128);
/** ASCII byte → its lowercase. */
const ASCII_LOWER = new Uint8Array(128);
for (let b = 0; b < 128; b++) {
  ASCII_CLASS[b] = charClass(b);
  ASCII_LOWER[b] = b >= 65 && b <= 90 ? b + 32 : b;
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

  // Reusable buffers, grown on demand and never shrunk.
  let buf = new Uint8Array(1 << 16);
  let view = new DataView(buf.buffer);
  let starts = new Int32Array(1 << 12); // token i = buf[starts[i], ends[i]); char mode: code point starts
  let ends = new Int32Array(1 << 12);
  // Distinct-feature table (open addressing); a slot is live iff stamp[slot] === docStamp, so it needs
  // no clearing between documents.
  let tableBits = 12;
  let keyHi = new Uint32Array(1 << tableBits);
  let keyLo = new Uint32Array(1 << tableBits);
  let stamp = new Uint32Array(1 << tableBits);
  let tally = new Uint32Array(1 << tableBits);
  let docStamp = 0;
  let tableSize = 0;
  const bitCounts = new Float64Array(64);
  const lanes = new Uint32Array(16);

  /**
   * Encodes (and if needed normalizes) text into buf at `inputStart`; returns the byte length.
   * The input sits text.length bytes + 8 from the front because word mode may insert one space per
   * one-character token (in "東京" between 東 and 京), at most one per UTF-16 unit: so the in-place
   * compaction writing from 0 never overtakes the bytes it still has to read.
   */
  function encode(text: string): number {
    const written = encodeAt(text);
    if (written === text.length) return written; // ASCII: lowered in the compaction loop
    return encodeAt(normalizeText(text));
  }
  let inputStart = 0;
  function encodeAt(text: string): number {
    inputStart = text.length + 8;
    const need = inputStart + text.length * 3 + 8;
    if (buf.length < need) {
      buf = new Uint8Array(Math.max(need, buf.length * 2));
      view = new DataView(buf.buffer);
    }
    return encoder.encodeInto(text, buf.subarray(inputStart)).written;
  }

  function ensureTokenCapacity(count: number): void {
    if (starts.length >= count) return;
    const size = Math.max(count, starts.length * 2);
    starts = new Int32Array(size);
    ends = new Int32Array(size);
  }

  let wordCount = 0;
  let compactLength = 0;

  /**
   * Tokenizes buf[0, len) in place: tokens are moved to the front, joined by one space (word mode)
   * or by one space where a separator stood (char mode); fills starts/ends; returns the token count.
   */
  function compact(len: number): number {
    // At most one token per input byte, plus one.
    ensureTokenCapacity(len + 1);
    const b8 = buf;
    const st = starts;
    const en = ends;
    let w = 0;
    let count = 0;
    let words = 0;
    const end = inputStart + len;
    let state = SEP; // SEP: no open token; 1 (WORD): in a word; SOLO: in a one-character token
    let sawSep = false;
    let joinAt = 0; // write position before the current token's joiner (to undo a stop word)
    let r = inputStart;
    while (r < end) {
      const b = b8[r];
      if (b < 0x80) {
        if (ASCII_CLASS[b] !== SEP) {
          if (state !== 1) {
            if (state === SOLO) {
              en[count++] = w;
              state = SEP;
            }
            joinAt = w;
            if (count > 0 && (!charMode || sawSep)) b8[w++] = 0x20;
            sawSep = false;
            st[count] = w;
            state = 1;
            words++;
          }
          b8[w++] = ASCII_LOWER[b];
        } else {
          if (state !== SEP) {
            if (stopWords && isStopWordBytes(b8, st[count], w)) w = joinAt;
            else en[count++] = w;
            state = SEP;
          }
          sawSep = true;
        }
        r++;
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
      if (cls === MARK && state !== SEP) {
        // continues the open token, whatever its kind
      } else if (cls === SOLO || state !== 1) {
        // a new token starts: close the open one first
        if (state !== SEP) {
          if (stopWords && isStopWordBytes(b8, st[count], w)) {
            w = joinAt;
            sawSep = true;
          } else en[count++] = w;
        }
        joinAt = w;
        if (count > 0 && (!charMode || sawSep)) b8[w++] = 0x20;
        sawSep = false;
        st[count] = w;
        state = cls === SOLO ? SOLO : 1;
        words++;
      }
      for (let k = 0; k < size; k++) b8[w++] = b8[r + k];
      r += size;
    }
    if (state !== SEP) {
      if (stopWords && isStopWordBytes(b8, st[count], w)) w = joinAt;
      else en[count++] = w;
    }
    wordCount = words;
    compactLength = w;
    return count;
  }

  /** Char mode: replaces the token bounds with code point starts over buf[0, compactLength); returns the code point count. */
  function codePoints(): number {
    ensureTokenCapacity(compactLength + 1);
    const b8 = buf;
    const st = starts;
    let c = 0;
    for (let i = 0; i < compactLength; i++) if ((b8[i] & 0xc0) !== 0x80) st[c++] = i;
    st[c] = compactLength;
    return c;
  }

  /** Makes the distinct-feature table hold `count` features at <= 50% load and starts a new document. */
  function resetTable(count: number): void {
    let bits = tableBits;
    while (1 << bits < count * 2) bits++;
    if (bits !== tableBits) {
      tableBits = bits;
      keyHi = new Uint32Array(1 << bits);
      keyLo = new Uint32Array(1 << bits);
      stamp = new Uint32Array(1 << bits);
      tally = new Uint32Array(1 << bits);
      docStamp = 0;
    }
    docStamp++;
    if (docStamp === 0xffffffff) {
      stamp.fill(0);
      docStamp = 1;
    }
    tableSize = 0;
  }

  /**
   * Inserts the hash in xxhOut into the distinct-feature table; returns true if it was new.
   * The table's tally counts occurrences (for tf-idf).
   */
  function insertHash(hi: number, lo: number): boolean {
    const mask = (1 << tableBits) - 1;
    let slot = lo & mask;
    for (;;) {
      if (stamp[slot] !== docStamp) {
        stamp[slot] = docStamp;
        keyHi[slot] = hi;
        keyLo[slot] = lo;
        tally[slot] = 1;
        tableSize++;
        return true;
      }
      if (keyLo[slot] === lo && keyHi[slot] === hi) {
        tally[slot]++;
        return false;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Number of features and the arrays/offset that bound them: feature f = buf[starts[f], ends2[f + endOffset]). */
  function prepare(text: string): number {
    const len = encode(text);
    const tokens = compact(len);
    if (charMode) {
      const cps = codePoints();
      return Math.max(0, cps - n + 1);
    }
    return Math.max(0, tokens - n + 1);
  }

  function flushLanes(): void {
    for (let q = 0; q < 16; q++) {
      const v = lanes[q];
      if (v === 0) continue;
      bitCounts[4 * q] += v & 0xff;
      bitCounts[4 * q + 1] += (v >>> 8) & 0xff;
      bitCounts[4 * q + 2] += (v >>> 16) & 0xff;
      bitCounts[4 * q + 3] += v >>> 24;
      lanes[q] = 0;
    }
  }

  function addLanes(hi: number, lo: number): void {
    lanes[0] += EXPAND[(lo & 0xff) << 1];
    lanes[1] += EXPAND[((lo & 0xff) << 1) | 1];
    lanes[2] += EXPAND[((lo >>> 8) & 0xff) << 1];
    lanes[3] += EXPAND[(((lo >>> 8) & 0xff) << 1) | 1];
    lanes[4] += EXPAND[((lo >>> 16) & 0xff) << 1];
    lanes[5] += EXPAND[(((lo >>> 16) & 0xff) << 1) | 1];
    lanes[6] += EXPAND[(lo >>> 24) << 1];
    lanes[7] += EXPAND[((lo >>> 24) << 1) | 1];
    lanes[8] += EXPAND[(hi & 0xff) << 1];
    lanes[9] += EXPAND[((hi & 0xff) << 1) | 1];
    lanes[10] += EXPAND[((hi >>> 8) & 0xff) << 1];
    lanes[11] += EXPAND[(((hi >>> 8) & 0xff) << 1) | 1];
    lanes[12] += EXPAND[((hi >>> 16) & 0xff) << 1];
    lanes[13] += EXPAND[(((hi >>> 16) & 0xff) << 1) | 1];
    lanes[14] += EXPAND[(hi >>> 24) << 1];
    lanes[15] += EXPAND[((hi >>> 24) << 1) | 1];
  }

  /** Hashes all features of the prepared document into the table (and, unless tf-idf, the bit counts); returns the total weight. */
  function hashFeatures(count: number, dedupe: boolean, countBits: boolean): number {
    const endArr = charMode ? starts : ends;
    const endOffset = charMode ? n : n - 1;
    let pending = 0;
    let total = 0;
    for (let f = 0; f < count; f++) {
      xxh64Range(buf, view, starts[f], endArr[f + endOffset]);
      const hi = xxhOut[0];
      const lo = xxhOut[1];
      if (dedupe && !insertHash(hi, lo)) continue;
      if (!countBits) continue;
      addLanes(hi, lo);
      total++;
      if (++pending === SWAR_BATCH) {
        flushLanes();
        pending = 0;
      }
    }
    flushLanes();
    return total;
  }

  function bitsFromCounts(total: number): void {
    // bit set iff (set - unset) > 0, i.e. 2 * set > total
    let hi = 0;
    let lo = 0;
    for (let i = 0; i < 32; i++) {
      if (2 * bitCounts[i] > total) lo |= 1 << i;
      if (2 * bitCounts[i + 32] > total) hi |= 1 << i;
    }
    outHi = hi >>> 0;
    outLo = lo >>> 0;
  }
  let outHi = 0;
  let outLo = 0;

  function tfidfBits(): void {
    const table = dfTable!;
    const sums = bitCounts; // reused as signed sums
    const size = 1 << tableBits;
    for (let slot = 0; slot < size; slot++) {
      if (stamp[slot] !== docStamp) continue;
      const lo = keyLo[slot];
      const hi = keyHi[slot];
      const idf = inverseDocumentFrequency(table.documents, table.get(lo));
      const w = Math.round(tally[slot] * idf * WEIGHT_SCALE);
      for (let i = 0; i < 32; i++) {
        sums[i] += (lo >>> i) & 1 ? w : -w;
        sums[i + 32] += (hi >>> i) & 1 ? w : -w;
      }
    }
    let h = 0;
    let l = 0;
    for (let i = 0; i < 32; i++) {
      if (sums[i] > 0) l |= 1 << i;
      if (sums[i + 32] > 0) h |= 1 << i;
    }
    outHi = h >>> 0;
    outLo = l >>> 0;
  }

  return {
    settings: frozen,
    fingerprint(text: string): FingerprintResult {
      const count = prepare(text);
      const words = wordCount;
      if (count === 0) return { status: 'too-short', hi: 0, lo: 0, features: 0, words };
      bitCounts.fill(0);
      if (weights === 'binary') {
        resetTable(count);
        const distinct = hashFeatures(count, true, true);
        bitsFromCounts(distinct);
      } else if (weights === 'tf') {
        const total = hashFeatures(count, false, true);
        bitsFromCounts(total);
      } else {
        resetTable(count);
        hashFeatures(count, true, false);
        tfidfBits();
      }
      return { status: 'ok', hi: outHi, lo: outLo, features: count, words };
    },
    featureSet(text: string): Uint32Array {
      const count = prepare(text);
      if (count === 0) return new Uint32Array(0);
      resetTable(count);
      hashFeatures(count, true, false);
      const out = new Uint32Array(tableSize);
      const size = 1 << tableBits;
      let k = 0;
      for (let slot = 0; slot < size; slot++) if (stamp[slot] === docStamp) out[k++] = keyLo[slot];
      out.sort();
      // Two distinct 64-bit hashes may share their low half: keep each key once.
      let m = 0;
      for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[m - 1]) out[m++] = out[i];
      return m === out.length ? out : out.slice(0, m);
    },
  };
}
