import { describe, expect, it } from 'vitest';
import { documentText } from '../../../../src/core/text/document-text.ts';
import { decodeEntities } from '../../../../src/core/text/html.ts';
import { normalizeText } from '../../../../src/core/text/normalize.ts';
import { createUtf8Buffer, normalizedCodePoint, normalizedUtf8 } from '../../../../src/core/text/normalized-utf8.ts';
import { createFingerprinter } from '../../../../src/core/simhash/fingerprinter.ts';
import type { SimHashSettings } from '../../../../src/core/simhash/settings.ts';
import { createDocumentFrequencyCounter } from '../../../../src/core/simhash/document-frequencies.ts';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';
import { debianDocSources, realTextSources } from '../../../../bench/real-corpus.ts';

const encoder = new TextEncoder();

/** What the string path gives: UTF-8(normalizeText(documentText(bytes, name).text)), or null for a binary file. */
function viaStrings(bytes: Uint8Array, name: string): Uint8Array | null {
  const doc = documentText(bytes, name);
  return doc.ok ? encoder.encode(normalizeText(doc.text)) : null;
}

const out = createUtf8Buffer(16);

const asText = new TextDecoder('utf-8', { ignoreBOM: true });

/** How normalizedUtf8 differs from the string path (bytes, ASCII flag, invalid-byte count), or null when it does not. */
function difference(bytes: Uint8Array, name: string): string | null {
  const want = viaStrings(bytes, name);
  const got = normalizedUtf8(bytes, name, out);
  if (want === null || !got.ok) return (want === null) === !got.ok ? null : `${name}: binary on one path only`;
  let same = want.length === got.utf8.length;
  for (let i = 0; same && i < want.length; i++) same = want[i] === got.utf8[i];
  if (!same) return `${name}: ${JSON.stringify(asText.decode(got.utf8).slice(0, 200))} instead of ${JSON.stringify(asText.decode(want).slice(0, 200))}`;
  if (got.ascii !== want.every((b) => b < 0x80)) return `${name}: ascii ${got.ascii}`;
  const doc = documentText(bytes, name);
  if (doc.ok && got.invalidBytes !== doc.invalidBytes) return `${name}: ${got.invalidBytes} invalid bytes instead of ${doc.invalidBytes}`;
  return null;
}

/** Asserts that normalizedUtf8 gives the string path's bytes, ASCII flag and invalid-byte count. */
function expectSame(bytes: Uint8Array, name: string): void {
  expect(difference(bytes, name)).toBeNull();
}

const utf8 = (s: string) => encoder.encode(s);

