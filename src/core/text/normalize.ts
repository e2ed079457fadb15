/**
 * Text normalization before tokenizing: Unicode NFKC plus locale-independent case folding, so
 * "Ｆｉｌｅ", "FILE" and "file" (and "Straße", "STRASSE", "strasse") are the same word everywhere.
 */

const NON_ASCII = /[^\x00-\x7f]/;
const FINAL_SIGMA = /ς/g;

/**
 * The code points whose lowercase differs from the lowercase of their uppercase (ß, ŉ, ǰ, Greek
 * letters with ypogegrammeni or with special upper forms, ligatures, ...): only text containing one of
 * them needs the costly toUpperCase step; for all other text toLowerCase alone gives the same result.
 * (Computed from the runtime's case tables; a unit test checks the list against every code point.)
 */
export const NEEDS_UPPERCASE_FIRST =
  /[\u00b5\u00df\u0131\u0149\u017f\u01f0\u0345\u0390\u03b0\u03d0\u03d1\u03d5\u03d6\u03f0\u03f1\u03f5\u0587\u1c80-\u1c88\u1e96-\u1e9b\u1f50\u1f52\u1f54\u1f56\u1f80-\u1faf\u1fb2-\u1fb4\u1fb6\u1fb7\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6\u1fc7\u1fcc\u1fd2\u1fd3\u1fd6\u1fd7\u1fe2-\u1fe4\u1fe6\u1fe7\u1ff2-\u1ff4\u1ff6\u1ff7\u1ffc\ufb00-\ufb06\ufb13-\ufb17]/;

/** True when every UTF-16 unit of `text` is ASCII (ASCII is already NFKC; only A-Z need lowering). */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** NEEDS_UPPERCASE_FIRST and ẞ, global: the code points normalizeText folds with `upperThenLower`. */
export const NEEDS_UPPERCASE_FIRST_ALL = new RegExp(`[\u1e9e${NEEDS_UPPERCASE_FIRST.source.slice(1)}`, 'g');
// ẞ (capital sharp s) lowercases to ß, which would then need folding again: it goes straight to ss.
export const upperThenLower = (c: string) => (c === '\u1e9e' ? 'ss' : c.toUpperCase().toLowerCase());

/**
 * NFKC, then full case folding done as toUpperCase().toLowerCase() (both locale-independent in
 * JavaScript), then NFKC again because case mapping can produce decomposed sequences (ǰ → J̌ → ǰ).
 * Upper-then-lower folds what plain lowercasing keeps apart: ß and ẞ → ss (so Straße = STRASSE),
 * ᾳ → αι. Final sigma ς becomes σ so a word's sigma does not depend on its position.
 * Turkish İ becomes i + U+0307 (the Unicode default, not the Turkish rule: no locale is used).
 */

export function normalizeText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return finishFold(caseFold(text.normalize('NFKC')));
}

/**
 * normalizeText's case folding of a text already in NFKC (its result may need NFKC again: `finishFold`).
 * toUpperCase maps each code point on its own (no context), so uppercasing just the few code points
 * that need it equals uppercasing the whole text, at a fraction of the cost.
 */
export function caseFold(nfkc: string): string {
  return nfkc.replace(NEEDS_UPPERCASE_FIRST_ALL, upperThenLower).toLowerCase();
}

/** normalizeText's last steps on a case-folded text: NFKC again, and final sigma as sigma. */
export function finishFold(folded: string): string {
  const nfkc = folded.normalize('NFKC');
  return nfkc.includes('ς') ? nfkc.replace(FINAL_SIGMA, 'σ') : nfkc;
}

/**
 * The code points `first` to `first + count - 1` (none a surrogate) as one string, when normalizeText
 * leaves each of them as it is, alone or anywhere; else null. Why one test for a run: the tables of the
 * fast path fill blocks of 256 code points, and most blocks real text touches (CJK ideographs) map to
 * themselves. NFKD leaving the run as it is means no code point decomposes (one that did would be gone
 * from the result) and none reorders; case folding leaving it means none folds (final sigma aside,
 * context-free, and no sigma folds to itself); ς, which NFKC keeps and normalizeText turns into σ, is left out.
 */
export function selfNormalRun(first: number, count: number): string | null {
  let run = '';
  for (let cp = first; cp < first + count; cp++) run += String.fromCodePoint(cp);
  return run.normalize('NFKD') === run && caseFold(run) === run && !run.includes('ς') ? run : null;
}
