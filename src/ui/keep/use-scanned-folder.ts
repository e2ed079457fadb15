/**
 * The scanned folder's writable handle for "Move marked to quarantine": this scan's own (picker or drop),
 * else the one kept with the corpus (permission asked again on a click), else the folder picked again
 * and adopted; and whether the page may change it now.
 */
import { useEffect, useState } from 'react';
import { keepFolderHandle, keptFolderHandle } from '../../corpus/kept-folders.ts';

type Permissioned = FileSystemDirectoryHandle & {
  queryPermission?: (d: { mode: 'readwrite' }) => Promise<PermissionState>;
  requestPermission?: (d: { mode: 'readwrite' }) => Promise<PermissionState>;
};

/** Where the folder to act on comes from, for what the panel says. */
export type FolderSource = 'scan' | 'kept' | 'picked';

/** The folder to act on (null: none yet), where it came from, whether writing is granted, and the two ways to change that. */
export interface ScannedFolder {
  root: FileSystemDirectoryHandle | null;
  source: FolderSource;
  granted: boolean;
  /** Takes a picked folder (already checked against the scan) as the one to act on, kept with the corpus. */
  adopt(picked: FileSystemDirectoryHandle): void;
  /** Asks the browser for write access (on a click: a request without a user gesture is refused); true when granted. */
  requestAccess(): Promise<boolean>;
}

/** The handle to act on for the documents `scanned` of folder `folderName`; another scan forgets a folder picked for these. */
export function useScannedFolder(folderName: string, scanRoot: FileSystemDirectoryHandle | null, scanned: object): ScannedFolder {
  const [other, setOther] = useState<{ for: object; handle: FileSystemDirectoryHandle; source: FolderSource } | null>(null);
  const [allowed, setAllowed] = useState<{ handle: FileSystemDirectoryHandle; granted: boolean } | null>(null);
  const root = scanRoot ?? (other?.for === scanned ? other.handle : null);
  const source: FolderSource = scanRoot ? 'scan' : (other?.source ?? 'kept');
  useEffect(() => {
    // The handle kept with the corpus (a folder read through a handle before this page's load).
    if (scanRoot) return;
    let live = true;
    void keptFolderHandle(folderName).then((handle) => {
      if (live && handle) setOther((now) => (now?.for === scanned ? now : { for: scanned, handle, source: 'kept' }));
    });
    return () => {
      live = false;
    };
  }, [folderName, scanRoot, scanned]);
  useEffect(() => {
    // Asking is free; only a request (on a click) may show the browser's prompt.
    if (!root) return;
    let live = true;
    const query = (root as Permissioned).queryPermission?.({ mode: 'readwrite' }) ?? Promise.resolve<PermissionState>('prompt');
    query.then((state) => live && setAllowed({ handle: root, granted: state === 'granted' })).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [root]);
  return {
    root,
    source,
    granted: root !== null && allowed?.handle === root && allowed.granted,
    adopt(picked) {
      setOther({ for: scanned, handle: picked, source: 'picked' });
      setAllowed({ handle: picked, granted: true });
      // Kept with the corpus: after a reload the page asks for permission again instead of for the folder.
      keepFolderHandle(picked);
    },
    async requestAccess() {
      if (!root) return false;
      const state = await ((root as Permissioned).requestPermission?.({ mode: 'readwrite' }) ?? Promise.resolve<PermissionState>('granted'));
      setAllowed({ handle: root, granted: state === 'granted' });
      return state === 'granted';
    },
  };
}
