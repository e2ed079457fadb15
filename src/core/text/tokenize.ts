/**
 * The string-level tokenizer: normalized text to word tokens and to the character stream that
 * character n-grams are cut from. It is the readable definition of tokenization; the fingerprinter
 * runs the same rules fused with hashing over UTF-8 bytes, and tests hold the two equal.
 *
 * Rules: a token is a maximal run of letters, digits and connectors such as `_` (UAX #29's
 * ExtendNumLet; with any combining marks that follow);
 * every letter of a script written without spaces (Han, Hiragana, Katakana, Hangul, Thai, ...) and
 * every pictographic emoji is a token by itself (with its following marks); all else separates.
 */
import { charClass, MARK, SEP, SOLO, WORD } from './char-class.ts';
import { isStopWord } from './stop-words.ts';

/** Tokens of a text, and for each token whether a separator came before it (false when it directly touches the previous token, as adjacent Han characters do). */
export type TokenList = { tokens: string[]; spaced: boolean[] };

/** Splits already-normalized text into tokens (see the module rules). */
export function tokenizeDetailed(normalized: string): TokenList {
  const tokens: string[] = [];
  const spaced: boolean[] = [];
  let current = '';
  let state = SEP; // SEP: no open token; WORD: in a word; SOLO: in a one-character token
  let sawSeparator = false;
  const close = () => {
    if (state !== SEP) {
      tokens.push(current);
      current = '';
      state = SEP;
    }
  };
  const open = (ch: string, kind: number) => {
    spaced.push(tokens.length > 0 && sawSeparator);
    sawSeparator = false;
    current = ch;
    state = kind;
  };
  for (const ch of normalized) {
    const c = charClass(ch.codePointAt(0)!);
    if (c === SEP) {
      close();
      sawSeparator = true;
    } else if (c === MARK) {
      if (state === SEP) open(ch, WORD);
      else current += ch;
    } else if (c === WORD) {
      if (state === WORD) current += ch;
      else {
        close();
        open(ch, WORD);
      }
    } else {
      close();
      open(ch, SOLO);
    }
  }
  close();
  return { tokens, spaced };
}

/** Word tokens of normalized text. */
export function tokenize(normalized: string): string[] {
  return tokenizeDetailed(normalized).tokens;
}

/** Drops English stop words, keeping the `spaced` flags right (a dropped token leaves a gap). */
export function removeStopWords(list: TokenList): TokenList {
  const tokens: string[] = [];
  const spaced: boolean[] = [];
  let gap = false;
  for (let i = 0; i < list.tokens.length; i++) {
    if (isStopWord(list.tokens[i])) {
      gap = true;
      continue;
    }
    spaced.push(tokens.length > 0 && (gap || list.spaced[i]));
    tokens.push(list.tokens[i]);
    gap = false;
  }
  return { tokens, spaced };
}

/**
 * The character stream for character n-grams: tokens joined by one space where a separator (or a
 * removed stop word) stood between them, and by nothing where they touched ("東京 tower" → "東京 tower").
 */
export function charStream(list: TokenList): string {
  let s = '';
  for (let i = 0; i < list.tokens.length; i++) s += (list.spaced[i] ? ' ' : '') + list.tokens[i];
  return s;
}
