/**
 * Scans read through directory handles (a folder chosen with `showDirectoryPicker`, a drop whose items
 * give `getAsFileSystemHandle`): the ingest workers walk the handles and open and read every file
 * themselves, so the main thread never touches a file; it only hands out batches of paths. This is
 * the path that takes reading off the main thread; the folder input and `webkitGetAsEntry` drops
 * (Firefox, Safari) go through batch-feeder.ts instead.
 */
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { CollectedFiles, DropSnapshot } from './collect-files.ts';
import { createPathOpener, mergeListings, type EntryHandle } from '../workers/directory-handles.ts';
import { handleDocuments } from './scan-result.ts';
import type { ListedStats } from './quick-check.ts';

/**
 * Lists `roots` in an ingest worker (hidden names left out, folders that cannot be listed reported):
 * the paths in path order, every file standing as the scan's `handleDocuments` File (the page opens a
 * document again by its path only when a view needs it). With `stat` (a quick check will follow), each
 * file's size and time as the walk found it (ListedStats), every worker walking a share of the folder.
 */
export async function collectFromHandles(workers: ScanWorkers, roots: FileSystemHandle[], signal: AbortSignal, stat = false): Promise<{ collected: CollectedFiles; stats: ListedStats | null }> {
  const count = workers.ingest.size;
  const listing =
    stat && count > 1
      ? mergeListings(await workers.ingest.broadcast(signal, (api, index) => api.listHandles(roots, true, { index, count })))
      : await workers.ingest.run(signal, (api) => api.listHandles(roots, stat));
  const placeholder = handleDocuments(createPathOpener(roots as unknown as EntryHandle[]));
  const collected: CollectedFiles = {
    files: new Array<File>(listing.paths.length).fill(placeholder),
    paths: listing.paths,
    hidden: listing.skipped.map((skip) => ({ docId: -1, ...skip })),
    roots,
  };
  return { collected, stats: listing.stats ? { paths: listing.paths, stats: listing.stats } : null };
}

/** A drop's handles when every dropped item gave one (null: read the drop through its entries). */
export async function dropHandles(drop: DropSnapshot): Promise<FileSystemHandle[] | null> {
  if (!drop.handles || drop.handles.length === 0) return null;
  const handles = await Promise.all(drop.handles);
  // Files a page built itself have no handle: Chromium answers null, or nothing at all (undefined).
  return handles.every((handle) => handle && (handle.kind === 'file' || handle.kind === 'directory')) ? (handles as FileSystemHandle[]) : null;
}

let scans = 0;

/** Hands `roots` to every ingest worker for one scan; returns the token its calls name them by. */
export async function openHandlesInWorkers(workers: ScanWorkers, roots: FileSystemHandle[], signal: AbortSignal): Promise<string> {
  const token = `handles-${++scans}`;
  await workers.ingest.broadcast(signal, (api) => api.openHandles(roots, token));
  return token;
}

/**
 * Sends doc ids 0..count-1 in batches of `batchFiles` (path order, so a batch's files share folders)
 * to `send`, at most `maxInFlight` at once; `onSent` runs once all are sent. Rejects with the first failure.
 */
export async function feedIdBatches(
  count: number,
  send: (ids: number[]) => Promise<void>,
  options: { batchFiles: number; maxInFlight: number; signal: AbortSignal },
  onSent?: () => void,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  for (let start = 0; start < count && failure === null; start += options.batchFiles) {
    options.signal.throwIfAborted();
    const ids = Array.from({ length: Math.min(options.batchFiles, count - start) }, (_, i) => start + i);
    const task = send(ids)
      .catch((error: unknown) => void (failure ??= error))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
    while (inFlight.size >= options.maxInFlight) await Promise.race(inFlight);
  }
  if (failure !== null) throw failure;
  onSent?.();
  while (inFlight.size > 0) await Promise.race(inFlight);
  if (failure !== null) throw failure;
}
