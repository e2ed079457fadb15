import { describe, expect, it } from 'vitest';
import { getKeepRules, putKeepRules } from '../../../src/storage/keep-settings.ts';
import { getSettings, putSettings } from '../../../src/storage/settings-repository.ts';
import { DEFAULT_KEEP_RULES } from '../../../src/core/keep/keep-rules.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { useFreshDatabase } from './storage-test-db.ts';

useFreshDatabase();

describe('saved keep rules', () => {
  it('default until saved, then read back, beside the scan settings', async () => {
    expect(await getKeepRules()).toEqual(DEFAULT_KEEP_RULES);
    const rules = { order: ['protected', 'newest'] as const, protectedFolders: ['docs/old'], markNear: true };
    await putKeepRules({ ...rules, order: [...rules.order] });
    expect(await getKeepRules()).toEqual(rules);
    expect(await getSettings()).toBeNull();
    await putSettings({ fingerprint: DEFAULT_SETTINGS, k: 3, keepContents: true });
    expect((await getSettings())?.k).toBe(3);
    expect(await getKeepRules()).toEqual(rules);
  });
});
