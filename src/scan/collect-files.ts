/**
 * Turns what the user gave us (a FileList from an input, or a drop's items: files and whole
 * folders) into a flat list of files with relative paths, skipping hidden files and folders
 * (dot-names and node_modules) and recording what was skipped. Time-sliced: never a long task.
 */
import { HiddenLog as CoreHiddenLog, isHiddenName } from '../core/documents/hidden-files.ts';
import type { SkippedFile } from './scan-result.ts';
import { createTimeSlicer } from './yield-to-event-loop.ts';

/** Files to scan, with their paths, plus the hidden ones left out. */
export interface CollectedFiles {
  /** Each path's File (noContents() where `roots` are given: the workers open the files then). */
  files: File[];
  paths: string[];
  /** What was left out while listing: hidden files and folders, and folders that could not be listed. */
  hidden: SkippedFile[];
  /**
   * Set when the files are read through directory handles (scan/handle-source.ts): the handles the
   * paths are under; the ingest workers open and read every path themselves.
   */
  roots?: FileSystemHandle[];
  /** Each file's modification time when the listing knows it already (a rescan of a restored corpus). */
  modified?: Float64Array;
  /** Where `files` are a saved corpus's content batches: each path's byte range of its file (see ScanDocs.ranges). */
  ranges?: Float64Array;
}

// The CLI's walk (src/cli/walk-files.ts) imports the rule from here.
export { isHiddenName };

/** What a drop carried, captured synchronously inside the drop event (items die after it). */
export interface DropSnapshot {
  entries: FileSystemEntry[];
  looseFiles: File[];
  /**
   * Where the browser offers them (Chromium's `getAsFileSystemHandle`): each dropped item's handle,
   * asked for inside the event (they resolve later). When every item gives one, the workers walk and
   * read the drop; otherwise `entries` and `looseFiles` are used.
   */
  handles?: Array<Promise<FileSystemHandle | null>>;
}

/** Whether this browser gives a dropped folder's handle (Chromium's `getAsFileSystemHandle`), which the workers walk. */
export function dropGivesHandles(): boolean {
  return typeof DataTransferItem !== 'undefined' && 'getAsFileSystemHandle' in DataTransferItem.prototype;
}

/**
 * Captures a drop's entries. Must run synchronously in the `drop` handler. Folders come through
 * `webkitGetAsEntry()`; items without an entry (e.g. files built by a page) fall back to `getAsFile()`.
 */
export function snapshotDataTransfer(data: DataTransfer): DropSnapshot {
  const entries: FileSystemEntry[] = [];
  const looseFiles: File[] = [];
  const handles: Array<Promise<FileSystemHandle | null>> = [];
  const items = data.items;
  if (items && items.length > 0) {
    for (let i = 0; i < items.length; i++) {
      // getAsFileSystemHandle is Chromium's (File System Access), not in TypeScript's DOM library yet.
      const item = items[i] as DataTransferItem & { getAsFileSystemHandle?: () => Promise<FileSystemHandle | null> };
      if (item.kind !== 'file') continue;
      if (typeof item.getAsFileSystemHandle === 'function') handles.push(Promise.resolve(item.getAsFileSystemHandle()).catch(() => null));
      // A folder never has a MIME type: typed items are files, and skipping the entry lookup for
      // them keeps a drop of many files short (this all runs inside the drop event).
      const entry = item.type === '' && typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
      if (entry) entries.push(entry);
      else {
        const file = item.getAsFile();
        if (file) looseFiles.push(file);
      }
    }
  } else {
    for (let i = 0; i < data.files.length; i++) looseFiles.push(data.files[i]);
  }
  return handles.length > 0 ? { entries, looseFiles, handles } : { entries, looseFiles };
}

/** The hidden-file log of core, with the scan's record shape (hidden files have no doc id). */
class HiddenLog extends CoreHiddenLog {
  listSkipped(): SkippedFile[] {
    return this.list().map((skip) => ({ docId: -1, ...skip }));
  }
}

/** Collects a FileList (from "Choose folder" / "Choose files"); paths come from `webkitRelativePath`. */
export async function collectFromFileList(list: ArrayLike<File>, signal?: AbortSignal): Promise<CollectedFiles> {
  const files: File[] = [];
  const paths: string[] = [];
  const hidden = new HiddenLog();
  const slice = createTimeSlicer();
  for (let i = 0; i < list.length; i++) {
    const file = list[i];
    const path = file.webkitRelativePath || file.name;
    // Not file.size: in Chromium its first read is a synchronous metadata fetch (see scan-session.ts).
    if (hidden.check(path.split('/'), 0)) continue;
    files.push(file);
    paths.push(path);
    const pause = slice();
    if (pause) {
      await pause;
      signal?.throwIfAborted();
    }
  }
  return inPathOrder({ files, paths, hidden: hidden.listSkipped() });
}