describe('normalizedUtf8 equals the string path', () => {
  it('on plain, accented, Greek, CJK, Hangul, emoji and compatibility text', () => {
    for (const s of [
      '', 'Hello, World!', 'Straße STRASSE ẞ', 'ΟΔΟΣ ὀδός', 'Ｆｕｌｌ ｗｉｄｔｈ ﬁ ² µ', '東京都 大阪', '한국어 텍스트 ㄱㅏ',
      'no\u00a0break… “quotes” — dash', 'emoji 😀 👪 and math 𝑥𝔸', 'Deseret 𐐀𐐨', 'İstanbul', 'café',
    ]) {
      expectSame(utf8(s), 'a.txt');
      expectSame(utf8(s), 'a.html');
    }
  });

  it('on combining marks, alone or composing with the letter before (line by line, or the whole page for HTML)', () => {
    for (const s of ['e\u0301 and E\u0301', 'line one\nA\u030a\u0323 two\nthree ñ', '\u0301 starts', 'x\n\u0308\ny', 'a\u0308\r\nb', '\ufeffe\u0301', 'e\u0301\n\ufeff\u0301']) {
      expectSame(utf8(s), 'a.txt');
      expectSame(utf8(s), 'a.htm');
    }
  });

  it('on Hangul jamo, which compose with the syllable or jamo before them', () => {
    for (const s of ['가\u11a8', '\u1100\u1161', '\u1100 \u1161', '가각\u1161', 'ᄀ가', 'ㄱㅏ']) expectSame(utf8(s), 'a.txt');
  });

  it('on byte order marks (UTF-8 once, twice, three times; UTF-16 both ways, with and without its BOM), invalid UTF-8, windows-1252 and binary', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const cases = [
      [...bom, ...utf8('Text')],
      [...bom, ...bom, ...utf8('Text')],
      [...bom, ...bom, ...bom, ...utf8('Text')],
      [0xff, 0xfe, 0x41, 0x00, 0x62, 0x00],
      [0xfe, 0xff, 0x00, 0x41, 0x00, 0x62],
      [0x41, 0x00, 0x62, 0x00, 0xe9, 0x00, 0x0a, 0x00],
      [0x00, 0x41, 0x00, 0x62, 0x00, 0xe9, 0x00, 0x0a],
      [...utf8('café naïve '), 0xff, ...utf8(' ok')],
      [0x63, 0x61, 0x66, 0xe9, 0x20, 0x92, 0x71, 0x92],
      [0x61, 0xc3],
      [0x61, 0xe2, 0x82],
      [0x61, 0xf0, 0x9f, 0x98],
      [0x61, 0xed, 0xa0, 0x80],
      [0x61, 0xf4, 0x90, 0x80, 0x80],
      [0x61, 0x00, 0x62],
      [1, 2, 3, 4, 5, 6, 7, 8],
    ];
    for (const c of cases) {
      expectSame(Uint8Array.from(c), 'a.txt');
      expectSame(Uint8Array.from(c), 'a.html');
    }
    const bomless = normalizedUtf8(Uint8Array.from([0x00, 0x41, 0x00, 0x62, 0x00, 0xe9, 0x00, 0x0a]), 'a.txt', out);
    expect(bomless.ok && asText.decode(bomless.utf8)).toBe('abé\n');
  });

  it('on markup: tags, comments, declarations, raw-text bodies, bare <, unclosed constructs', () => {
    for (const s of [
      '<p>Hello<br>World</p>', 'a < b <3 c<b>d</b>e', '<!-- c -->x<!--y', '<!DOCTYPE html><?xml x?>t', '<!-->x', '<!--->x-->y',
      '<script>if (a < b) x = "</p>"</script>ok', '<SCRIPT >x</SCRIPT >ok', '<script>x</script\t\n>ok', '<style>a{}</ style>b</style>c',
      '<scripts>kept</scripts>', '<noscript-x>kept</noscript-x>', '<textarea>t</TEXTAREA>u', '<template>t', '<script>x</script\u00a0>y</script>z',
      '<p', '</', '<', 'x</p', '<a href="x>y">link</a>', '<constructor>kept</constructor>', '<scr\u00e9>x',
    ]) {
      expectSame(utf8(s), 'page.html');
      expectSame(utf8(s), 'page.txt');
    }
  });

  it('on character references: named, numeric, hex, out of range, unknown, too long, case, and next to tags', () => {
    for (const s of [
      '&amp; &lt;p&gt; &nbsp; &copy; &hellip; &eacute; &Eacute; &AMP; &Amp; &szlig;', '&#65;&#x42;&#X43; &#0; &#1; &#128; &#x10FFFF; &#x110000; &#xD800;',
      '&#1234567; &#12345678; &#x1234567; &#x; &#; &#65 &#65a; &a; &ab; &unknown; &constructor; &toString; &valueOf;',
      '&amp<b>;</b> &#x1F600; &#769;e &#x301; e&#x301; &#x1161; 가&#x11a8;', '&', '&#', '&#x4', 'AT&T; R&D', '&lt;script&gt;x&lt;/script&gt;',
      `&${'a'.repeat(31)}; &${'a'.repeat(32)};`,
    ]) {
      expectSame(utf8(s), 'x.xhtml');
      expectSame(utf8(s), 'x.txt');
    }
  });

  it('on random mixtures of all of the above', () => {
    const next = mulberry32Unit(7);
    const pieces = [
      'word', 'WORD', ' ', '\n', '\r\n', '\t', '<', '>', '&', ';', '#', 'x', '1', '<p>', '</p>', '<!--', '-->', '<script>', '</script>', '<b', '&amp;',
      '&#65;', '&#x301;', '&nbsp;', '&Eacute;', 'é', 'E\u0301', '\u0301', 'ß', 'ẞ', 'Σ', 'ς', '東', '가', '\u1161', '\u11a8', 'ﬁ', '…', '\u00a0', '😀',
      '𝑥', '\ufeff', 'ǰ', 'ᾳ', 'İ', '\u0345',
    ];
    for (let round = 0; round < 1500; round++) {
      let s = '';
      const count = 1 + Math.floor(next() * 30);
      for (let k = 0; k < count; k++) s += pieces[Math.floor(next() * pieces.length)];
      const bytes = utf8(s);
      if (next() < 0.1) bytes[Math.floor(next() * bytes.length)] = 0xff;
      expectSame(bytes, round % 2 ? 'r.html' : 'r.md');
    }
  });

  it('on real documents: the kernel Documentation and npm package prose, and the Debian HTML manuals where installed', () => {
    const sources = realTextSources({ kernel: 'if-installed' });
    const debian = debianDocSources().docs;
    expect(sources.length).toBeGreaterThan(100);
    const differences: string[] = [];
    for (const { path, bytes } of [...sources, ...debian]) {
      const d = difference(bytes, path);
      if (d) differences.push(d);
    }
    expect(differences).toEqual([]);
  }, 120_000);
});

