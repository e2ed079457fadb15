/**
 * The quick check of a folder chosen again (as fclones' cache does): each listed file's size and
 * modification time, and which files the saved corpus holds at the same path, size and time. Those
 * are not read; the rest of the listing is what the scan reads and fingerprints.
 */
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { CollectedFiles } from './collect-files.ts';
import { yieldToEventLoop } from './yield-to-event-loop.ts';

/** Each listed file's size (-1: it could not be opened) and modification time (ms since the epoch; 0: unknown). */
export interface FileStats {
  sizes: Float64Array;
  modified: Float64Array;
}

/**
 * Sizes and times a handle walk took as it listed the files (walkHandles `stat`), by position in
 * `paths`: the quick check takes them instead of opening every path again in the workers.
 */
export interface ListedStats {
  paths: readonly string[];
  stats: FileStats;
}

/** The saved corpus's side of the quick check. */
export interface UnchangedTest {
  /** Whether `path` is saved at all (only such files are asked for their size and time before reading). */
  saved(path: string): boolean;
  /** Whether the saved corpus holds `path` at this size and time (then its saved record stands for it). */
  unchanged(path: string, size: number, modified: number): boolean;
}

/**
 * Files asked for their size and time per main-thread task. In Chromium a folder input's File fetches
 * its metadata with a synchronous IPC on first ask (far longer under load): a few dozen
 * per task, then the event loop runs, so no task grows long.
 */
const STAT_CHUNK = 32;
/** Paths a worker opens per stat call (handles are opened in the workers, off the main thread). */
const STAT_PATHS_PER_CALL = 1024;

/**
 * Sizes and times of the Files at `at` (the others: size -1, time 0; the feeder asks a file read for its
 * time after reading it), in small tasks: Files the page holds (folder input, Choose files, an entries drop).
 */
export async function statFiles(files: ArrayLike<Blob>, at: readonly number[], signal: AbortSignal, onChecked?: (done: number) => void): Promise<FileStats> {
  const sizes = new Float64Array(files.length).fill(-1);
  const modified = new Float64Array(files.length);
  for (let from = 0; from < at.length; from += STAT_CHUNK) {
    if (from > 0) await yieldToEventLoop();
    signal.throwIfAborted();
    for (const d of at.slice(from, from + STAT_CHUNK)) {
      const file = files[d]!;
      sizes[d] = file.size;
      modified[d] = file instanceof File ? file.lastModified : 0;
    }
    onChecked?.(Math.min(at.length, from + STAT_CHUNK));
  }
  return { sizes, modified };
}

/** Sizes and times of paths under directory handles the ingest workers hold (scan `token`), opened there. */
export async function statHandlePaths(workers: ScanWorkers, token: string, paths: readonly string[], signal: AbortSignal, onChecked?: (done: number) => void): Promise<FileStats> {
  let done = 0;
  const sizes = new Float64Array(paths.length);
  const modified = new Float64Array(paths.length);
  const calls: Promise<void>[] = [];
  for (let from = 0; from < paths.length; from += STAT_PATHS_PER_CALL) {
    const part = paths.slice(from, from + STAT_PATHS_PER_CALL);
    calls.push(
      workers.ingest
        .run(signal, (api) => api.statHandles(token, part))
        .then((stats) => {
          sizes.set(stats.sizes, from);
          modified.set(stats.modified, from);
          onChecked?.((done += part.length));
        }),
    );
  }
  await Promise.all(calls);
  return { sizes, modified };
}

/** What the quick check leaves to read: the files not unchanged (with their stats), and how many were not. */
export interface QuickCheckSplit {
  toRead: CollectedFiles;
  stats: FileStats;
  /** Listed files the saved corpus already holds as they are: not read. */
  unchanged: number;
  /** Those files' paths and Files (a pair that needs one's exact Jaccard reads that one file). */
  left?: UnchangedFiles;
}

/** The listed files the quick check did not read. */
export interface UnchangedFiles {
  paths: string[];
  files: File[];
}

/** Positions of the listing whose path the saved corpus holds. */
function savedAt(listing: CollectedFiles, isUnchanged: UnchangedTest): number[] {
  const at: number[] = [];
  for (let d = 0; d < listing.paths.length; d++) if (isUnchanged.saved(listing.paths[d]!)) at.push(d);
  return at;
}

