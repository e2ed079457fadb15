import { describe, expect, it } from 'vitest';
import { FOLDS_TO_SS, NOT_SIMPLE, simpleFold } from '../../../../src/core/text/simple-fold.ts';
import { normalizeText } from '../../../../src/core/text/normalize.ts';
import { charClass, SEP } from '../../../../src/core/text/char-class.ts';

describe('simpleFold', () => {
  it('agrees with normalizeText on every simple BMP code point', () => {
    let simple = 0;
    for (let cp = 0x80; cp < 0x10000; cp++) {
      const f = simpleFold(cp);
      if (f === NOT_SIMPLE) continue;
      simple++;
      const c = String.fromCharCode(cp);
      if (f === FOLDS_TO_SS) {
        expect(normalizeText(c)).toBe('ss');
        continue;
      }
      if (charClass(cp) === SEP) {
        for (const ch of normalizeText(c)) expect(charClass(ch.codePointAt(0)!)).toBe(SEP);
      } else {
        expect(normalizeText(c)).toBe(String.fromCharCode(f));
      }
    }
    expect(simple).toBeGreaterThan(50000);
  });

  it('folds accented Latin, Greek (both sigmas), Cyrillic and dotless i; leaves CJK', () => {
    const fold = (c: string) => String.fromCharCode(simpleFold(c.charCodeAt(0)));
    expect(fold('É')).toBe('é');
    expect(fold('Σ')).toBe('σ');
    expect(fold('ς')).toBe('σ');
    expect(fold('Ж')).toBe('ж');
    expect(fold('ı')).toBe('i');
    expect(fold('東')).toBe('東');
  });

  it('refuses what needs whole-text normalization: marks, ligatures, multi-character forms, jamo (ß folds to ss)', () => {
    expect(simpleFold('ß'.charCodeAt(0))).toBe(FOLDS_TO_SS);
    expect(simpleFold('ẞ'.charCodeAt(0))).toBe(FOLDS_TO_SS);
    // Compatibility jamo map to conjoining jamo, which compose: ㄱㅏ is 가 after NFKC.
    for (const c of ['\u0301', 'ﬁ', '™', '½', '´', '\u1161', 'ㄱ', 'ㅏ', 'ﾡ', 'İ', '\ud800']) {
      expect(simpleFold(c.charCodeAt(0)), c).toBe(NOT_SIMPLE);
    }
  });

  it('folds one-code-point compatibility and singleton forms (µ, ², fullwidth, ª, Ω, K, Å)', () => {
    const fold = (c: string) => String.fromCharCode(simpleFold(c.charCodeAt(0)));
    expect(fold('µ')).toBe('μ');
    expect(fold('²')).toBe('2');
    expect(fold('Ｃ')).toBe('c');
    expect(fold('ª')).toBe('a');
    expect(fold('\u2126')).toBe('ω');
    expect(fold('\u212a')).toBe('k');
    expect(fold('\u212b')).toBe('å');
  });

  it('folds text per code point exactly as normalizeText does around every simple code point that NFKC changes', () => {
    const neighbours = ['a', 'Z', '7', ' ', '.', 'é', 'É', 'ß', 'ı', 'Σ', 'ς', 'Ω', 'ж', '東', 'ひ', '가', '“', 'µ', '²'];
    let checked = 0;
    for (let cp = 0x80; cp < 0x10000; cp++) {
      const f = simpleFold(cp);
      const c = String.fromCharCode(cp);
      if (f === NOT_SIMPLE || f === FOLDS_TO_SS || c.normalize('NFKC') === c) continue;
      checked++;
      for (const left of neighbours) {
        for (const right of neighbours) {
          expect(normalizeText(left + c + right), `${left}${c}${right}`).toBe(normalizeText(left) + normalizeText(c) + normalizeText(right));
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  }, 60_000);
});
