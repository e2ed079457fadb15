/**
 * A full storage through the real controller and scan session on fake-indexeddb: the panel says so in
 * numbers and offers Resume once the stopped scan has ended; Resume, with space again, saves the rest
 * and the corpus is ready again. (The browser test of this is skipped where Chromium ignores the quota
 * override, so this is where the storage-full state is driven end to end.)
 */
import 'fake-indexeddb/auto';
import { IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileOf, settled, tabsPerTest, TEXTS } from './corpus-model.ts';

const openTab = tabsPerTest('storage-full-resume');
afterEach(() => vi.restoreAllMocks());

/** Every document chunk write fails as a full disk does: the scan's marker and settings fit, no batch does. */
function fillStorage() {
  const realPut = IDBObjectStore.prototype.put;
  return vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    if (this.name === 'corpus-chunks') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return realPut.call(this, value, key);
  });
}

describe('a full storage', () => {
  it('stops the scan with what was saved, and Resume saves the rest', async () => {
    const tab = await openTab();
    const files = TEXTS.map((t, i) => fileOf(`folder/${i}.txt`, t, 1000 + i));
    const full = fillStorage();
    await tab.session.start({ kind: 'file-list', files });
    await settled(tab);
    const stopped = tab.persistence.getSnapshot();
    expect(stopped.status).toBe('error');
    expect(stopped.error?.kind).toBe('quota');
    expect(stopped.error?.message).toContain(`Storage is full: 0 files saved, ${files.length} not saved.`);
    expect(stopped.storageFull).toEqual({ saved: 0, notSaved: files.length, canResume: true });

    full.mockRestore();
    await tab.persistence.resumeStopped();
    await settled(tab);
    const resumed = tab.persistence.getSnapshot();
    expect(resumed).toMatchObject({ status: 'ready', error: null, storageFull: null, documentCount: files.length });
    expect(tab.store.getSnapshot().result?.docs.count).toBe(files.length);
  });

  it('ends when a new scan opens its writer: the status is ready again, not an error without a message', async () => {
    const tab = await openTab();
    const files = TEXTS.map((t, i) => fileOf(`folder/${i}.txt`, t, 1000 + i));
    const full = fillStorage();
    await tab.session.start({ kind: 'file-list', files: files.slice(0, 3) });
    await settled(tab);
    expect(tab.persistence.getSnapshot().storageFull?.canResume).toBe(true);
    full.mockRestore();
    // Not Resume: the person frees space and scans other files.
    await tab.session.start({ kind: 'file-list', files: files.slice(3) });
    await settled(tab);
    expect(tab.persistence.getSnapshot()).toMatchObject({ status: 'ready', error: null, storageFull: null, documentCount: files.length - 3 });
  });
});
