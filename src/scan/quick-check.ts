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

/** Whether the saved corpus holds `path` at this size and time (then its saved record stands for it). */
export type UnchangedTest = (path: string, size: number, modified: number) => boolean;

/**
 * Files asked for their size and time per main-thread task. In Chromium a folder input's File fetches
 * its metadata with a synchronous IPC on first ask (0.13 ms idle, far more under load): a few dozen
 * per task, then the event loop runs, so no task grows long.
 */
const STAT_CHUNK = 32;
/** Paths a worker opens per stat call (handles are opened in the workers, off the main thread). */
const STAT_PATHS_PER_CALL = 1024;

/** Sizes and times of Files the page holds (folder input, Choose files, an entries drop), in small tasks. */
export async function statFiles(files: ArrayLike<Blob>, signal: AbortSignal): Promise<FileStats> {
  const n = files.length;
  const sizes = new Float64Array(n);
  const modified = new Float64Array(n);
  for (let from = 0; from < n; from += STAT_CHUNK) {
    if (from > 0) await yieldToEventLoop();
    signal.throwIfAborted();
    const to = Math.min(n, from + STAT_CHUNK);
    for (let d = from; d < to; d++) {
      const file = files[d]!;
      sizes[d] = file.size;
      modified[d] = file instanceof File ? file.lastModified : 0;
    }
  }
  return { sizes, modified };
}

/** Sizes and times of paths under directory handles the ingest workers hold (scan `token`), opened there. */
export async function statHandlePaths(workers: ScanWorkers, token: string, paths: readonly string[], signal: AbortSignal): Promise<FileStats> {
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

/** Splits `collected` by `isUnchanged`: the unchanged files are left out of what the scan reads. */
export function splitUnchanged(collected: CollectedFiles, stats: FileStats, isUnchanged: UnchangedTest): QuickCheckSplit {
  const keep: number[] = [];
  for (let d = 0; d < collected.paths.length; d++) {
    const size = stats.sizes[d]!;
    if (size < 0 || !isUnchanged(collected.paths[d]!, size, stats.modified[d]!)) keep.push(d);
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
 * The quick check over a scan's listing: every file's size and time (asked of the Files the page holds,
 * in small tasks; through handles, of the workers, only when there is a saved corpus to compare with:
 * otherwise the workers' reads carry the times), then the split by `isUnchanged` (null: read all).
 * A listing that carries its times (a rescan from kept contents) is not asked again.
 */
export async function quickCheck(
  workers: ScanWorkers,
  listing: CollectedFiles,
  handleToken: string | null,
  isUnchanged: UnchangedTest | null,
  signal: AbortSignal,
): Promise<QuickCheckSplit | { toRead: CollectedFiles; stats: FileStats | null; unchanged: 0 }> {
  const stats = listing.modified
    ? { sizes: new Float64Array(listing.paths.length).fill(-1), modified: listing.modified }
    : handleToken === null
      ? await statFiles(listing.files, signal)
      : isUnchanged
        ? await statHandlePaths(workers, handleToken, listing.paths, signal)
        : null;
  if (!stats || !isUnchanged) return { toRead: listing, stats, unchanged: 0 };
  return splitUnchanged(listing, stats, isUnchanged);
}
