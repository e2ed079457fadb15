/**
 * Clear corpus is one IndexedDB transaction: the documents and the folders' handles and CLI roots kept
 * for them go together, or (a failure in the middle) nothing goes.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fileOf, settled, TEXTS, tabsPerTest } from './corpus-model.ts';
import { getCorpusSummary } from '../../../src/storage/corpus-repository.ts';
import { getFolderHandle, putFolderHandles } from '../../../src/storage/folder-handles.ts';
import { getFolderRoots, setFolderRoots } from '../../../src/storage/folder-roots.ts';

const tab = tabsPerTest('clear-transaction');
const realPut = IDBObjectStore.prototype.put;
const realDelete = IDBObjectStore.prototype.delete;
afterEach(() => {
  IDBObjectStore.prototype.put = realPut;
  IDBObjectStore.prototype.delete = realDelete;
});

/** A saved folder of two files, with its handle and CLI root kept beside it. */
async function savedFolder() {
  const t = await tab();
  await t.session.start({ kind: 'file-list', files: ['a.txt', 'b.txt'].map((n, i) => fileOf(`f/${n}`, TEXTS[i]!, 1_700_000_000_000 + i)), sync: true });
  await settled(t);
  await putFolderHandles([{ kind: 'directory', name: 'f' } as FileSystemDirectoryHandle]);
  await setFolderRoots({ f: '/home/someone/f' });
  return t;
}

describe('Clear corpus', () => {
  it('takes the folders’ handles and roots with the documents', async () => {
    const t = await savedFolder();
    await t.persistence.clear();
    expect((await getCorpusSummary()).documentCount).toBe(0);
    expect(await getFolderHandle('f')).toBeNull();
    expect(await getFolderRoots()).toEqual({});
  });

  it('leaves everything as it was when a failure is injected in the middle of it', async () => {
    const t = await savedFolder();
    const before = await getCorpusSummary();
    // The settings store (handles, roots) refuses its writes: the corpus's own writes are issued by then.
    type Write = (this: IDBObjectStore, ...args: unknown[]) => IDBRequest;
    const refuse = (real: Write): Write =>
      function (this: IDBObjectStore, ...args: unknown[]) {
        if (this.name === 'settings') throw new DOMException('injected', 'UnknownError');
        return real.apply(this, args);
      };
    IDBObjectStore.prototype.put = refuse(realPut as unknown as Write) as unknown as typeof realPut;
    IDBObjectStore.prototype.delete = refuse(realDelete as unknown as Write) as unknown as typeof realDelete;
    await t.persistence.clear();
    IDBObjectStore.prototype.put = realPut;
    IDBObjectStore.prototype.delete = realDelete;
    expect(await getCorpusSummary()).toEqual(before);
    expect(await getFolderHandle('f')).not.toBeNull();
    expect(await getFolderRoots()).toEqual({ f: '/home/someone/f' });
    expect(t.persistence.getSnapshot().error).not.toBeNull();
  });
});
