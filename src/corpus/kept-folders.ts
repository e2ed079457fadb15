/**
 * What the corpus keeps about the folders it read, for the keep panel: a folder's handle (to move files
 * in it after a reload) and the root a CLI result's folder lies under (for the plan). The UI reads and
 * adds them here, never in storage.
 */
import { getFolderHandle, putFolderHandles } from '../storage/folder-handles.ts';
import { getFolderRoots } from '../storage/folder-roots.ts';

/** The handle kept for folder `name`, or null (none kept, or it could not be read). */
export async function keptFolderHandle(name: string): Promise<FileSystemDirectoryHandle | null> {
  return getFolderHandle(name).catch(() => null);
}

/** Keeps a folder's handle with the corpus (a failure keeps it for this visit only). */
export function keepFolderHandle(handle: FileSystemDirectoryHandle): void {
  void putFolderHandles([handle]).catch(() => undefined);
}

/** The kept roots by folder name (empty when none, or when they could not be read). */
export async function keptFolderRoots(): Promise<Record<string, string>> {
  return getFolderRoots().catch(() => ({}));
}
