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

  it('keeps the snapshot without progress (getShell) the same object through progress-only updates', () => {
    // The page re-rendered its whole shell (drop zone, corpus panel, a shown result) on every
    // progress tick, ten times a second during a scan; only the progress panel reads progress.
    const store = createScanStore();
    const shell = store.getShell();
    expect(shell).toMatchObject({ state: 'idle', result: null, k: CORE_K });
    expect('progress' in shell).toBe(false);
    const progress = { phase: 'reading', filesDone: 1, filesTotal: 2, filesListedOnly: 0, filesExcluded: 0, filesUnchanged: 0, checkingOneByOne: false, bytesDone: 1, bytesTotal: 2, bytesTotalKnown: false, bytesPerSecond: 0, secondsLeft: null, elapsedMs: 5 } as const;
    store.update({ progress });
    store.update({ progress: { ...progress, filesDone: 2 } });
    expect(store.getShell()).toBe(shell);
    expect(store.getSnapshot().progress?.filesDone).toBe(2);
    store.update({ state: 'scanning', progress });
    const scanning = store.getShell();
    expect(scanning).not.toBe(shell);
    expect(scanning.state).toBe('scanning');
    store.update({ progress: null });
    expect(store.getShell()).toBe(scanning);
  });
});
