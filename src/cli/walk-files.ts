/** Walking a folder for the CLI as the app collects one: relative '/' paths, hidden names left out by the app's rule. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isHiddenName } from '../scan/collect-files.ts';
import { errorCode } from './cli-common.ts';
import { fsPath, nameFromBytes } from './terminal-names.ts';
import { specialKind } from './input-files.ts';

/**
 * Every regular file under `root`, as paths relative to it with '/' separators, in path order (code
 * units, as the scan sorts paths: the quick check walks them beside the cache's in one pass). Names are
 * read as bytes: one that is not UTF-8 keeps its bytes (terminal-names.ts), so two such names stay two
 * files, each openable through `fsPath`. Symbolic links are not followed (no cycles, nothing outside
 * DIR). Hidden files and folders are left out by the app's rule (folders not entered; `onHidden` hears
 * each). An entry that is not a regular file (a FIFO, a device, a socket) is never opened:
 * `onNotRegular` hears it with what it is. Unreadable subdirectories are reported through `onError`
 * and skipped.
 */
export async function walkFiles(
  root: string,
  onError: (path: string, message: string) => void,
  onHidden: (path: string) => void = () => undefined,
  onNotRegular: (path: string, kind: string) => void = () => undefined,
): Promise<string[]> {
  const files: string[] = [];
  // Names are appended by hand (path.relative for each of 100,000 files cost a third of a second).
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries: Array<{ isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean } & Parameters<typeof specialKind>[0]>;
    let names: string[];
    try {
      const listed = await readdir(fsPath(dir), { withFileTypes: true });
      entries = listed;
      names = listed.map((entry) => entry.name);
      // Names as strings (no Buffer per name); a folder holding a name that is not UTF-8 (it decodes
      // with U+FFFD) is read again as bytes, so that name keeps its bytes.
      if (names.some((name) => name.includes('\uFFFD'))) {
        const raw = await readdir(fsPath(dir), { withFileTypes: true, encoding: 'buffer' });
        entries = raw;
        names = raw.map((entry) => nameFromBytes(entry.name));
      }
    } catch (error) {
      if (dir === root) throw error;
      onError(rel, `directory unreadable (${errorCode(error)})`);
      return;
    }
    // A folder sorts as its name and '/' (its files' paths start so), a file as its name: each folder's
    // keys in order, folders entered in turn, give every path in path order.
    const keys: string[] = [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const name = names[i]!;
      const path = rel === '' ? name : `${rel}/${name}`;
      if ((entry.isDirectory() || entry.isFile()) && isHiddenName(name)) onHidden(path);
      else if (entry.isDirectory()) keys.push(`${name}/`);
      else if (entry.isFile()) keys.push(name);
      else if (!entry.isSymbolicLink()) onNotRegular(path, specialKind(entry));
    }
    keys.sort();
    for (const key of keys) {
      if (key.endsWith('/')) {
        const name = key.slice(0, -1);
        await walk(join(dir, name), rel === '' ? name : `${rel}/${name}`);
      } else files.push(rel === '' ? key : `${rel}/${key}`);
    }
  };
  await walk(root, '');
  return files;
}
