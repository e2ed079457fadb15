import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SCAN_SETTINGS,
  changesFingerprints,
  describeSettings,
  fromDraft,
  parseK,
  settingsKey,
  toDraft,
} from '../../../src/ui/shared/scan-settings.ts';

describe('scan settings drafts', () => {
  it('round-trips the defaults (word3, binary, the core quality defaults)', () => {
    const r = fromDraft(toDraft(DEFAULT_SCAN_SETTINGS));
    expect(r).toEqual({ ok: true, settings: DEFAULT_SCAN_SETTINGS });
    expect(describeSettings({ ...DEFAULT_SCAN_SETTINGS, k: 3, similarityThreshold: 0.8 })).toBe(
      'word3 · binary · k = 3 · Jaccard ≥ 0.8',
    );
  });
  it('accepts character n-grams and single words (n forced to 1)', () => {
    const d = toDraft(DEFAULT_SCAN_SETTINGS);
    const c = fromDraft({ ...d, kind: 'char-ngram', n: '5', weights: 'tfidf', k: '6', similarityThreshold: '0.5', grouping: 'components' });
    expect(c.ok && c.settings).toEqual({
      simhash: { features: { kind: 'char-ngram', n: 5 }, weights: 'tfidf', stopWords: false },
      k: 6,
      similarityThreshold: 0.5,
      grouping: 'components',
      containmentThreshold: 0,
    });
    expect(c.ok && describeSettings(c.settings)).toBe('char5 · tfidf · k = 6 · Jaccard ≥ 0.5 · components');
    const w = fromDraft({ ...d, kind: 'word', n: '' });
    expect(w.ok).toBe(true);
    expect(w.ok && w.settings.simhash.features).toEqual({ kind: 'word', n: 1 });
    expect(w.ok && describeSettings(w.settings)).toBe(`word1 · binary · k = ${DEFAULT_SCAN_SETTINGS.k} · Jaccard ≥ ${DEFAULT_SCAN_SETTINGS.similarityThreshold}`);
  });
  it('takes the containment threshold, off by default (0), and says it when on', () => {
    const d = toDraft(DEFAULT_SCAN_SETTINGS);
    expect(DEFAULT_SCAN_SETTINGS.containmentThreshold).toBe(0);
    const off = fromDraft({ ...d, containmentThreshold: '0' });
    expect(off.ok && off.settings.containmentThreshold).toBe(0);
    expect(off.ok && describeSettings(off.settings)).not.toMatch(/contain/);
    const loose = fromDraft({ ...d, containmentThreshold: '0.75' });
    expect(loose.ok && describeSettings(loose.settings)).toMatch(/ · contained ≥ 0.75$/);
    expect(loose.ok && settingsKey(loose.settings)).not.toBe(settingsKey(DEFAULT_SCAN_SETTINGS));
    // Turning containment on or off regroups: passages a scan did not collect come from the feature sets.
    expect(loose.ok && changesFingerprints(DEFAULT_SCAN_SETTINGS, loose.settings)).toBe(false);
    expect(loose.ok && changesFingerprints(loose.settings, DEFAULT_SCAN_SETTINGS)).toBe(false);
    const bad = fromDraft({ ...d, containmentThreshold: '2' });
    expect(!bad.ok && Object.keys(bad.errors)).toEqual(['containmentThreshold']);
  });
  it('reports every bad field', () => {
    const d = toDraft(DEFAULT_SCAN_SETTINGS);
    const r = fromDraft({ ...d, n: '1', k: '17', similarityThreshold: '1.5' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(['k', 'n', 'similarityThreshold']);
    expect(fromDraft({ ...d, k: '2.5' }).ok).toBe(false);
    expect(fromDraft({ ...d, similarityThreshold: '' }).ok).toBe(false);
  });
  it('knows which changes need fingerprinting again', () => {
    const s = DEFAULT_SCAN_SETTINGS;
    expect(changesFingerprints(s, { ...s, k: 7, similarityThreshold: 0.4 })).toBe(false);
    expect(changesFingerprints(s, { ...s, simhash: { ...s.simhash, weights: 'tf' } })).toBe(true);
    expect(changesFingerprints(s, { ...s, simhash: { ...s.simhash, features: { kind: 'word-shingle', n: 4 } } })).toBe(true);
  });
  it('refuses k out of range with a message naming the typed value (never clamps it)', () => {
    const d = toDraft(DEFAULT_SCAN_SETTINGS);
    const r = fromDraft({ ...d, k: '64' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.k).toBe('k = 64 is out of range: enter a whole number from 0 to 16.');
    const t = fromDraft({ ...d, k: 'abc' });
    if (!t.ok) expect(t.errors.k).toBe('k must be a whole number from 0 to 16, not “abc”.');
    expect(fromDraft({ ...d, k: '16' }).ok).toBe(true);
  });
  it('keys settings by value, so the same settings in a new object do not reset the form', () => {
    const a = { ...DEFAULT_SCAN_SETTINGS, simhash: { ...DEFAULT_SCAN_SETTINGS.simhash } };
    expect(settingsKey(a)).toBe(settingsKey(DEFAULT_SCAN_SETTINGS));
    expect(settingsKey({ ...a, k: a.k - 1 })).not.toBe(settingsKey(a));
    expect(settingsKey({ ...a, similarityThreshold: 0.9 })).not.toBe(settingsKey(a));
    expect(settingsKey({ ...a, grouping: 'components' })).not.toBe(settingsKey(a));
    expect(settingsKey({ ...a, simhash: { ...a.simhash, stopWords: true } })).not.toBe(settingsKey(a));
  });
  it('parses a typed k without clamping it', () => {
    expect(parseK('12')).toEqual({ ok: true, k: 12 });
    expect(parseK(' 0 ')).toEqual({ ok: true, k: 0 });
    expect(parseK('64')).toEqual({ ok: false, error: 'k = 64 is out of range: enter a whole number from 0 to 16.' });
    expect(parseK('20', 24)).toEqual({ ok: true, k: 20 });
    expect(parseK('-1').ok).toBe(false);
    expect(parseK('').ok).toBe(false);
  });
});
