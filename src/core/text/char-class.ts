/**
 * Character classes for tokenization: which code points form words, which continue the current
 * token (combining marks), and which are tokens on their own (scripts written without spaces, emoji).
 *
 * Classes are looked up in a table per code point; non-ASCII blocks of 256 code points are filled
 * lazily from Unicode property regexes the first time a character of the block is seen, so startup
 * stays cheap and the hot loop does one array read per character.
 */

/** Not part of any token (spaces, punctuation, symbols, controls, unassigned). */
export const SEP = 0;
/**
 * A letter, digit or connector that extends a word (Unicode L, N, or Pc: `_` and the other connector
 * punctuation, UAX #29's ExtendNumLet), so `pip_cache` is one word, as Unicode's word rules, ICU's
 * word segmenter and `\w` all have it.
 */
export const WORD = 1;
/** A combining mark (Unicode M): continues the current token; starts a word if there is none. */
export const MARK = 2;
/** A token by itself: each letter of Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar, Tibetan, Yi; each pictographic emoji. */
export const SOLO = 3;
/** Table value of a block that is not yet filled. */
const UNKNOWN = 255;

const MARK_RE = /^\p{M}$/u;
const SPACELESS_RE =
  /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}\p{scx=Tibetan}\p{scx=Yi}]$/u;
const PICTOGRAPHIC_RE = /^\p{Extended_Pictographic}$/u;
const WORD_RE = /^[\p{L}\p{N}\p{Pc}]$/u;

/** Class of each code point; UNKNOWN until its block is filled. */
const table = new Uint8Array(0x110000).fill(UNKNOWN);

/** Classifies one code point from the Unicode properties (slow; used to fill the table). */
function classifyByProperties(cp: number): number {
  if (cp >= 0xd800 && cp <= 0xdfff) return SEP; // lone surrogate halves are never text
  const ch = String.fromCodePoint(cp);
  if (MARK_RE.test(ch)) return MARK;
  if (WORD_RE.test(ch)) return SPACELESS_RE.test(ch) ? SOLO : WORD;
  // Extended_Pictographic, not Emoji: '#', '*' and the digits are Emoji but must stay what they are.
  if (PICTOGRAPHIC_RE.test(ch)) return SOLO;
  return SEP;
}

function fillBlock(block: number): void {
  const start = block << 8;
  for (let cp = start; cp < start + 256; cp++) table[cp] = classifyByProperties(cp);
}

fillBlock(0); // ASCII and Latin-1 are always needed

/** Class of a code point (SEP, WORD, MARK or SOLO). */
export function charClass(cp: number): number {
  const c = table[cp];
  if (c !== UNKNOWN) return c;
  fillBlock(cp >>> 8);
  return table[cp];
}

/** The class table itself, for hot loops that inline `charClass`: UNKNOWN (255) means call `charClass`. */
export const CHAR_CLASS_TABLE: Uint8Array = table;
