import { describe, expect, it } from 'vitest';
import { isAscii, NEEDS_UPPERCASE_FIRST, normalizeText, selfNormalRun } from '../../../../src/core/text/normalize.ts';
import { charStream, removeStopWords, tokenize, tokenizeDetailed } from '../../../../src/core/text/tokenize.ts';
import { charClass, MARK, SEP, SOLO, WORD } from '../../../../src/core/text/char-class.ts';
import { isStopWord } from '../../../../src/core/text/stop-words.ts';

const words = (text: string) => tokenize(normalizeText(text));

describe('normalizeText', () => {
  it('folds Straße, STRASSE and strasse to one word', () => {
    expect(normalizeText('Straße')).toBe('strasse');
    expect(normalizeText('STRASSE')).toBe('strasse');
    expect(words('Straße')).toEqual(words('STRASSE'));
  });

  it('uses no locale for the Turkish dotted and dotless I', () => {
    // Unicode default mapping: İ → i + U+0307 COMBINING DOT ABOVE; ı → upper I → i.
    expect(normalizeText('İ')).toBe('i\u0307');
    expect(normalizeText('ı')).toBe('i');
    expect(normalizeText('I')).toBe('i');
    expect(words('İstanbul')).toEqual(['i\u0307stanbul']); // the mark stays inside the token
    expect(words('ISTANBUL')).toEqual(['istanbul']);
  });

  it('makes final sigma and medial sigma the same letter', () => {
    expect(normalizeText('ΟΔΟΣ')).toBe('οδοσ');
    expect(normalizeText('οδος')).toBe('οδοσ');
    expect(normalizeText('ΣΑΣ σας')).toBe('σασ σασ');
  });

  it('applies NFKC: compatibility forms, ligatures, full-width letters, composed accents', () => {
    expect(normalizeText('ﬁle')).toBe('file');
    expect(normalizeText('Ｆｕｌｌ　Ｗｉｄｔｈ')).toBe('full width');
    expect(normalizeText('cafe\u0301')).toBe('café');
    expect(normalizeText('café')).toBe('café');
    expect(normalizeText('x²')).toBe('x2');
    expect(normalizeText('ᾳ')).toBe('αι');
  });

  it('lowercases ASCII without touching anything else', () => {
    expect(normalizeText('Hello, WORLD 42!')).toBe('hello, world 42!');
    expect(isAscii('Hello')).toBe(true);
    expect(isAscii('Héllo')).toBe(false);
  });

  it('knows every code point whose lowercase changes when uppercased first', () => {
    const missing: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const lower = c.toLowerCase();
      if (lower === 'ς') continue; // σ/ς are unified afterwards
      if (c.toUpperCase().toLowerCase() !== lower && !NEEDS_UPPERCASE_FIRST.test(c)) missing.push(cp.toString(16));
    }
    expect(missing).toEqual([]);
  });

  it('equals NFKC(lower(upper(NFKC(text)))) with σ for ς on mixed text', () => {
    const pieces = ['Straße', 'ΣΟΦΊΑ', 'ᾳ', 'ﬀ', 'İ', 'ǰ', 'J\u030c', 'Ǆ', 'µ', 'ς', 'abc', ' ', '東', 'ŉ', 'ΐ', 'ẞ'];
    let seed = 3;
    for (let trial = 0; trial < 300; trial++) {
      let s = '';
      for (let i = 0; i < 8; i++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        s += pieces[seed % pieces.length];
      }
      const want = s.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(/ς/g, 'σ').replace(/ß/g, 'ss');
      expect(normalizeText(s)).toBe(want);
    }
  });

  it('is idempotent on every code point', () => {
    const bad: string[] = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const once = normalizeText(String.fromCodePoint(cp));
      if (normalizeText(once) !== once) bad.push(cp.toString(16));
    }
    expect(bad).toEqual([]);
  });

  it('is idempotent', () => {
    expect(normalizeText('GROẞE')).toBe('grosse');
    for (const s of ['Straße', 'ẞ', 'İSTANBUL', 'ΟΔΟΣ', 'ﬁ', 'ǰ', 'ᾳ', 'ŉ', 'Ｆ', '東京', '😀', 'e\u0301\u0323']) {
      expect(normalizeText(normalizeText(s))).toBe(normalizeText(s));
    }
  });
});

