/**
 * Per-code-point case folding for "simple" characters, so text whose non-ASCII characters are all
 * simple (accented Latin letters, Greek, Cyrillic, CJK, typographic quotes and dashes, ...) can skip
 * the whole-string `normalizeText` and be folded while it is tokenized, with the same tokens.
 *
 * A BMP code point is simple when
 * - it is a separator whose NFKC form is made of separators only (so tokens cannot change), or
 * - it is a letter/digit (WORD or SOLO), whose full decomposition starts with a starter (not a
 *   mark), and `normalizeText` maps it to exactly one code point of the same class (µ → μ, ² → 2,
 *   Ｃ → c, ª → a), or (ß, ẞ) to "ss"; neither it nor what it maps to is a conjoining Hangul jamo
 *   (jamo compose with their neighbours: compatibility ㄱ and ㅏ map to jamo that make 가).
 * Combining marks are never simple: they compose or reorder with their neighbours. In a string of
 * simple characters and ASCII every character is a starter and no two neighbours compose (no
 * canonical composition pairs two such starters), so its NFKC is the NFKC of each code point, and
 * folding it per code point equals `normalizeText` (toUpperCase is context-free; the only context
 * rule of toLowerCase, final sigma, is undone by mapping ς to σ). A test checks every simple code
 * point whose NFKC differs from itself between varied neighbours.
 */
import { charClass, MARK, SEP } from './char-class.ts';
import { caseFold, finishFold, selfNormalRun } from './normalize.ts';

/** Table value: not simple (the text must take the full normalization path). */
export const NOT_SIMPLE = -2;
/** Table value: folds to the two letters "ss" (ß and ẞ, so German text stays on the fast path). */
export const FOLDS_TO_SS = -3;
const UNKNOWN = -1;

/** For each BMP code point: its folded code point, NOT_SIMPLE, FOLDS_TO_SS, or UNKNOWN until its block is filled. */
const table = new Int32Array(0x10000).fill(UNKNOWN);

/** Conjoining Hangul jamo, which compose with a neighbouring syllable or jamo. */
function isJamo(cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xd7b0 && cp <= 0xd7ff);
}

function classify(cp: number): number {
  if (cp >= 0xd800 && cp <= 0xdfff) return NOT_SIMPLE;
  if (isJamo(cp)) return NOT_SIMPLE;
  const cls = charClass(cp);
  if (cls === MARK) return NOT_SIMPLE;
  const c = String.fromCharCode(cp);
  const nfkc = c.normalize('NFKC');
  if (cls === SEP) {
    for (const ch of nfkc) if (charClass(ch.codePointAt(0)!) !== SEP) return NOT_SIMPLE;
    return cp;
  }
  // A compatibility or singleton mapping (µ, ², fullwidth letters) is per code point when its
  // decomposition starts with a starter: a leading mark could reorder or compose with the previous character.
  if (nfkc !== c && charClass(c.normalize('NFKD').codePointAt(0)!) === MARK) return NOT_SIMPLE;
  // normalizeText(c), from its NFKC (above) rather than from the start again: a call saved per code point of every block filled.
  const folded = cp < 0x80 ? c.toLowerCase() : finishFold(caseFold(nfkc));
  if (folded === 'ss' && cls !== SEP) return FOLDS_TO_SS;
  const f = folded.codePointAt(0)!;
  if (folded.length !== 1 || f >= 0x10000 || charClass(f) !== cls || isJamo(f)) return NOT_SIMPLE;
  return f;
}

function fillBlock(block: number): void {
  const start = block << 8;
  // A block whose code points all normalize to themselves (most CJK blocks): each folds to itself,
  // unless it is a mark or a jamo (classify's answer, without its normalize calls per code point).
  if ((start < 0xd800 || start > 0xdfff) && selfNormalRun(start, 256) !== null) {
    for (let cp = start; cp < start + 256; cp++) table[cp] = isJamo(cp) || charClass(cp) === MARK ? NOT_SIMPLE : cp;
    return;
  }
  for (let cp = start; cp < start + 256; cp++) table[cp] = classify(cp);
}

/** The folded code point of a BMP code point, or NOT_SIMPLE, or FOLDS_TO_SS. */
export function simpleFold(cp: number): number {
  const v = table[cp];
  if (v !== UNKNOWN) return v;
  fillBlock(cp >>> 8);
  return table[cp];
}

/** The table itself for hot loops: UNKNOWN (-1) means call `simpleFold`. Indexed by BMP code point. */
export const SIMPLE_FOLD_TABLE: Int32Array = table;
