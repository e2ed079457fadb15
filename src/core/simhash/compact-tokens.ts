/**
 * The fingerprinter's tokenizers: each moves the tokens of the encoded input, folded and joined as
 * "w1 w2 w3 ...", to the front of the same buffer and records their bounds, so every feature is
 * one contiguous byte range. The kernel tokenizes ASCII text and text of simple characters without
 * stop words; JavaScript does stop words and text normalized as a whole.
 */
import { normalizeText } from '../text/normalize.ts';
import { CHAR_CLASS_TABLE, charClass, MARK, SEP, SOLO } from '../text/char-class.ts';
import { FOLDS_TO_SS, NOT_SIMPLE, SIMPLE_FOLD_TABLE, simpleFold } from '../text/simple-fold.ts';
import type { FingerprintKernel } from './fingerprint-kernel.ts';
import {
  ASCII_SEP, ASCII_WORD, copyNormalized, encode, encodeAt, ensureTokenCapacity, FOLD_ENTRIES, fillFoldBlock, tokenGuess, type Engine,
} from './fingerprint-engine.ts';
import { isStopWordBytes } from './stop-word-bytes.ts';

/**
 * `compactTokens` for pure ASCII input, where every token is a run of ASCII letters and digits and
 * tokens are always separated, so word and char mode both join them by one space: the same result
 * with two tight loops per token and no state machine.
 */
export function compactAscii(e: Engine, len: number, stopWords: boolean): number {
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
 * `compactTokens` with folding and without stop words, in the kernel. When the kernel meets a
 * code point whose fold-table block is not filled yet, or runs out of token room, the block is
 * filled (or the room grown) and the text encoded and tokenized again. Returns -1 when the text
 * needs the full normalization.
 */
export function compactTextKernel(e: Engine, kernel: FingerprintKernel, text: string | Uint8Array, len: number, charMode: boolean): number {
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
 * Tokenizes the encoded input in place: tokens move to the front of buf, joined by one space (word
 * mode) or by one space only where a separator stood (char mode); fills starts/ends; returns the
 * token count (stop words dropped when asked). Runs of ASCII word bytes and of ASCII separators are
 * consumed by tight inner loops; other code points are decoded and looked up in the class table.
 */
export function compactTokens(e: Engine, len: number, charMode: boolean, stopWords: boolean, fold: boolean): number {
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
    const size = b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    let cp = decodeAt(b8, r, b);
    if (fold) {
      // Unnormalized input: fold simple code points here; anything else aborts to the full path.
      const f = cp >= 0x10000 ? NOT_SIMPLE : SIMPLE_FOLD_TABLE[cp] === -1 ? simpleFold(cp) : SIMPLE_FOLD_TABLE[cp];
      ss = f === FOLDS_TO_SS; // then written twice: "ss", never longer than ß (2 bytes) or ẞ (3)
      if (f < 0 && !ss) return -1;
      cp = ss ? 0x73 : f;
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
    w = writeUtf8(b8, w, cp, ss);
    ss = false;
  }
  if (state !== SEP) {
    if (stopWords && isStopWordBytes(b8, st[count], w)) w = joinAt;
    else en[count++] = w;
  }
  e.words = words;
  e.compactLength = w;
  return count;
}

/** The code point whose UTF-8 starts at b8[r] (lead byte b; the buffer holds valid UTF-8 from TextEncoder). */
function decodeAt(b8: Uint8Array, r: number, b: number): number {
  if (b < 0xe0) return ((b & 0x1f) << 6) | (b8[r + 1] & 0x3f);
  if (b < 0xf0) return ((b & 0x0f) << 12) | ((b8[r + 1] & 0x3f) << 6) | (b8[r + 2] & 0x3f);
  return ((b & 0x07) << 18) | ((b8[r + 1] & 0x3f) << 12) | ((b8[r + 2] & 0x3f) << 6) | (b8[r + 3] & 0x3f);
}

/** Writes cp as UTF-8 at b8[w] (twice when `twice`: ß and ẞ fold to "ss"); returns the new write position. */
function writeUtf8(b8: Uint8Array, w: number, cp: number, twice: boolean): number {
  if (cp < 0x80) {
    b8[w++] = cp; // ı folds to i
    if (twice) b8[w++] = cp;
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
  return w;
}

/** Char mode: replaces starts with the code point offsets of buf[0, compactLength) (plus the end); returns the code point count. */
export function codePoints(e: Engine): number {
  ensureTokenCapacity(e, e.compactLength + 1);
  return e.kernel.codePoints(e.compactLength, e.starts.byteOffset);
}

/** Encodes and tokenizes `text`; returns the token count (see `featureCount`). */
export function tokenizeText(e: Engine, text: string, charMode: boolean, stopWords: boolean): number {
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
  return tokens;
}

/** `tokenizeText` for text that is normalized already, given as its UTF-8. */
export function tokenizeNormalized(e: Engine, utf8: Uint8Array, ascii: boolean, charMode: boolean, stopWords: boolean): number {
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
  return tokens;
}

/** How many features `tokens` tokens make (char mode: from the code points), 0 when too short. */
export function featureCount(e: Engine, tokens: number, charMode: boolean, n: number): number {
  if (charMode) return Math.max(0, codePoints(e) - n + 1);
  return Math.max(0, tokens - n + 1);
}
