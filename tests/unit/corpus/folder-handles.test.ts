/**
 * The scanned folder's handle goes with the saved corpus: a folder of the same name chosen through the
 * folder input may be another folder, so the page must not act on the old handle; clearing the corpus
 * forgets every handle.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fileOf, settled, tabsPerTest, TEXTS } from './corpus-model.ts';
import { getFolderHandle, putFolderHandles } from '../../../src/storage/folder-handles.ts';

const openTab = tabsPerTest('corpus-folder-handles');
const folder = (name: string) => ({ kind: 'directory', name }) as unknown as FileSystemDirectoryHandle;

describe('folder handles kept with the corpus', () => {
  it('a folder of the same name chosen through the input forgets the kept handle; another folder’s stays', async () => {
    const tab = await openTab();
    await putFolderHandles([folder('f'), folder('g')]);
    await tab.session.start({ kind: 'file-list', files: [fileOf('f/a.txt', TEXTS[0]!, 1), fileOf('f/b.txt', TEXTS[1]!, 2)], sync: true });
    await settled(tab);
    await expect.poll(() => getFolderHandle('f')).toBeNull();
    expect(await getFolderHandle('g')).not.toBeNull();
  });

  it('clearing the corpus forgets every handle', async () => {
    const tab = await openTab();
    await tab.session.start({ kind: 'file-list', files: [fileOf('f/a.txt', TEXTS[0]!, 1)], sync: true });
    await settled(tab);
    await putFolderHandles([folder('f')]);
    await tab.persistence.clear();
    expect(await getFolderHandle('f')).toBeNull();
  });
});
