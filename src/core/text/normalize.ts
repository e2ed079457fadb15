/**
 * Text normalization before tokenizing: Unicode NFKC plus locale-independent case folding, so
 * "Ｆｉｌｅ", "FILE" and "file" (and "Straße", "STRASSE", "strasse") are the same word everywhere.
 */

const NON_ASCII = /[^\x00-\x7f]/;
const FINAL_SIGMA = /ς/g;

/** True when every UTF-16 unit of `text` is ASCII (ASCII is already NFKC; only A-Z need lowering). */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * NFKC, then full case folding done as toUpperCase().toLowerCase() (both locale-independent in
 * JavaScript), then NFKC again because case mapping can produce decomposed sequences (ǰ → J̌ → ǰ).
 * Upper-then-lower folds what plain lowercasing keeps apart: ß → ss (so Straße = STRASSE),
 * ᾳ → αι. Final sigma ς becomes σ so a word's sigma does not depend on its position.
 * Turkish İ becomes i + U+0307 (the Unicode default, not the Turkish rule: no locale is used).
 */
export function normalizeText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  const folded = text.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  return folded.includes('ς') ? folded.replace(FINAL_SIGMA, 'σ') : folded;
}
