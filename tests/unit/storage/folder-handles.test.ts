import { describe, expect, it } from 'vitest';
import { forgetFolderHandles, getFolderHandle, putFolderHandles } from '../../../src/storage/folder-handles.ts';
import { useFreshDatabase } from './storage-test-db.ts';

useFreshDatabase();

// Node has no FileSystemDirectoryHandle: plain objects of the same shape, cloned by IndexedDB as handles are.
const folder = (name: string, n = 0) => ({ kind: 'directory', name, n }) as unknown as FileSystemDirectoryHandle;
const file = (name: string) => ({ kind: 'file', name }) as unknown as FileSystemHandle;

describe('the folders’ handles kept with the corpus', () => {
  it('kept by folder name (a newer one replaces the older), files left out, forgotten by name or all', async () => {
    expect(await getFolderHandle('notes')).toBeNull();
    await putFolderHandles([folder('notes', 1), file('loose.txt'), folder('books')]);
    expect(await getFolderHandle('notes')).toEqual({ kind: 'directory', name: 'notes', n: 1 });
    expect(await getFolderHandle('loose.txt')).toBeNull();
    await putFolderHandles([folder('notes', 2)]);
    expect(await getFolderHandle('notes')).toEqual({ kind: 'directory', name: 'notes', n: 2 });
    await forgetFolderHandles(new Set(['notes']));
    expect(await getFolderHandle('notes')).toBeNull();
    expect(await getFolderHandle('books')).not.toBeNull();
    await forgetFolderHandles(null);
    expect(await getFolderHandle('books')).toBeNull();
  });
});
