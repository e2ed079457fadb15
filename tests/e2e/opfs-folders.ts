/**
 * Origin-private (OPFS) folders standing in for folders a person picks or drops: a picker or a native
 * drop cannot be driven headless, so the page's `showDirectoryPicker` (or a drop's
 * `getAsFileSystemHandle`) answers with these real directory handles, and everything after it is the
 * app's own path.
 */
import type { Page } from '@playwright/test';

/** Makes the OPFS folder `name` (`a/b`: folder b inside a) hold exactly `files` (path -> text). */
export async function opfsFolder(page: Page, name: string, files: Record<string, string>): Promise<void> {
  await page.evaluate(
    async ({ name, files }) => {
      const parts = name.split('/');
      let parent = await navigator.storage.getDirectory();
      for (const part of parts.slice(0, -1)) parent = await parent.getDirectoryHandle(part, { create: true });
      await parent.removeEntry(parts[parts.length - 1]!, { recursive: true }).catch(() => undefined);
      const top = await parent.getDirectoryHandle(parts[parts.length - 1]!, { create: true });
      for (const [path, text] of Object.entries(files)) {
        const parts = path.split('/');
        let dir = top;
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
        const writable = await (await dir.getFileHandle(parts[parts.length - 1]!, { create: true })).createWritable();
        await writable.write(text);
        await writable.close();
      }
    },
    { name, files },
  );
}

/** Makes the page's showDirectoryPicker answer with the OPFS folder at `path` (`a/b`: folder b inside a). */
export async function pickerReturns(page: Page, path: string): Promise<void> {
  await page.evaluate((path) => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () => {
      let dir = await navigator.storage.getDirectory();
      for (const part of path.split('/')) dir = await dir.getDirectoryHandle(part);
      return dir;
    };
  }, path);
}

/** Every file under the OPFS folder `name`: path -> bytes (as a string of byte values). */
export function opfsFiles(page: Page, name: string): Promise<Record<string, string>> {
  return page.evaluate(async (name) => {
    const out: Record<string, string> = {};
    const walk = async (dir: FileSystemDirectoryHandle, at: string) => {
      for await (const [child, handle] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
        if (handle.kind === 'directory') await walk(handle as FileSystemDirectoryHandle, `${at}${child}/`);
        else out[`${at}${child}`] = Array.from(new Uint8Array(await (await (handle as FileSystemFileHandle).getFile()).arrayBuffer())).join(',');
      }
    };
    let dir = await navigator.storage.getDirectory();
    for (const part of name.split('/')) dir = await dir.getDirectoryHandle(part);
    await walk(dir, '');
    return out;
  }, name);
}

/** Drops the OPFS folder `name` on the drop zone: a native drop cannot be made headless, so the dropped item answers getAsFileSystemHandle with that folder. */
export async function dropOpfsFolder(page: Page, name: string): Promise<void> {
  await page.getByRole('region', { name: 'Drop zone' }).evaluate(async (zone, name) => {
    const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
    const proto = DataTransferItem.prototype as unknown as { getAsFileSystemHandle: () => Promise<FileSystemHandle | null> };
    proto.getAsFileSystemHandle = () => Promise.resolve(folder);
    const data = new DataTransfer();
    data.items.add(new File(['not read'], name));
    for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
  }, name);
}