/**
 * Puts collected files in path order (by UTF-16 code unit), so a document's id, and with it every tie
 * broken by id in the groups and the CSV, does not depend on the order a browser or a file system
 * lists a folder: the same folder gives the same answer in the app and in the CLI.
 */
export function inPathOrder(collected: CollectedFiles): CollectedFiles {
  const { files, paths } = collected;
  const order = Array.from(paths.keys());
  order.sort((x, y) => (paths[x] < paths[y] ? -1 : paths[x] > paths[y] ? 1 : x - y));
  return { ...collected, files: order.map((i) => files[i]), paths: order.map((i) => paths[i]) };
}

function readBatch(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function entryFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** What walking a drop meets: a file, a hidden entry (never entered), or a folder that cannot be listed. */
type DropEntry =
  | { kind: 'file'; entry: FileSystemFileEntry; path: string }
  | { kind: 'hidden'; entry: FileSystemEntry; path: string }
  | { kind: 'unreadable'; path: string; error: unknown };

/**
 * A drop's entries in path order as listed: folders recursively (an explicit stack, so very deep trees
 * cannot overflow), hidden folders not entered. The one walk both the collection and the count take.
 */
async function* walkDropEntries(entries: readonly FileSystemEntry[], signal?: AbortSignal): AsyncGenerator<DropEntry> {
  const stack: FileSystemEntry[] = [...entries].reverse();
  while (stack.length > 0) {
    signal?.throwIfAborted();
    const entry = stack.pop()!;
    const path = entry.fullPath.replace(/^\/+/, '');
    if (isHiddenName(entry.name)) yield { kind: 'hidden', entry, path };
    else if (entry.isFile) yield { kind: 'file', entry: entry as FileSystemFileEntry, path };
    else if (entry.isDirectory) {
      try {
        const reader = (entry as FileSystemDirectoryEntry).createReader();
        const children: FileSystemEntry[] = [];
        // readEntries returns at most ~100 entries per call; an empty batch means the end.
        for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) children.push(...batch);
        for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]);
      } catch (error) {
        yield { kind: 'unreadable', path: path + '/', error };
      }
    }
  }
}

/**
 * How many files a drop holds by its entries, hidden ones and hidden folders left out as the walks
 * leave them; null when a folder cannot be listed (nothing to compare). Names only: no File is made.
 */
export async function countDropFiles(drop: DropSnapshot, signal?: AbortSignal): Promise<number | null> {
  let count = drop.looseFiles.filter((file) => !isHiddenName(file.name)).length;
  for await (const met of walkDropEntries(drop.entries, signal)) {
    if (met.kind === 'unreadable') return null;
    if (met.kind === 'file') count++;
  }
  return count;
}

/**
 * Collects a drop (`walkDropEntries`): its loose files and every file under its folders. Unreadable
 * entries become `onUnreadable` records.
 */
export async function collectFromDrop(
  drop: DropSnapshot,
  signal?: AbortSignal,
  onUnreadable?: (path: string, error: unknown) => void,
): Promise<CollectedFiles> {
  const files: File[] = [];
  const paths: string[] = [];
  const hidden = new HiddenLog();
  for (const file of drop.looseFiles) {
    if (hidden.check([file.name], file.size)) continue;
    files.push(file);
    paths.push(file.name);
  }
  const slice = createTimeSlicer();
  const pendingFiles: FileSystemFileEntry[] = [];
  // File entries are resolved in parallel batches: one await per file would take seconds on 100,000.
  const flushFiles = async () => {
    const batch = pendingFiles.splice(0, pendingFiles.length);
    const settled = await Promise.allSettled(batch.map(entryFile));
    settled.forEach((outcome, i) => {
      const path = batch[i].fullPath.replace(/^\/+/, '');
      if (outcome.status === 'fulfilled') {
        files.push(outcome.value);
        paths.push(path);
      } else onUnreadable?.(path, outcome.reason);
    });
  };
  for await (const met of walkDropEntries(drop.entries, signal)) {
    if (met.kind === 'hidden') {
      if (met.entry.isDirectory) hidden.addFolder(met.path + '/', 0, 0);
      else hidden.check(met.path.split('/'), 0);
      continue;
    }
    if (met.kind === 'unreadable') onUnreadable?.(met.path, met.error);
    else {
      pendingFiles.push(met.entry);
      if (pendingFiles.length >= 512) await flushFiles();
    }
    const pause = slice();
    if (pause) await pause;
  }
  await flushFiles();
  return inPathOrder({ files, paths, hidden: hidden.listSkipped() });
}
