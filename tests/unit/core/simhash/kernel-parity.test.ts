// The fingerprinter (its WebAssembly kernel: tokenizers, XXH64, tally) against the string-level
// reference (normalizeText, tokenizeDetailed, feature strings, xxhash-wasm's h64): on seeded random
// texts (ASCII, non-ASCII that folds per code point or needs the whole normalization, empty,
// separators only, huge tokens, more tokens than the first guess of the token arrays) every method
// gives the reference's fingerprint and feature set with every setting, one fingerprinter reused
// across all texts as a worker reuses it. (Written against the JavaScript path, xxh64.ts, and run
// on both the hand-assembled and the AssemblyScript kernel before that path was removed.)
import { beforeAll, describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { createFingerprinter, type Fingerprinter, type FingerprintResult } from '../../../../src/core/simhash/fingerprinter.ts';
import { createDocumentFrequencyCounter, type DocumentFrequencies } from '../../../../src/core/simhash/document-frequencies.ts';
import { parseFeatureSpec, type SimHashSettings, type WeightScheme } from '../../../../src/core/simhash/settings.ts';
import { normalizeText } from '../../../../src/core/text/normalize.ts';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';
import { createReference } from './reference-fingerprint.ts';

let reference: Awaited<ReturnType<typeof createReference>>;
let h64: (s: string) => bigint;
beforeAll(async () => {
  reference = await createReference();
  h64 = (await xxhash()).h64;
});

const SPECS = ['word2', 'word3', 'word5', 'word16', 'word1', 'char1', 'char3', 'char5', 'char16'];
const WEIGHTS: WeightScheme[] = ['binary', 'tf', 'tfidf'];

const WORDS = [
  'the', 'The', 'QUICK', 'brown', 'fox', 'of', 'and', 'a', 'is', 'x1', '42', 'it\'s', 'snake_case', 'Zebra',
  'Straße', 'STRASSE', 'ẞig', 'ΟΔΟΣ', 'οδος', 'İstanbul', 'ıi', 'ﬁle', 'Ｆｕｌｌ', 'café', 'cafe\u0301', 'Ⱥb',
  '東京', '都庁', 'ひらがな', 'カタカナー', '한국어', 'ภาษาไทย', '😀', '👍🏽', '𠀀', 'naïve', 'Ω', 'ǰ', 'µs', 'x²',
  '\u212b', 'ª', '\u0301', 'Привет', 'مرحبا', 'שלום', '\u00ad',
];
const SEPARATORS = [' ', ' ', ' ', '  ', '\n', ', ', '. ', '', '-', '\t', '—', '\u00a0', '"', '\u3000'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

/** A huge token: a run of word characters, from a few bytes past the 32-byte stripe to thousands. */
function hugeToken(next: () => number): string {
  const length = 30 + Math.floor(next() * (next() < 0.2 ? 1500 : 200));
  let s = '';
  for (let i = 0; i < length; i++) s += LETTERS[Math.floor(next() * LETTERS.length)];
  return next() < 0.3 ? s + 'é' + s : s;
}

/** One seeded random text of the kind `shape` names. */
function randomText(next: () => number, shape: number): string {
  const words = Math.floor(next() * 60);
  let s = '';
  switch (shape) {
    case 0:
      return '';
    case 1: // separators only
      for (let i = 0; i < words; i++) s += pick(next, SEPARATORS);
      return s;
    case 2: // ASCII only
      for (let i = 0; i < words; i++) s += pick(next, WORDS.slice(0, 14)) + pick(next, [' ', ', ', '\n', '-', '. ']);
      return s;
    case 3: // huge tokens among short ones
      for (let i = 0; i < words / 4; i++) s += (next() < 0.5 ? hugeToken(next) : pick(next, WORDS)) + pick(next, SEPARATORS);
      return s;
    case 4: // one-byte tokens: more tokens than the first guess of the token arrays (len / 8 + 64)
      for (let i = 0; i < 200 + words * 20; i++) s += pick(next, ['a', 'b', 'C', '1', 'x', '東', 'é']) + (next() < 0.9 ? ' ' : '');
      return s;
    case 5: // a long document past the kernel's 8-byte copies and the growth of every buffer
      for (let i = 0; i < 2000 + words * 20; i++) s += pick(next, WORDS) + pick(next, SEPARATORS);
      return s;
    default: // mixed
      for (let i = 0; i < words; i++) s += pick(next, WORDS) + pick(next, SEPARATORS);
      return s;
  }
}

function texts(seed: number, count: number): string[] {
  const next = mulberry32Unit(seed);
  return Array.from({ length: count }, (_, i) => randomText(next, i < 7 ? i : Math.floor(next() * 8)));
}

const TEXTS = texts(40, 90);
const encoder = new TextEncoder();
const NORMALIZED = TEXTS.map((t) => {
  const n = normalizeText(t);
  const utf8 = encoder.encode(n);
  return { utf8, ascii: utf8.length === n.length };
});

/** Document frequencies of TEXTS for `spec` (the feature sets of a binary fingerprinter, checked against the reference below). */
function frequencies(spec: string): DocumentFrequencies {
  const counter = createDocumentFrequencyCounter();
  const fp = createFingerprinter({ features: parseFeatureSpec(spec)!, weights: 'binary', stopWords: false });
  for (const t of TEXTS) counter.add(fp.featureSet(t));
  return counter.result();
}

/** A fingerprint result as one line (a string compares at once where a deep equality crawls). */
function line(r: FingerprintResult & { set?: Uint32Array | null }): string {
  return `${r.status} ${r.hi} ${r.lo} ${r.features} ${r.words}${r.set === undefined ? '' : ` set ${r.set && keys(r.set)}`}`;
}

/** A feature set's keys, exactly, as text. */
function keys(set: Uint32Array): string {
  return Buffer.from(set.buffer, set.byteOffset, set.byteLength).toString('base64');
}

/** What the reference says about text i: its fingerprint line, and the feature set (the distinct low halves of the hashes). */
function expected(settings: SimHashSettings, df: DocumentFrequencies, i: number): { print: string; set: string } {
  const r = reference(TEXTS[i]!, settings, df);
  const lows = [...new Set(r.features.map((f) => Number(h64(f) & 0xffffffffn)))].sort((a, b) => a - b);
  return { print: `${r.status} ${r.hi} ${r.lo} ${r.features.length}`, set: keys(Uint32Array.from(lows)) };
}

/** Every method of the fingerprinter on text i, in the order a worker might ask them, against the reference. */
function check(fp: Fingerprinter, settings: SimHashSettings, df: DocumentFrequencies, i: number, label: string): void {
  const { utf8, ascii } = NORMALIZED[i]!;
  const { print, set } = expected(settings, df, i);
  const cut = (r: FingerprintResult) => `${r.status} ${r.hi} ${r.lo} ${r.features}`;
  const whole = fp.fingerprint(TEXTS[i]!);
  expect(cut(whole), `${label}: fingerprint`).toBe(print);
  expect(keys(fp.featureSet(TEXTS[i]!)), `${label}: featureSet`).toBe(set);
  expect(line(fp.fingerprintNormalized(utf8, ascii)), `${label}: fingerprintNormalized`).toBe(line(whole));
  expect(keys(fp.featureSetNormalized(utf8, ascii)), `${label}: featureSetNormalized`).toBe(set);
  const below = i % 3 === 0 ? 0 : 1 << 30;
  const both = fp.fingerprintNormalizedWithSet(utf8, ascii, below);
  expect(line(both), `${label}: fingerprintNormalizedWithSet`).toBe(`${line(whole)} set ${below === 0 ? 'null' : set}`);
}

describe('the fingerprinter (its WebAssembly kernel) gives the reference fingerprints and feature sets', () => {
  for (const spec of SPECS) {
    it(`${spec}: every weighting, with and without stop words, ${TEXTS.length} texts`, () => {
      const df = frequencies(spec);
      for (const weights of WEIGHTS) {
        for (const stopWords of [false, true]) {
          const settings: SimHashSettings = { features: parseFeatureSpec(spec)!, weights, stopWords };
          const fp = createFingerprinter(settings, weights === 'tfidf' ? { documentFrequencies: df } : {});
          for (let i = 0; i < TEXTS.length; i++) check(fp, settings, df, i, `${spec} ${weights}${stopWords ? ' stop words' : ''} text ${i}`);
        }
      }
    }, 180_000);
  }

  it('on a document of over 65,536 features (deduped in partitions), word and char mode', () => {
    const next = mulberry32Unit(41);
    let text = '';
    for (let i = 0; i < 90000; i++) text += pick(next, WORDS) + i.toString(36) + pick(next, SEPARATORS);
    for (const spec of ['word3', 'char5']) {
      for (const weights of ['binary', 'tf'] as const) {
        const settings: SimHashSettings = { features: parseFeatureSpec(spec)!, weights, stopWords: false };
        const r = reference(text, settings);
        const got = createFingerprinter(settings).fingerprint(text);
        expect([got.status, got.hi, got.lo, got.features], `${spec} ${weights}`).toEqual([r.status, r.hi, r.lo, r.features.length]);
      }
    }
  }, 180_000);
});
