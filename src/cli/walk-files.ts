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
  const walk = async (dir: string, rel: string, listing: Promise<Listing>): Promise<void> => {
    const listed = await listing;
    if ('error' in listed) {
      if (dir === root) throw listed.error;
      onError(rel, `directory unreadable (${errorCode(listed.error)})`);
      return;
    }
    const { entries, names } = listed;
    // A folder sorts as its name and '/' (its files' paths start so), a file as its name: each folder's
    // keys in order, folders entered in turn, give every path in path order.
    const keys: string[] = [];
    const pathOf = (name: string) => (rel === '' ? name : `${rel}/${name}`);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const name = names[i]!;
      if ((entry.isDirectory() || entry.isFile()) && isHiddenName(name)) onHidden(pathOf(name));
      else if (entry.isDirectory()) keys.push(`${name}/`);
      else if (entry.isFile()) keys.push(name);
      else if (!entry.isSymbolicLink()) onNotRegular(pathOf(name), specialKind(entry));
    }
    keys.sort();
    // Every subfolder is listed at once (the reads overlap, instead of one round trip after another),
    // then walked in path order: what is heard and listed comes in the same order as before.
    const subfolders = keys.map((key) => (key.endsWith('/') ? list(join(dir, key.slice(0, -1))) : null));
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const sub = subfolders[i];
      if (sub) {
        const name = key.slice(0, -1);
        await walk(join(dir, name), pathOf(name), sub);
      } else files.push(pathOf(key));
    }
  };
  await walk(root, '', list(root));
  return files;
}

type Entry = { isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean } & Parameters<typeof specialKind>[0];

/** A folder's entries and their names, or why it could not be read. */
type Listing = { entries: Entry[]; names: string[] } | { error: unknown };

/**
 * Lists `dir` with the entries' types, names as strings (no Buffer per name); a folder holding a name
 * that is not UTF-8 (it decodes with U+FFFD) is read again as bytes, so that name keeps its bytes.
 */
async function list(dir: string): Promise<Listing> {
  try {
    const listed = await readdir(fsPath(dir), { withFileTypes: true });
    const names = listed.map((entry) => entry.name);
    if (!names.some((name) => name.includes('\uFFFD'))) return { entries: listed, names };
    const raw = await readdir(fsPath(dir), { withFileTypes: true, encoding: 'buffer' });
    return { entries: raw, names: raw.map((entry) => nameFromBytes(entry.name)) };
  } catch (error) {
    return { error };
  }
}
