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

  it('refuses what needs whole-text normalization: marks, ligatures, compatibility forms, jamo (ß folds to ss)', () => {
    expect(simpleFold('ß'.charCodeAt(0))).toBe(FOLDS_TO_SS);
    expect(simpleFold('ẞ'.charCodeAt(0))).toBe(FOLDS_TO_SS);
    for (const c of ['\u0301', 'ﬁ', '™', 'ª', '\u2126', '\u1161', 'İ', '\ud800']) {
      expect(simpleFold(c.charCodeAt(0)), c).toBe(NOT_SIMPLE);
    }
  });
});
