import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  formatFeatureSpec,
  parseFeatureSpec,
  parseWeightScheme,
  validateSettings,
} from '../../../../src/core/simhash/settings.ts';

describe('settings', () => {
  it('parses and formats feature specs', () => {
    expect(parseFeatureSpec('word3')).toEqual({ kind: 'word-shingle', n: 3 });
    expect(parseFeatureSpec('word1')).toEqual({ kind: 'word', n: 1 });
    expect(parseFeatureSpec('char5')).toEqual({ kind: 'char-ngram', n: 5 });
    expect(parseFeatureSpec('WORD2')).toEqual({ kind: 'word-shingle', n: 2 });
    for (const bad of ['word0', 'char17', 'word', 'words3', '3', '', 'char-5', 'word03']) {
      expect(parseFeatureSpec(bad)).toBeNull();
    }
    for (const s of ['word3', 'word1', 'char5', 'word16']) expect(formatFeatureSpec(parseFeatureSpec(s)!)).toBe(s);
  });

  it('parses weight schemes', () => {
    expect(parseWeightScheme('tfidf')).toBe('tfidf');
    expect(parseWeightScheme('binary')).toBe('binary');
    expect(parseWeightScheme('idf')).toBeNull();
  });

  it('defaults to word3, binary, no stop words', () => {
    expect(DEFAULT_SETTINGS).toEqual({ features: { kind: 'word-shingle', n: 3 }, weights: 'binary', stopWords: false });
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true);
    expect(() => validateSettings(DEFAULT_SETTINGS)).not.toThrow();
  });

  it('validates', () => {
    expect(() => validateSettings({ ...DEFAULT_SETTINGS, features: { kind: 'word', n: 2 } })).toThrow(RangeError);
    expect(() => validateSettings({ ...DEFAULT_SETTINGS, features: { kind: 'char-ngram', n: 2.5 } })).toThrow(RangeError);
    expect(() => validateSettings({ ...DEFAULT_SETTINGS, weights: 'idf' as never })).toThrow(RangeError);
  });
});
