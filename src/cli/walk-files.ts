/** Walking a folder for the CLI as the app collects one: relative '/' paths, hidden names left out by the app's rule. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
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
  // Each folder with its path relative to root: names are appended by hand (path.relative for each of
  // 100,000 files cost a third of a second).
  const pending: Array<[string, string]> = [[root, '']];
  while (pending.length > 0) {
    const [dir, rel] = pending.pop()!;
    let entries;
    try {
      entries = await readdir(fsPath(dir), { withFileTypes: true, encoding: 'buffer' });
    } catch (error) {
      if (dir === root) throw error;
      onError(rel, `directory unreadable (${errorCode(error)})`);
      continue;
    }
    for (const entry of entries) {
      const name = nameFromBytes(entry.name);
      const path = rel === '' ? name : `${rel}/${name}`;
      if ((entry.isDirectory() || entry.isFile()) && isHiddenName(name)) {
        onHidden(path);
        continue;
      }
      if (entry.isDirectory()) pending.push([join(dir, name), path]);
      else if (entry.isFile()) files.push(path);
      else if (!entry.isSymbolicLink()) onNotRegular(path, specialKind(entry));
    }
  }
  return files;
}

/** What a file that is not a regular one is, for messages. */
export function specialKind(info: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  return info.isFIFO() ? 'a FIFO' : info.isCharacterDevice() ? 'a character device' : info.isBlockDevice() ? 'a block device' : info.isSocket() ? 'a socket' : 'not a file';
}
