/**
 * The scanned folders' directory handles, kept with the corpus so that after a reload the page can ask
 * for permission again and act on the folder (the keep panel's move to quarantine): one record in the
 * settings store ('folder-handles', beside the keep rules), a map from a folder's name (the paths' first
 * part) to its handle. Directory handles are structured-cloneable; where a browser has none, nothing
 * is kept. No schema version change: a damaged record reads as none.
 */
import { readTransaction, writeTransaction } from './database.ts';
import type { IDBPTransaction, StoreNames } from 'idb';
import type { CorpusDB, SettingsRecord } from './schema.ts';

const KEY = 'folder-handles';

type Handles = Record<string, FileSystemDirectoryHandle>;

function asHandles(value: unknown): Handles {
  if (typeof value !== 'object' || value === null) return {};
  const out: Handles = {};
  for (const [name, handle] of Object.entries(value as Record<string, unknown>)) {
    if (typeof handle === 'object' && handle !== null && (handle as { kind?: unknown }).kind === 'directory') out[name] = handle as FileSystemDirectoryHandle;
  }
  return out;
}

// As keep-marks.ts: the settings store's values are typed as the scan settings record; this record goes through a cast here only.
async function change(update: (handles: Handles) => boolean): Promise<void> {
  await writeTransaction(['settings'], async (tx) => {
    const store = tx.objectStore('settings');
    const record = (await store.get(KEY)) as unknown as { value?: unknown } | undefined;
    const handles = asHandles(record?.value);
    if (update(handles)) await store.put({ key: KEY, value: handles, updatedAt: Date.now() } as unknown as SettingsRecord);
  });
}

/** Forgets every kept handle inside a caller's transaction holding 'settings' (a cleared corpus's). */
export function forgetAllFolderHandlesInTransaction(tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'readwrite'>): Promise<void> {
  return tx.objectStore('settings').delete(KEY);
}

/** The kept handle of the folder named `name`, or null. */
export async function getFolderHandle(name: string): Promise<FileSystemDirectoryHandle | null> {
  const record = (await readTransaction(['settings'], (tx) => tx.objectStore('settings').get(KEY))) as unknown as { value?: unknown } | undefined;
  return asHandles(record?.value)[name] ?? null;
}

/** Keeps each folder of `handles` (files given as handles are not folders, and are left out), by its name. */
export async function putFolderHandles(handles: readonly FileSystemHandle[]): Promise<void> {
  const folders = handles.filter((h) => h.kind === 'directory') as FileSystemDirectoryHandle[];
  if (folders.length === 0) return;
  await change((kept) => {
    for (const folder of folders) kept[folder.name] = folder;
    return true;
  });
}

/**
 * Forgets the handles of the folders named `names` (a folder of that name scanned without a handle may be
 * another folder: the page must not act on the old one), or every handle when `names` is null.
 */
export async function forgetFolderHandles(names: ReadonlySet<string> | null): Promise<void> {
  await change((kept) => {
    let changed = false;
    for (const name of Object.keys(kept)) {
      if (names === null || names.has(name)) {
        delete kept[name];
        changed = true;
      }
    }
    return changed;
  });
}