/** Splits `collected` by `isUnchanged`: the unchanged files are left out of what the scan reads. */
export function splitUnchanged(collected: CollectedFiles, stats: FileStats, isUnchanged: UnchangedTest): QuickCheckSplit {
  const keep: number[] = [];
  for (let d = 0; d < collected.paths.length; d++) {
    const size = stats.sizes[d]!;
    if (size < 0 || !isUnchanged.unchanged(collected.paths[d]!, size, stats.modified[d]!)) keep.push(d);
  }
  const unchanged = collected.paths.length - keep.length;
  if (unchanged === 0) return { toRead: collected, stats, unchanged };
  const pick = (x: Float64Array) => Float64Array.from(keep, (d) => x[d]!);
  const left: UnchangedFiles = { paths: [], files: [] };
  for (let d = 0, k = 0; d < collected.paths.length; d++) {
    if (keep[k] === d) k++;
    else {
      left.paths.push(collected.paths[d]!);
      left.files.push(collected.files[d]!);
    }
  }
  return {
    toRead: { ...collected, files: keep.map((d) => collected.files[d]!), paths: keep.map((d) => collected.paths[d]!) },
    stats: { sizes: pick(stats.sizes), modified: pick(stats.modified) },
    unchanged,
    left,
  };
}

/**
 * The quick check over a scan's listing: the size and time of each file whose path is saved (asked of
 * the Files the page holds, in small tasks; through handles, of the workers), then the split by
 * `isUnchanged` (null: read all). Files not asked here carry their time from the read (the feeder asks
 * a File once it has read it; a handle's worker reads it off the File it opened). A listing that
 * carries its times (a rescan from kept contents) is not asked again.
 */
export async function quickCheck(
  workers: ScanWorkers,
  listing: CollectedFiles,
  handleToken: string | null,
  isUnchanged: UnchangedTest | null,
  signal: AbortSignal,
  /** Told how many files will be asked (once), then how many have been (the page's progress line). */
  onChecked?: (done: number, total: number) => void,
  /** Through handles: the stats the walk took (null: the workers open every path for them). */
  listed: ListedStats | null = null,
): Promise<QuickCheckSplit | { toRead: CollectedFiles; stats: FileStats | null; unchanged: 0 }> {
  const stats = await askStats(listing, workers, handleToken, isUnchanged, signal, onChecked, listed);
  if (!stats || !isUnchanged) return { toRead: listing, stats, unchanged: 0 };
  return splitUnchanged(listing, stats, isUnchanged);
}

/**
 * The stats `listed` holds for each of `paths` (a subsequence of its paths, both in path order: the
 * listing after exclusions), or null if one is missing there.
 */
export function statsAlong(paths: readonly string[], listed: ListedStats): FileStats | null {
  const sizes = new Float64Array(paths.length);
  const modified = new Float64Array(paths.length);
  let q = 0;
  for (let d = 0; d < paths.length; d++) {
    while (q < listed.paths.length && listed.paths[q] !== paths[d]) q++;
    if (q === listed.paths.length) return null;
    sizes[d] = listed.stats.sizes[q]!;
    modified[d] = listed.stats.modified[q]!;
  }
  return { sizes, modified };
}

/**
 * The listing's sizes and times: given by the listing, asked of the saved files' Files (the folder
 * input: only those a saved record could stand for), or of every path through the workers' handles
 * (only when something is saved to compare with; taken from `listed` when the walk took them).
 * `onChecked` is told the count asked, then progress.
 */
async function askStats(
  listing: CollectedFiles,
  workers: ScanWorkers,
  handleToken: string | null,
  isUnchanged: UnchangedTest | null,
  signal: AbortSignal,
  onChecked: ((done: number, total: number) => void) | undefined,
  listed: ListedStats | null,
): Promise<FileStats | null> {
  if (listing.modified) return { sizes: new Float64Array(listing.paths.length).fill(-1), modified: listing.modified };
  const tell = (total: number) => {
    const told = total > 0 && onChecked ? (done: number) => onChecked(done, total) : undefined;
    told?.(0);
    return told;
  };
  if (handleToken === null) {
    const at = isUnchanged ? savedAt(listing, isUnchanged) : [];
    return statFiles(listing.files, at, signal, tell(at.length));
  }
  if (!isUnchanged) return null;
  const known = listed && statsAlong(listing.paths, listed);
  if (known) {
    tell(listing.paths.length)?.(listing.paths.length);
    return known;
  }
  return statHandlePaths(workers, handleToken, listing.paths, signal, tell(listing.paths.length));
}
