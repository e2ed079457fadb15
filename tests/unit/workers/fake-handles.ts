/**
 * A plain object tree standing in for the browser's FileSystemHandles in unit tests (the real ones are
 * driven by the e2e specs through OPFS folders).
 */
import type { DirectoryEntryHandle, EntryHandle, FileEntryHandle } from '../../../src/workers/directory-handles.ts';

export type Tree = { [name: string]: string | Tree | Error };

function notFound(name: string): DOMException {
  return new DOMException(`${name} not found`, 'NotFoundError');
}

/**
 * What a fake tree counts (round trips a real one makes to the browser process), and file names gone
 * since they were listed: still listed, but `getFile()` and `getFileHandle()` fail with NotFoundError.
 */
export interface TreeProbe {
  listings: number;
  opens: number;
  gone?: ReadonlySet<string>;
}

/** A handle tree over `tree`: a string is a file's text, an object a folder, an Error a folder whose listing fails with it. */
export function fakeDirectory(name: string, tree: Tree | Error, failAfter = 0, probe?: TreeProbe): DirectoryEntryHandle {
  const children = (): EntryHandle[] => {
    if (tree instanceof Error) return [];
    return Object.entries(tree).map(([child, value]) => (typeof value === 'string' ? fakeFile(child, value, probe) : fakeDirectory(child, value, 0, probe)));
  };
  return {
    kind: 'directory',
    name,
    async *values() {
      if (probe) probe.listings++;
      let listed = 0;
      for (const child of children()) {
        if (tree instanceof Error && listed >= failAfter) throw tree;
        listed++;
        yield child;
      }
      if (tree instanceof Error) throw tree;
    },
    async getDirectoryHandle(child) {
      const value = tree instanceof Error ? undefined : tree[child];
      if (value === undefined || typeof value === 'string') throw notFound(child);
      return fakeDirectory(child, value, 0, probe);
    },
    async getFileHandle(child) {
      const value = tree instanceof Error ? undefined : tree[child];
      if (typeof value !== 'string' || probe?.gone?.has(child)) throw notFound(child);
      return fakeFile(child, value, probe);
    },
  };
}

/** A file handle; its File's time is the text's length (a known time that differs from file to file). */
export function fakeFile(name: string, text: string, probe?: TreeProbe): FileEntryHandle {
  return {
    kind: 'file',
    name,
    getFile: async () => {
      if (probe) probe.opens++;
      if (probe?.gone?.has(name)) throw notFound(name);
      return new File([text], name, { lastModified: 1_000 + text.length });
    },
  };
}