describe('selfNormalRun (the fast path fills such blocks without a call per code point)', () => {
  it('finds the blocks whose code points normalizeText leaves as they are, and only those', () => {
    expect(selfNormalRun(0x4e00, 256)).toHaveLength(256); // CJK ideographs
    expect(selfNormalRun(0x20000, 256)).toHaveLength(512); // CJK extension B (surrogate pairs)
    expect(selfNormalRun(0, 256)).toBeNull(); // A-Z fold
    expect(selfNormalRun(0xac00, 256)).toBeNull(); // Hangul syllables decompose under NFKD
    expect(selfNormalRun(0x3c2, 1)).toBeNull(); // ς is NFKC but becomes σ
    // Every code point of every such block of the BMP and the emoji planes, alone and next to others.
    const wrong: string[] = [];
    for (const block of [...Array.from({ length: 0xd8 }, (_, b) => b), ...Array.from({ length: 0x20 }, (_, b) => 0xe0 + b), 0x1f3, 0x1f4, 0x1f6, 0x200]) {
      if (selfNormalRun(block << 8, 256) === null) continue;
      for (let cp = block << 8; cp < (block + 1) << 8; cp++) {
        const c = String.fromCodePoint(cp);
        if (normalizeText(c) !== c || normalizeText(`A${c}Σ`) !== `a${c}σ`) wrong.push(`U+${cp.toString(16)}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
});

describe('tokenize', () => {
  it('splits on spaces and punctuation; keeps letters and digits together', () => {
    expect(words('Hello, world! It\'s 3.14 -- x2y')).toEqual(['hello', 'world', 'it', 's', '3', '14', 'x2y']);
  });

  it('makes each Han, Hiragana, Katakana, Hangul and Thai character its own token', () => {
    expect(words('東京都')).toEqual(['東', '京', '都']);
    expect(words('ひらがなカタカナ')).toEqual(['ひ', 'ら', 'が', 'な', 'カ', 'タ', 'カ', 'ナ']);
    expect(words('한국어')).toEqual(['한', '국', '어']);
    expect(words('ไทย')).toEqual(['ไ', 'ท', 'ย']);
    // A Thai combining vowel stays with its letter.
    expect(words('กั')).toEqual(['กั']);
    expect(words('Tokyo東京tower')).toEqual(['tokyo', '東', '京', 'tower']);
  });

  it('makes each pictographic emoji a token; skin tones and joiners separate', () => {
    expect(words('I ❤ pizza 🍕🍕')).toEqual(['i', '❤', 'pizza', '🍕', '🍕']);
    expect(words('👍🏽ok')).toEqual(['👍', 'ok']);
    expect(words('👨‍👩‍👧')).toEqual(['👨', '👩', '👧']);
    // Digits and # are Emoji but not pictographic: they stay ordinary.
    expect(words('#1')).toEqual(['1']);
  });

  it('keeps combining marks inside the token, and a leading mark starts a word', () => {
    expect(tokenize('e\u0301te\u0323')).toEqual(['e\u0301te\u0323']);
    expect(tokenize(' \u0301a')).toEqual(['\u0301a']);
    expect(tokenize('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']);
  });

  it('treats lone surrogates and symbols as separators', () => {
    expect(tokenize('a\ud800b')).toEqual(['a', 'b']);
    expect(tokenize('a€b©')).toEqual(['a', 'b', '©']);
  });

  it('builds the char stream with one space per separator run and none between touching tokens', () => {
    expect(charStream(tokenizeDetailed(normalizeText('  Hello,\n\n World!  ')))).toBe('hello world');
    expect(charStream(tokenizeDetailed('東京 tower'))).toBe('東京 tower');
  });

  it('removes English stop words on request, leaving a gap', () => {
    const list = removeStopWords(tokenizeDetailed('the cat and the hat'));
    expect(list.tokens).toEqual(['cat', 'hat']);
    expect(charStream(removeStopWords(tokenizeDetailed('東the京')))).toBe('東 京');
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('cat')).toBe(false);
  });
});

describe('charClass', () => {
  it('classifies by Unicode properties', () => {
    expect(charClass(0x61)).toBe(WORD);
    expect(charClass(0x20)).toBe(SEP);
    expect(charClass(0x0301)).toBe(MARK);
    expect(charClass(0x6771)).toBe(SOLO);
    expect(charClass(0x20000)).toBe(SOLO); // CJK extension B
    expect(charClass(0x1f600)).toBe(SOLO);
    expect(charClass(0x10400)).toBe(WORD); // Deseret
    expect(charClass(0xe0100)).toBe(MARK); // variation selector supplement
    expect(charClass(0x10ffff)).toBe(SEP);
  });
});

describe('words follow Unicode word rules (UAX #29)', () => {
  it('keeps connector punctuation inside a word: pip_cache is one word, as ICU and \\w have it', () => {
    expect(words('pip_cache moved __init__ a_b_c')).toEqual(['pip_cache', 'moved', '__init__', 'a_b_c']);
    // Other connector punctuation (Pc), and the full-width low line that NFKC makes `_`.
    expect(words('x\u203Fy p\uFF3Fq')).toEqual(['x\u203Fy', 'p_q']);
    const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
    const icu = (text: string) => [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
    expect(words('pip_cache is here')).toEqual(icu('pip_cache is here'));
  });

  it('fingerprints words with `_` as the string-level reference does (the kernel keeps them whole)', async () => {
    const { createFingerprinter } = await import('../../../../src/core/simhash/fingerprinter.ts');
    const { DEFAULT_SETTINGS } = await import('../../../../src/core/simhash/settings.ts');
    const { createReference } = await import('../simhash/reference-fingerprint.ts');
    const reference = await createReference();
    const text = 'The page_has_moved to PIP_CACHE_DIR, see __init__.py and Some_Upper_Case words, then more words_ _here. '.repeat(5);
    const want = reference(text, DEFAULT_SETTINGS);
    const got = createFingerprinter(DEFAULT_SETTINGS).fingerprint(text);
    expect([got.hi, got.lo, got.features]).toEqual([want.hi, want.lo, want.features.length]);
    expect(createFingerprinter(DEFAULT_SETTINGS).featureSet('pip_cache page has moved').length).toBe(2);
  });
});
