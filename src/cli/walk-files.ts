/** Walking a folder for the CLI as the app collects one: relative '/' paths, hidden names left out by the app's rule. */
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isHiddenName } from '../scan/collect-files.ts';
import { errorCode } from './cli-common.ts';

/**
 * Every regular file under `root`, as paths relative to it with '/' separators (in no particular
 * order: the scan puts them in path order, as the app does). Symbolic links are not followed (no
 * cycles, nothing outside DIR). Hidden files and folders are left out by the app's rule (folders not
 * entered; `onHidden` hears each). Unreadable subdirectories
 * are reported through `onError` and skipped.
 */
export async function walkFiles(
  root: string,
  onError: (path: string, message: string) => void,
  onHidden: (path: string) => void = () => undefined,
): Promise<string[]> {
  const files: string[] = [];
  const pending: string[] = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (dir === root) throw error;
      onError(toRelative(root, dir), `directory unreadable (${errorCode(error)})`);
      continue;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if ((entry.isDirectory() || entry.isFile()) && isHiddenName(entry.name)) {
        onHidden(toRelative(root, full));
        continue;
      }
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) files.push(toRelative(root, full));
    }
  }
  return files;
}

function toRelative(root: string, full: string): string {
  const rel = relative(root, full);
  return sep === '/' ? rel : rel.split(sep).join('/');
}
