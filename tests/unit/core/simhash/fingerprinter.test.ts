import { beforeAll, describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { createFingerprinter } from '../../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS, parseFeatureSpec } from '../../../../src/core/simhash/settings.ts';
import type { SimHashSettings } from '../../../../src/core/simhash/settings.ts';
import { createDocumentFrequencyCounter } from '../../../../src/core/simhash/document-frequencies.ts';
import { hamming } from '../../../../src/core/simhash/fingerprint64.ts';
import { jaccard } from '../../../../src/core/simhash/simhash.ts';
import { NOT_SIMPLE, simpleFold } from '../../../../src/core/text/simple-fold.ts';
import { createReference, referenceFeatures } from './reference-fingerprint.ts';
import { mulberry32Unit as rng } from '../../../fixtures/mulberry32.ts';

let reference: Awaited<ReturnType<typeof createReference>>;
let h64: (s: string) => bigint;
beforeAll(async () => {
  reference = await createReference();
  h64 = (await xxhash()).h64;
});

function settings(spec: string, weights: SimHashSettings['weights'] = 'binary', stopWords = false): SimHashSettings {
  return { features: parseFeatureSpec(spec)!, weights, stopWords };
}

const PIECES = [
  'the', 'The', 'QUICK', 'brown', 'fox', 'and', 'Straße', 'STRASSE', 'ΟΔΟΣ', 'οδος', 'İstanbul', 'ıi', 'ﬁle',
  'Ｆｕｌｌ', 'café', 'cafe\u0301', '東京', '都庁', 'ひらがな', 'カタカナー', '한국어', 'ภาษาไทย', '😀', '👍🏽', '👨‍👩‍👧',
  'don\'t', '3.14', 'x²', '\u0301', 'naïve', 'Ω', 'ǰ', 'of', 'to', 'a', 'is', '\ud800', '𝔘𝔫𝔦', '𠀀',
  'µs', 'ㄱㅏ', 'ㅋㅋ', 'Ｃ', 'ª', '\u212b',
];
const SEPARATORS = [' ', ' ', ' ', '  ', '\n', ', ', '. ', '', '-', '\t', '—', '\u00a0', '"'];

function randomDoc(next: () => number, maxWords: number): string {
  const words = Math.floor(next() * maxWords);
  let s = '';
  for (let i = 0; i < words; i++) {
    s += PIECES[Math.floor(next() * PIECES.length)];
    s += SEPARATORS[Math.floor(next() * SEPARATORS.length)];
  }
  return s;
}

function asciiDoc(next: () => number, maxWords: number): string {
  const vocab = ['Lorem', 'ipsum', 'dolor', 'sit', 'amet', 'the', 'of', 'A', 'x1', '42', 'it\'s', 'END.'];
  const words = Math.floor(next() * maxWords);
  const parts: string[] = [];
  for (let i = 0; i < words; i++) parts.push(vocab[Math.floor(next() * vocab.length)]);
  return parts.join(next() < 0.5 ? ' ' : ',\n');
}

describe('createFingerprinter', () => {
  it('fingerprints a text with the default settings (word3, binary)', () => {
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    const r = fp.fingerprint('The quick brown fox jumps over the lazy dog.');
    expect(r.status).toBe('ok');
    expect(r.words).toBe(9);
    expect(r.features).toBe(7);
    const again = fp.fingerprint('the QUICK brown fox,  jumps over the lazy dog');
    expect([again.hi, again.lo]).toEqual([r.hi, r.lo]);
  });

  it('hashes a word shingle as XXH64 of its words joined by one space', () => {
    const fp = createFingerprinter(settings('word3'));
    // One shingle only: the fingerprint is that shingle's hash itself.
    const r = fp.fingerprint('Hello,   WORLD!\n\nagain');
    const h = h64('hello world again');
    expect(r.hi).toBe(Number(h >> 32n));
    expect(r.lo).toBe(Number(h & 0xffffffffn));
  });

  it('flags too-short documents instead of giving them a fingerprint', () => {
    const fp = createFingerprinter(settings('word3'));
    for (const t of ['', '   \n\t ', '...!?', 'two words']) {
      const r = fp.fingerprint(t);
      expect(r.status).toBe('too-short');
      expect(r.features).toBe(0);
    }
    expect(fp.fingerprint('now three words').status).toBe('ok');
    expect(createFingerprinter(settings('word1')).fingerprint('one').status).toBe('ok');
    expect(createFingerprinter(settings('char5')).fingerprint('abcd').status).toBe('too-short');
    expect(createFingerprinter(settings('char5')).fingerprint('ab cd').status).toBe('ok');
    expect(createFingerprinter(settings('word1', 'binary', true)).fingerprint('the of and').status).toBe('too-short');
  });

  it('requires document frequencies for tfidf and rejects bad settings', () => {
    expect(() => createFingerprinter(settings('word3', 'tfidf'))).toThrow(/document frequencies/);
    expect(() => createFingerprinter({ ...DEFAULT_SETTINGS, features: { kind: 'word-shingle', n: 0 } })).toThrow(
      RangeError,
    );
  });

  for (const spec of ['word3', 'word1', 'word2', 'char5', 'char3', 'char1']) {
    for (const weights of ['binary', 'tf'] as const) {
      for (const stopWords of [false, true]) {
        it(`agrees with the reference implementation: ${spec} ${weights}${stopWords ? ' stop words' : ''}`, () => {
          const s = settings(spec, weights, stopWords);
          const fp = createFingerprinter(s);
          const next = rng(spec.length * 1000 + (weights === 'tf' ? 7 : 0) + (stopWords ? 3 : 0));
          for (let d = 0; d < 150; d++) {
            const text = d % 3 === 0 ? asciiDoc(next, 60) : randomDoc(next, 40);
            const want = reference(text, s);
            const got = fp.fingerprint(text);
            expect(got.status, text).toBe(want.status);
            expect(got.features, text).toBe(want.features.length);
            if (want.status === 'ok') expect([got.hi, got.lo], text).toEqual([want.hi, want.lo]);
          }
        });
      }
    }
  }

  it('agrees with the reference on text whose non-ASCII characters are all simple (folded while tokenizing)', () => {
    const simplePieces = ['Café', 'ÉCOLE', 'naïve', 'Straße', 'GROẞE', 'ßß', 'ΟΔΟΣ', 'οδος', 'Москва', 'ЖУК', '“quoted”', '—', '…', '東京', 'ひらがな',
      '한국어', 'ภาษาไทย', 'Ⱥⱥ', 'ıi', 'x\u00a0y', 'a\u2011b', 'The', 'and', '42'];
    for (const piece of simplePieces) {
      for (const ch of piece) if (ch.charCodeAt(0) >= 0x80) expect(simpleFold(ch.charCodeAt(0)), ch).not.toBe(NOT_SIMPLE);
    }
    const next = rng(31);
    for (const spec of ['word3', 'word1', 'char4']) {
      for (const stopWords of [false, true]) {
        const s = settings(spec, 'binary', stopWords);
        const fp = createFingerprinter(s);
        for (let d = 0; d < 100; d++) {
          let text = '';
          const words = Math.floor(next() * 30);
          for (let i = 0; i < words; i++) {
            text += simplePieces[Math.floor(next() * simplePieces.length)];
            text += SEPARATORS[Math.floor(next() * SEPARATORS.length)];
          }
          const want = reference(text, s);
          const got = fp.fingerprint(text);
          expect(got.status, text).toBe(want.status);
          expect(got.features, text).toBe(want.features.length);
          if (want.status === 'ok') expect([got.hi, got.lo], text).toEqual([want.hi, want.lo]);
        }
      }
    }
  });

  it('agrees with the reference for tfidf with corpus document frequencies', () => {
    const next = rng(99);
    const docs = Array.from({ length: 80 }, (_, i) => (i % 2 ? randomDoc(next, 50) : asciiDoc(next, 80)));
    for (const spec of ['word3', 'word1', 'char4']) {
      const base = createFingerprinter(settings(spec));
      const counter = createDocumentFrequencyCounter();
      for (const d of docs) counter.add(base.featureSet(d));
      const df = counter.result();
      expect(df.documents).toBe(docs.length);
      const s = settings(spec, 'tfidf');
      const fp = createFingerprinter(s, { documentFrequencies: df });
      for (const d of docs) {
        const want = reference(d, s, df);
        const got = fp.fingerprint(d);
        expect(got.status).toBe(want.status);
        if (want.status === 'ok') expect([got.hi, got.lo]).toEqual([want.hi, want.lo]);
      }
    }
  });

  it('featureSet is the sorted distinct low halves of the feature hashes', () => {
    const fp = createFingerprinter(settings('word2'));
    const text = 'a b c a b c d';
    const want = [...new Set(referenceFeatures(text, settings('word2')).map((f) => Number(h64(f) & 0xffffffffn)))].sort(
      (x, y) => x - y,
    );
    expect([...fp.featureSet(text)]).toEqual(want);
    expect(fp.featureSet('x').length).toBe(0);
  });

  it('gives near-duplicates a small distance and a high Jaccard, unrelated texts neither', () => {
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    const next = rng(5);
    const vocab = Array.from({ length: 500 }, (_, i) => `w${i}`);
    const words = Array.from({ length: 400 }, () => vocab[Math.floor(next() * vocab.length)]);
    const a = words.join(' ');
    const edited = [...words];
    edited[200] = 'changed';
    const b = edited.join(' ');
    const c = Array.from({ length: 400 }, () => vocab[Math.floor(next() * vocab.length)]).join(' ');
    const fa = fp.fingerprint(a), fb = fp.fingerprint(b), fc = fp.fingerprint(c);
    expect(hamming(fa.hi, fa.lo, fb.hi, fb.lo)).toBeLessThanOrEqual(4);
    expect(hamming(fa.hi, fa.lo, fc.hi, fc.lo)).toBeGreaterThan(10);
    expect(jaccard(fp.featureSet(a), fp.featureSet(b))).toBeGreaterThan(0.95);
    expect(jaccard(fp.featureSet(a), fp.featureSet(c))).toBeLessThan(0.1);
  });

  it('gives the reference fingerprints on long documents with long tokens', () => {
    const next = rng(21);
    const word = createFingerprinter(settings('word3'));
    const char = createFingerprinter(settings('char7'));
    for (let d = 0; d < 40; d++) {
      // Long tokens too, so features of 32+ bytes take XXH64's stripe loop.
      const text = randomDoc(next, 400) + ' ' + 'x'.repeat(d * 3) + ' supercalifragilisticexpialidocious-antidisestablishmentarianism';
      for (const [fp, spec] of [[word, 'word3'], [char, 'char7']] as const) {
        const want = reference(text, settings(spec));
        const got = fp.fingerprint(text);
        expect([got.status, got.hi, got.lo, got.features]).toEqual([want.status, want.hi, want.lo, want.features.length]);
      }
    }
  });

  it('grows its token arrays inside a document with many short tokens (ASCII, accented, CJK)', () => {
    const next = rng(41);
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const ascii = Array.from({ length: 60000 }, () => letters[Math.floor(next() * 26)]).join(' ');
    const accented = Array.from({ length: 40000 }, () => (next() < 0.5 ? 'é' : letters[Math.floor(next() * 26)])).join(' ');
    const cjk = Array.from({ length: 40000 }, () => '東京都大阪市'[Math.floor(next() * 6)]).join('');
    // Worst case for the in-place compaction: every code point adds a space and Ⱥ also grows a byte.
    const growing = '東Ⱥ'.repeat(20000);
    for (const spec of ['word3', 'char5']) {
      const fp = createFingerprinter(settings(spec));
      for (const text of [ascii, accented, cjk, growing]) {
        const want = reference(text, settings(spec));
        const got = fp.fingerprint(text);
        expect(got.features).toBe(want.features.length);
        expect([got.hi, got.lo]).toEqual([want.hi, want.lo]);
      }
    }
  });

  it('dedupes a document of over 65,536 features in partitions with the same result (word and char mode)', () => {
    const next = rng(77);
    // 120,000 words from a 30,000-word vocabulary: many repeats, some non-ASCII.
    const vocab = Array.from({ length: 30000 }, (_, i) => (i % 50 === 0 ? `Ärger${i}` : `w${i.toString(36)}`));
    const text = Array.from({ length: 120000 }, () => vocab[Math.floor(next() ** 2 * vocab.length)]).join(' ');
    for (const spec of ['word3', 'word1', 'char4']) {
      const want = reference(text, settings(spec));
      const got = createFingerprinter(settings(spec)).fingerprint(text);
      expect(got.features).toBe(want.features.length);
      expect([got.hi, got.lo]).toEqual([want.hi, want.lo]);
    }
  }, 60_000);

  it('reuses its buffers across documents of very different sizes', () => {
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    const small = 'one two three four';
    const first = fp.fingerprint(small);
    const big = Array.from({ length: 200000 }, (_, i) => `t${i % 9973}`).join(' ');
    expect(fp.fingerprint(big).status).toBe('ok');
    const again = fp.fingerprint(small);
    expect([again.hi, again.lo]).toEqual([first.hi, first.lo]);
    const fresh = createFingerprinter(DEFAULT_SETTINGS).fingerprint(big);
    expect(fp.fingerprint(big)).toEqual(fresh);
  });

  it('gives one fingerprint to any order of the same word multiset (word1, binary and tf)', () => {
    const next = rng(11);
    const vocab = ['alpha', 'Beta', 'gamma', 'δέλτα', '東', 'Straße', 'x1', 'omega'];
    for (const weights of ['binary', 'tf'] as const) {
      const fp = createFingerprinter(settings('word1', weights));
      for (let trial = 0; trial < 30; trial++) {
        const bag = Array.from({ length: 5 + Math.floor(next() * 40) }, () => vocab[Math.floor(next() * vocab.length)]);
        const base = fp.fingerprint(bag.join(' '));
        const shuffled = [...bag].sort(() => (next() < 0.5 ? -1 : 1));
        const other = fp.fingerprint(shuffled.join(', '));
        expect([other.hi, other.lo]).toEqual([base.hi, base.lo]);
      }
    }
  });

  it('distance is symmetric and zero to itself', () => {
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    const next = rng(12);
    const prints = Array.from({ length: 20 }, () => fp.fingerprint(randomDoc(next, 60) + ' a b c'));
    for (const a of prints) {
      expect(hamming(a.hi, a.lo, a.hi, a.lo)).toBe(0);
      for (const b of prints) expect(hamming(a.hi, a.lo, b.hi, b.lo)).toBe(hamming(b.hi, b.lo, a.hi, a.lo));
    }
  });

  it('treats case, NFKC and sigma variants as the same text', () => {
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    const same = (x: string, y: string) => {
      const a = fp.fingerprint(x);
      const b = fp.fingerprint(y);
      expect(a.status).toBe('ok');
      expect([b.hi, b.lo]).toEqual([a.hi, a.lo]);
    };
    same('Die Straße ist lang und breit', 'DIE STRASSE IST LANG UND BREIT');
    same('ΟΔΟΣ και ΠΟΛΗ μας', 'οδος και πολη μασ');
    same('ﬁle ｆｕｌｌ café noir', 'file full cafe\u0301 noir');
    same('東京都庁', '東 京 都 庁');
    const a = fp.fingerprint('İstanbul is big');
    const b = fp.fingerprint('istanbul is big');
    expect([a.hi, a.lo]).not.toEqual([b.hi, b.lo]); // no Turkish locale: İ keeps its dot as a mark
  });

  it('fingerprints CJK and emoji text and flags short CJK correctly', () => {
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    expect(fp.fingerprint('東京').status).toBe('too-short');
    expect(fp.fingerprint('東京都').status).toBe('ok');
    expect(fp.fingerprint('😀 😀 😀').status).toBe('ok');
    expect(fp.fingerprint('!!! ??? ...').status).toBe('too-short');
  });
});
