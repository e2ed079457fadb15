/**
 * Which files and folders a scan leaves out by default (dotfiles, dot-folders, node_modules) and the
 * records that say so in the Skipped panel. One rule for every way in: the folder input, a drop, a
 * directory handle walked in a worker, the CLI.
 */
import { skipMessage } from './document-status.ts';

/** A file or folder that was listed but not read, as the Skipped panel shows it (`path` ends in `/` for a folder). */
export interface ListedSkip {
  path: string;
  size: number;
  reason: 'hidden' | 'unreadable';
  message: string;
}

/** True for names skipped by default: dotfiles/dot-folders (`.git`, `.DS_Store`) and `node_modules`. */
export function isHiddenName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** Records hidden paths; files inside one hidden folder collapse into one record with a count. */
export class HiddenLog {
  private readonly folders = new Map<string, { files: number; bytes: number }>();
  readonly files: ListedSkip[] = [];

  /** `segments` is the path split on `/`; returns true if the path is hidden (and logs it). */
  check(segments: string[], size: number): boolean {
    for (let s = 0; s < segments.length; s++) {
      if (!isHiddenName(segments[s]!)) continue;
      if (s === segments.length - 1) {
        const path = segments.join('/');
        this.files.push({ path, size, reason: 'hidden', message: skipMessage('hidden', 'Hidden file: names starting with a dot are skipped.') });
      } else {
        this.addFolder(segments.slice(0, s + 1).join('/') + '/', 1, size);
      }
      return true;
    }
    return false;
  }

  /** A hidden folder (path ending in `/`) with `files` files inside that were not read (0: not entered at all). */
  addFolder(path: string, files: number, bytes: number): void {
    const entry = this.folders.get(path) ?? { files: 0, bytes: 0 };
    entry.files += files;
    entry.bytes += bytes;
    this.folders.set(path, entry);
  }

  list(): ListedSkip[] {
    const out = [...this.files];
    for (const [path, { files, bytes }] of this.folders) {
      const what = files === 0 ? 'its contents were not read' : files === 1 ? '1 file inside was not read' : `${files} files inside were not read`;
      out.push({
        path,
        size: bytes,
        reason: 'hidden',
        message: skipMessage('hidden', `Hidden folder: ${what} (folders starting with a dot and node_modules are skipped).`),
      });
    }
    return out;
  }
}

/** The Skipped panel's record of a file or folder that could not be listed or opened. */
export function unreadableListing(path: string, detail: string): ListedSkip {
  return { path, size: 0, reason: 'unreadable', message: `Could not be read (${detail}).` };
}
