import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { getCorpusDb } from '../../../src/storage/database.ts';
import { getSettings, putSettings, settingsChange } from '../../../src/storage/settings-repository.ts';
import type { CorpusSettings } from '../../../src/storage/settings-repository.ts';
import { StorageError, isStorageError, toStorageError } from '../../../src/storage/storage-error.ts';
import { FINGERPRINT_RULE, UNSTAMPED_RULE } from '../../../src/core/simhash/fingerprint-rule.ts';
import { isStaleRule } from '../../../src/storage/fingerprint-rule.ts';
import { useFreshDatabase } from './storage-test-db.ts';

useFreshDatabase();

const base: CorpusSettings = { fingerprint: DEFAULT_SETTINGS, k: 3, keepContents: true };

describe('settings', () => {
  it('round-trips and starts empty', async () => {
    expect(await getSettings()).toBeNull();
    await putSettings(base);
    expect(await getSettings()).toEqual({ ...base, rule: FINGERPRINT_RULE });
    await putSettings({ ...base, k: 4 });
    expect((await getSettings())!.k).toBe(4);
  });

  it('refuses invalid settings and reports a damaged record as corrupt', async () => {
    await expect(putSettings({ ...base, k: 64 })).rejects.toMatchObject({ kind: 'invalid-input' });
    const db = await getCorpusDb();
    await db.put('settings', { ...base, key: 'current', updatedAt: 0, fingerprint: { weights: 'zzz' } as never });
    await expect(getSettings()).rejects.toMatchObject({ kind: 'corrupt' });
  });

  it('stamps the fingerprint rule; a corpus saved before it (rule 1, words split at "_") is fingerprinted again, never mixed', async () => {
    const db = await getCorpusDb();
    // A settings record as a version before the stamp wrote it: no rule.
    await db.put('settings', { ...base, key: 'current', updatedAt: 0 });
    const old = (await getSettings())!;
    expect(old.rule).toBe(UNSTAMPED_RULE);
    expect(isStaleRule(old)).toBe(true);
    // The next scan's settings (this version's rule) require new fingerprints, even with the same options.
    expect(settingsChange(old, { fingerprint: old.fingerprint, k: old.k, keepContents: old.keepContents })).toBe('fingerprints');
    // Saving another setting of the old corpus keeps its rule; a scan's settings are this version's.
    await putSettings({ ...old, keepContents: false });
    expect((await getSettings())!.rule).toBe(UNSTAMPED_RULE);
    await putSettings({ fingerprint: old.fingerprint, k: old.k, keepContents: true });
    expect(isStaleRule(await getSettings())).toBe(false);
  });

  it('says what a change requires', () => {
    expect(settingsChange(null, base)).toBe('none');
    expect(settingsChange(base, { ...base, keepContents: false })).toBe('none');
    expect(settingsChange(base, { ...base, k: 5 })).toBe('tables');
    expect(settingsChange(base, { ...base, fingerprint: { ...DEFAULT_SETTINGS, weights: 'tf' } })).toBe('fingerprints');
    expect(
      settingsChange(base, { ...base, fingerprint: { ...DEFAULT_SETTINGS, features: { kind: 'char-ngram', n: 5 } } }),
    ).toBe('fingerprints');
    expect(settingsChange(base, { ...base, fingerprint: { ...DEFAULT_SETTINGS, stopWords: true } })).toBe('fingerprints');
  });
});

describe('storage errors', () => {
  it('maps IndexedDB failures to kinds with messages a person can read', () => {
    const quota = toStorageError(new DOMException('full', 'QuotaExceededError'));
    expect(quota).toBeInstanceOf(StorageError);
    expect(quota.kind).toBe('quota');
    expect(quota.message).toContain('QuotaExceededError');
    // An abort whose transaction error is a quota error (how Chromium reports a full disk at commit).
    const aborted = toStorageError(
      new DOMException('aborted', 'AbortError'),
      new DOMException('full', 'QuotaExceededError'),
    );
    expect(aborted.kind).toBe('quota');
    expect(toStorageError(new DOMException('Quota exceeded', 'AbortError')).kind).toBe('quota');
    expect(toStorageError(new DOMException('v', 'VersionError')).kind).toBe('newer-version');
    expect(toStorageError(new DOMException('c', 'DataCloneError')).kind).toBe('invalid-input');
    expect(toStorageError(new DOMException('closing', 'InvalidStateError')).kind).toBe('closed');
    expect(toStorageError(new Error('weird')).kind).toBe('failed');
    const same = new StorageError('corrupt');
    expect(toStorageError(same)).toBe(same);
    expect(isStorageError(same)).toBe(true);
    expect(isStorageError(new Error('x'))).toBe(false);
    expect(same.userMessage).toMatch(/Reset local data/);
  });
});
