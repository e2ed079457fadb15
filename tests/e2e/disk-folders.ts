/**
 * Directory handles on real folders on disk, in a headless Chromium: a folder is dropped on the page
 * through the DevTools protocol (`Input.dispatchDragEvent` with its path, as a person's drag from the
 * file manager), and the drop's item answers `getAsFileSystemHandle()` with a handle on that folder:
 * what Choose folder's picker or a drop gives a person. (An OPFS folder is another file system:
 * Chromium's sandboxed storage, not the person's folder.)
 */
import type { Page } from '@playwright/test';
import { dropOpfsFolder } from './opfs-folders.ts';

/** The folder a handle bench reads: the OPFS copy of that name, or the folder on disk at that path. */
export type HandleRoot = { opfs: string } | { disk: string };

/** Where a bench page finds the handle once `dropDiskFolder` has run. */
export type DiskRootWindow = { __diskRoot: Promise<FileSystemDirectoryHandle> };

/**
 * Drops `dir` on `page`; the drop is caught on the window before any listener of the page sees it,
 * and `globalThis.__diskRoot` resolves to the folder's handle (this returns once it has).
 */
export async function dropDiskFolder(page: Page, dir: string): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as DiskRootWindow;
    let found: (handle: FileSystemDirectoryHandle) => void;
    let failed: (error: Error) => void;
    w.__diskRoot = new Promise((resolve, reject) => ((found = resolve), (failed = reject)));
    const stop = (event: Event) => {
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    const drop = (event: Event) => {
      stop(event);
      for (const type of ['dragenter', 'dragover']) window.removeEventListener(type, stop, true);
      window.removeEventListener('drop', drop, true);
      const item = (event as DragEvent).dataTransfer?.items[0] as (DataTransferItem & { getAsFileSystemHandle(): Promise<FileSystemHandle | null> }) | undefined;
      if (!item) return failed(new Error('the drop carried no item'));
      item.getAsFileSystemHandle().then(
        (handle) => (handle?.kind === 'directory' ? found(handle as FileSystemDirectoryHandle) : failed(new Error(`the drop gave ${handle?.kind ?? 'no handle'}`))),
        failed,
      );
    };
    for (const type of ['dragenter', 'dragover']) window.addEventListener(type, stop, true);
    window.addEventListener('drop', drop, true);
  });
  await dragFolder(page, dir, 10, 10);
  await page.evaluate(() => (window as unknown as DiskRootWindow).__diskRoot.then(() => undefined));
}

/** Drags the folder `dir` from outside the page and drops it at (x, y), as a person would. */
export async function dragFolder(page: Page, dir: string, x: number, y: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const data = { items: [], files: [dir], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  } finally {
    await cdp.detach();
  }
}

/**
 * Drops a folder on the app's drop zone: the disk folder dragged from outside the page, or the OPFS
 * folder through a drop whose item answers getAsFileSystemHandle with it (opfs-folders.ts).
 */
export async function dropFolderOnApp(page: Page, root: HandleRoot): Promise<void> {
  if ('opfs' in root) return dropOpfsFolder(page, root.opfs);
  const zone = (await page.getByRole('region', { name: 'Drop zone' }).boundingBox())!;
  await dragFolder(page, root.disk, zone.x + zone.width / 2, zone.y + zone.height / 2);
}