describe('normalizedCodePoint (the fast path’s table)', () => {
  it('gives each code point’s normalizeText, and it holds next to any neighbours: normalization never crosses into it', () => {
    // Neighbours that compose or fold with what follows or precedes them when they can: letters that take marks,
    // a leading jamo and a syllable, sigma, dotless i, a full-width letter, a space.
    const neighbours = ['a', 'E', 'ᄀ', '가', 'Σ', 'ı', 'Ｆ', ' ', 'ß', 'ǰ', 'ᾳ', '\u00a0'];
    const bad: string[] = [];
    const blocks = [...Array.from({ length: 0x100 }, (_, b) => b), 0x1d4, 0x1d5, 0x1d6, 0x1d7, 0x1f3, 0x1f4, 0x1f6, 0x104];
    for (const block of blocks) {
      for (let cp = block << 8; cp < (block + 1) << 8; cp++) {
        const mapped = normalizedCodePoint(cp);
        if (mapped === null) continue;
        const c = String.fromCodePoint(cp);
        if (mapped !== normalizeText(c)) bad.push(`U+${cp.toString(16)} alone`);
        for (const a of neighbours) {
          const na = normalizedCodePoint(a.codePointAt(0)!) ?? normalizeText(a);
          if (normalizeText(a + c) !== na + mapped || normalizeText(c + a) !== mapped + na || normalizeText(a + c + a) !== na + mapped + na) {
            bad.push(`U+${cp.toString(16)} next to ${a}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('leaves combining marks and vowel or trailing jamo to the string path', () => {
    for (const cp of [0x0301, 0x0345, 0x1161, 0x11a8, 0xfe0f, 0x0c4d]) expect(normalizedCodePoint(cp)).toBeNull();
    expect(normalizedCodePoint(0xac00)).toBe('가');
    expect(normalizedCodePoint(0x1100)).toBe('\u1100');
  });
});

describe('decodeEntities', () => {
  it('leaves names of Object.prototype’s properties as written', () => {
    // '&constructor;' used to become the text of Object's constructor function.
    expect(decodeEntities('&constructor; &toString; &valueOf; &amp;')).toBe('&constructor; &toString; &valueOf; &');
  });
});

describe('fingerprintNormalized', () => {
  const settingsList: SimHashSettings[] = [
    { features: { kind: 'word-shingle', n: 3 }, weights: 'binary', stopWords: false },
    { features: { kind: 'word-shingle', n: 2 }, weights: 'tfidf', stopWords: false },
    { features: { kind: 'char-ngram', n: 4 }, weights: 'tf', stopWords: false },
    { features: { kind: 'word', n: 1 }, weights: 'binary', stopWords: true },
  ];
  const texts = [
    'The quick brown fox jumps over the lazy dog again and again',
    'Straße café ΟΔΟΣ 東京都大阪 한국어 the end',
    'e\u0301 composed later, and a mark \u0301 alone, then words words words',
    'ﬁnal ﬁle ² Ｆｕｌｌ words of text here',
    'a b',
    '',
    'x'.repeat(5000) + ' ' + 'word '.repeat(3000),
    // Over 65,536 distinct features: the kernel dedupes them in partitions.
    Array.from({ length: 90_000 }, (_, i) => `w${i}`).join(' '),
  ];
  for (const settings of settingsList) {
    {
      it(`equals fingerprint and featureSet of the text (${settings.features.kind}, ${settings.weights})`, () => {
        const counter = createDocumentFrequencyCounter();
        const setMaker = createFingerprinter({ ...settings, weights: 'binary' });
        for (const text of texts) counter.add(setMaker.featureSet(text));
        const fp = createFingerprinter(settings, { documentFrequencies: counter.result() });
        for (const text of texts) {
          const doc = normalizedUtf8(utf8(text), 't.txt', out);
          if (!doc.ok) throw new Error('not text');
          expect(fp.fingerprintNormalized(doc.utf8, doc.ascii)).toEqual(fp.fingerprint(text));
          expect(fp.featureSetNormalized(doc.utf8, doc.ascii)).toEqual(fp.featureSet(text));
          const both = fp.fingerprintNormalizedWithSet(doc.utf8, doc.ascii, Infinity);
          expect({ ...both, set: undefined }).toEqual({ ...fp.fingerprint(text), set: undefined });
          expect(both.set).toEqual(fp.featureSet(text));
          expect(fp.fingerprintNormalizedWithSet(doc.utf8, doc.ascii, 0).set).toBeNull();
        }
      });
    }
  }
});
