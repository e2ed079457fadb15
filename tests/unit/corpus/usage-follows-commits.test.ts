/**
 * The panel's storage figure follows the scan's commits: it was refreshed only when the saving ended, so
 * through a long scan and its saving the panel said "20,000 documents saved" beside "corpus 72 KB" (the
 * figure from before the scan). The scan is held in its search (every batch handed to the writer), so no
 * saving-after-results has run when the figure is read.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { filesOf, TEXTS, tabsPerTest, workersHoldingFirstSearch, type Disk } from './corpus-model.ts';

const tab = tabsPerTest('usage-follows-commits');
const realNavigator = Object.getOwnPropertyDescriptor(globalThis, 'navigator');

afterEach(() => {
  if (realNavigator) Object.defineProperty(globalThis, 'navigator', realNavigator);
  else delete (globalThis as { navigator?: unknown }).navigator;
});

describe("the corpus panel's storage figure", () => {
  it('is asked again as batches commit, not only once the saving has ended', async () => {
    // Each estimate reports how many times it was asked: the figure on show says which ask it came from.
    let asks = 0;
    const storage = { estimate: async () => ({ usage: ++asks, quota: 1e9, usageDetails: { indexedDB: asks } }) };
    Object.defineProperty(globalThis, 'navigator', { value: { storage }, configurable: true, writable: true });
    const disk: Disk = new Map();
    TEXTS.forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
    const { workers, searching } = workersHoldingFirstSearch();
    const t = await tab(workers);
    const before = t.persistence.getSnapshot().usage?.usage ?? 0;
    void t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
    await searching;
    for (let i = 0; i < 500 && t.persistence.getSnapshot().documentCount === 0; i++) await new Promise((r) => setTimeout(r, 2));
    expect(t.persistence.getSnapshot().documentCount).toBeGreaterThan(0);
    for (let i = 0; i < 100 && (t.persistence.getSnapshot().usage?.usage ?? 0) <= before; i++) await new Promise((r) => setTimeout(r, 2));
    expect(t.persistence.getSnapshot().usage?.usage ?? 0).toBeGreaterThan(before);
    t.session.cancel();
  });
});
