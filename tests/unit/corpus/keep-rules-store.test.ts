import { describe, expect, it } from 'vitest';
import { DEFAULT_KEEP_RULES, type KeepRules } from '../../../src/core/keep/keep-rules.ts';
import { createKeepRulesStore } from '../../../src/corpus/keep-rules-store.ts';
import { getKeepRules } from '../../../src/storage/keep-settings.ts';
import { useFreshDatabase } from '../storage/storage-test-db.ts';

useFreshDatabase();

describe('the keep rules store', () => {
  it('shows the defaults until its first subscriber reads the saved rules; a change is shown at once and saved', async () => {
    const store = createKeepRulesStore();
    expect(store.getSnapshot()).toEqual({ rules: DEFAULT_KEEP_RULES, loaded: false });
    let heard = 0;
    store.subscribe(() => heard++);
    await expect.poll(() => store.getSnapshot().loaded).toBe(true);
    const changed: KeepRules = { order: ['newest', 'shortest-path'], protectedFolders: ['docs/keep'], markNear: true };
    store.setRules(changed);
    expect(store.getSnapshot().rules).toBe(changed);
    expect(heard).toBe(2);
    await expect.poll(() => getKeepRules()).toEqual(changed);
    // A new store (a reload) reads them back.
    const again = createKeepRulesStore();
    again.subscribe(() => undefined);
    await expect.poll(() => again.getSnapshot()).toEqual({ rules: changed, loaded: true });
  });
});
