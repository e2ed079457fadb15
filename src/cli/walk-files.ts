/** Walking a folder for the CLI as the app collects one: relative '/' paths, hidden names left out by the app's rule. */
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isHiddenName } from '../scan/collect-files.ts';
import { errorCode } from './cli-common.ts';
import { fsPath, nameFromBytes } from './terminal-names.ts';

/**
 * Every regular file under `root`, as paths relative to it with '/' separators (in no particular
 * order: the scan puts them in path order, as the app does). Names are read as bytes: one that is not
 * UTF-8 keeps its bytes (terminal-names.ts), so two such names stay two files, each openable through
 * `fsPath`. Symbolic links are not followed (no cycles, nothing outside DIR). Hidden files and folders
 * are left out by the app's rule (folders not entered; `onHidden` hears each). An entry that is not a
 * regular file (a FIFO, a device, a socket) is never opened: `onNotRegular` hears it with what it is.
 * Unreadable subdirectories are reported through `onError` and skipped.
 */
export async function walkFiles(
  root: string,
  onError: (path: string, message: string) => void,
  onHidden: (path: string) => void = () => undefined,
  onNotRegular: (path: string, kind: string) => void = () => undefined,
): Promise<string[]> {
  const files: string[] = [];
  const pending: string[] = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = await readdir(fsPath(dir), { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (dir === root) throw error;
      onError(toRelative(root, dir), `directory unreadable (${errorCode(error)})`);
      continue;
    }
    for (const entry of entries) {
      const name = nameFromBytes(entry.name);
      const full = join(dir, name);
      if ((entry.isDirectory() || entry.isFile()) && isHiddenName(name)) {
        onHidden(toRelative(root, full));
        continue;
      }
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) files.push(toRelative(root, full));
      else if (!entry.isSymbolicLink()) onNotRegular(toRelative(root, full), specialKind(entry));
    }
  }
  return files;
}

/** What a file that is not a regular one is, for messages. */
export function specialKind(info: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  return info.isFIFO() ? 'a FIFO' : info.isCharacterDevice() ? 'a character device' : info.isBlockDevice() ? 'a block device' : info.isSocket() ? 'a socket' : 'not a file';
}

function toRelative(root: string, full: string): string {
  const rel = relative(root, full);
  return sep === '/' ? rel : rel.split(sep).join('/');
}
