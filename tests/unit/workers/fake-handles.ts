/**
 * A plain object tree standing in for the browser's FileSystemHandles in unit tests (the real ones are
 * driven by the e2e specs through OPFS folders).
 */
import type { DirectoryEntryHandle, EntryHandle, FileEntryHandle } from '../../../src/workers/directory-handles.ts';

export type Tree = { [name: string]: string | Tree | Error };

function notFound(name: string): DOMException {
  return new DOMException(`${name} not found`, 'NotFoundError');
}

/** A handle tree over `tree`: a string is a file's text, an object a folder, an Error a folder whose listing fails with it. */
export function fakeDirectory(name: string, tree: Tree | Error, failAfter = 0): DirectoryEntryHandle {
  const children = (): EntryHandle[] => {
    if (tree instanceof Error) return [];
    return Object.entries(tree).map(([child, value]) => (typeof value === 'string' ? fakeFile(child, value) : fakeDirectory(child, value)));
  };
  return {
    kind: 'directory',
    name,
    async *values() {
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
      return fakeDirectory(child, value);
    },
    async getFileHandle(child) {
      const value = tree instanceof Error ? undefined : tree[child];
      if (typeof value !== 'string') throw notFound(child);
      return fakeFile(child, value);
    },
  };
}

export function fakeFile(name: string, text: string): FileEntryHandle {
  return { kind: 'file', name, getFile: async () => new File([text], name) };
}

