/**
 * A name the browser's file access refuses (Chromium throws a TypeError for `a?.txt`, `notes.txt~`...):
 * the move and the pair view say so and point to `simsift apply`, instead of calling the file missing.
 */
import { describe, expect, it } from 'vitest';
import { openUnder } from '../../../src/ui/keep/quarantine-move.ts';

/** A folder handle whose entries all exist, but whose names with `?` the browser refuses, as Chromium does. */
function folder(name: string): FileSystemDirectoryHandle {
  const refuse = (child: string) => {
    if (child.includes('?')) throw new TypeError('Name is not allowed.');
  };
  return {
    name,
    kind: 'directory',
    async getDirectoryHandle(child: string) {
      refuse(child);
      return folder(child);
    },
    async getFileHandle(child: string) {
      refuse(child);
      return { kind: 'file', name: child, getFile: async () => new File(['text'], child) };
    },
  } as unknown as FileSystemDirectoryHandle;
}

describe('a name the browser refuses', () => {
  it('is not "missing": the reason names the browser and simsift apply, for the file and for its folder', async () => {
    await expect(openUnder(folder('crawl'), 'crawl/page.html?id=2')).rejects.toThrow(/browser does not let a page open \(move it with simsift apply\)/);
    await expect(openUnder(folder('crawl'), 'crawl/what?/page.html')).rejects.toThrow(/simsift apply/);
    await expect(openUnder(folder('crawl'), 'crawl/ok/page.html')).resolves.toBeInstanceOf(Blob);
  });
});
