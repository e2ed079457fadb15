import { describe, expect, it } from 'vitest';
import { createScanStore, DEFAULT_K } from '../../../src/scan/scan-store.ts';
import { DEFAULT_K as CORE_K } from '../../../src/core/quality/defaults.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';

describe('scan store', () => {
  it('starts idle with the core defaults, replaces the snapshot on update and notifies', () => {
    const store = createScanStore();
    const first = store.getSnapshot();
    expect(first).toMatchObject({ state: 'idle', result: null, k: CORE_K, settings: DEFAULT_SETTINGS });
    expect(DEFAULT_K).toBe(CORE_K);
    let calls = 0;
    const unsubscribe = store.subscribe(() => calls++);
    store.update({ state: 'scanning' });
    expect(calls).toBe(1);
    expect(store.getSnapshot()).not.toBe(first);
    expect(first.state).toBe('idle');
    expect(store.getSnapshot().state).toBe('scanning');
    unsubscribe();
    store.update({ state: 'done' });
    expect(calls).toBe(1);
  });
});
