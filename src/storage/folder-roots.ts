/**
 * Where a folder opened beside a CLI result lies on the CLI's machine: one record in the settings store
 * ('folder-roots', beside the folders' handles), a map from a folder's name (the paths' first part) to
 * the absolute folder the page's paths are relative to, so the page's plan records the root the CLI's
 * does. Kept with the corpus (replaced when a CLI result replaces it, forgotten when it is cleared); a
 * damaged record reads as none, so no schema version change.
 */
import { readTransaction, writeTransaction } from './database.ts';
import type { IDBPTransaction, StoreNames } from 'idb';
import type { CorpusDB, SettingsRecord } from './schema.ts';

const KEY = 'folder-roots';

/** The kept roots by folder name (empty when none, or when the record is damaged). */
export async function getFolderRoots(): Promise<Record<string, string>> {
  const record = (await readTransaction(['settings'], (tx) => tx.objectStore('settings').get(KEY))) as unknown as { value?: unknown } | undefined;
  const value = record?.value;
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Forgets every kept root inside a caller's transaction holding 'settings' (a cleared corpus's; read back as none). */
export function forgetFolderRootsInTransaction(tx: IDBPTransaction<CorpusDB, StoreNames<CorpusDB>[], 'readwrite'>): Promise<void> {
  return tx.objectStore('settings').delete(KEY);
}

/** The settings-store record of `roots` (for a caller's transaction, e.g. replaceCorpus). */
export function folderRootsRecord(roots: Readonly<Record<string, string>>): SettingsRecord {
  // As folder-handles.ts: the settings store's values are typed as the scan settings record; this record goes through a cast here only.
  return { key: KEY, value: { ...roots }, updatedAt: Date.now() } as unknown as SettingsRecord;
}

/** Replaces the kept roots with `roots` (none: `{}`). */
export async function setFolderRoots(roots: Readonly<Record<string, string>>): Promise<void> {
  await writeTransaction(['settings'], async (tx) => {
    await tx.objectStore('settings').put(folderRootsRecord(roots));
  });
}
