/**
 * The ingest worker API as the CLI's threads run it: the app's `ingestApi` unchanged, plus
 * `ingestPaths`, which takes files named by path (plain strings cross the thread boundary, as Files
 * do in the browser), reads them here in the thread and hands their bytes to the same `ingestBatch`.
 * Why the thread reads: Node cannot post a file-backed Blob to a worker thread, and reading on the main
 * thread (Blob streams, then transferring the bytes) cost more than the fingerprinting on real text.
 */
import { accessSync, closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { DocStatus, skipMessage } from '../core/documents/document-status.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { allocateDocColumns, docColumnBuffers, FINGERPRINT_COLUMNS, scatterDocColumns, type DocColumns, type FingerprintColumnName } from '../core/documents/doc-columns.ts';
import { ingestApi } from '../workers/ingest-api.ts';
import { DEFAULT_INGEST_LIMITS, type BatchSkip, type ChainJob, type DiskRef, type IngestBatchOptions, type IngestBatchResult, type IngestItem, type IngestLimits, type LocalPairs } from '../workers/ingest-protocol.ts';
import type { JobSets } from '../core/groups/packed-sets.ts';
import { spillKept, withSpilledSets } from './set-spill.ts';
import { transfer } from 'comlink';
import { errorCode } from './cli-common.ts';
import { CHANGED_SINCE_LISTED } from './disk-file.ts';
import { fsPath } from './terminal-names.ts';
import { specialKind } from './input-files.ts';

/** What `simsift fingerprint` needs of a batch, one entry per path in the order given (as in IngestBatchResult). */
export type PathBatchResult = DocColumns<FingerprintColumnName> & Pick<IngestBatchResult, 'skipped'>;

/** Each path's stat (`statPaths`): size, times and inode by position; a path that could not be statted has its error code in `failed`. */
export interface PathStats {
  size: Float64Array;
  mtimeMs: Float64Array;
  ctimeMs: Float64Array;
  ino: Float64Array;
  failed: [index: number, code: string][];
  /** With `access`: the statted paths this process may not read, with the error code (`access(R_OK)`'s). */
  denied: [index: number, code: string][];
}

/** Bytes read into one arena before its files are fingerprinted: bounds the memory a batch holds. */
const ARENA_BYTES = 8 * 1024 * 1024;
const arena = new Uint8Array(ARENA_BYTES);
/** The call running `ingestPaths` (calls take turns: they share the arena, and a call waits inside `ingestBatch`). */
let turn: Promise<unknown> = Promise.resolve();

/**
 * Reads the whole file at `path` into the start of `into` (or a buffer of its own when larger), or says
 * why not. A FIFO, device or socket is never read (a FIFO blocks until a writer comes, /dev/zero never
 * ends): it is refused from its stat, and opened non-blocking so that one put in a file's place
 * meanwhile is refused by fstat without waiting.
 */
function readPath(path: string, into: Uint8Array, maxBytes: number): { bytes: Uint8Array } | { tooLarge: number } | { error: string } | { notRegular: string } {
  const name = fsPath(path);
  let fd: number;
  try {
    const info = statSync(name);
    if (info.isDirectory()) return { error: 'EISDIR' };
    if (!info.isFile()) return { notRegular: specialKind(info) };
    fd = openSync(name, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { error: errorCode(error) };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { notRegular: specialKind(info) };
    const size = info.size;
    if (size > maxBytes) return { tooLarge: size };
    // Read as a Blob would be: the size fstat gave (a file that shrank meanwhile ends where it ends).
    const buffer = size <= into.byteLength ? into : new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, buffer, at, size - at, null);
      if (n === 0) break;
      at += n;
    }
    return { bytes: buffer.subarray(0, at) };
  } catch (error) {
    return { error: errorCode(error) };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `ref` into `into` (its listed size), as the main thread's DiskFile would: a file whose size or
 * time differs from its listing fails, and a failure gives the same message.
 */
function readListed(ref: DiskRef, into: Uint8Array): string | null {
  let fd: number;
  try {
    // Non-blocking: a FIFO put in the file's place is refused by its stat instead of waiting for a writer.
    fd = openSync(fsPath(ref.path), constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size !== ref.size || info.mtimeMs !== ref.mtimeMs) return CHANGED_SINCE_LISTED;
    let at = 0;
    while (at < ref.size) {
      const n = readSync(fd, into, at, ref.size - at, null);
      if (n === 0) return CHANGED_SINCE_LISTED;
      at += n;
    }
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * Buffers that disk items are read into, reused from batch to batch (fresh memory for every batch cost
 * a page fault per 4 KB read); one per batch in flight, since a batch's bytes live until it settles.
 */
const readBuffers: Uint8Array[] = [];

/** The batch's disk items (`IngestItem.disk`) read into `into`: each gets its bytes, or the error that stopped its read. */
function readDiskItems(items: IngestItem[], into: Uint8Array): IngestItem[] {
  let at = 0;
  return items.map((item) => {
    const { disk, ...rest } = item;
    if (!disk) return item;
    const bytes = into.subarray(at, at + disk.size);
    at += disk.size;
    const error = readListed(disk, bytes);
    return error === null ? { ...rest, bytes } : { ...rest, error };
  });
}

/**
 * Runs `use` over `items` with their disk items (`IngestItem.disk`) read here, into a buffer of the
 * pool that is taken for the call: what `use` keeps of the bytes it copies (ingestItems keeps the
 * contents as a Blob; the feature sets are computed from them), so the buffer is free once it settles.
 */
async function withDiskItems<T>(items: IngestItem[], use: (items: IngestItem[]) => Promise<T>): Promise<T> {
  if (!items.some((item) => item.disk)) return use(items);
  let total = 0;
  for (const item of items) if (item.disk) total += item.disk.size;
  const taken = readBuffers.findIndex((b) => b.byteLength >= total);
  const buffer = taken >= 0 ? readBuffers.splice(taken, 1)[0] : new Uint8Array(Math.max(total, ARENA_BYTES));
  try {
    return await use(readDiskItems(items, buffer));
  } finally {
    readBuffers.push(buffer);
  }
}

/** The CLI thread's API object (exposed by `ingest.thread.ts`): every call that takes items reads their disk items here. */
export const nodeIngestApi = {
  ...ingestApi,

  /** The app's `ingestBatch`, after reading the items sent as paths on disk (`IngestItem.disk`) here; with `spillSets`, its sets go to the spill file. */
  async ingestBatch(items: IngestItem[], settings: SimHashSettings, options?: IngestBatchOptions, onProgress?: (bytesRead: number) => void): Promise<IngestBatchResult> {
    const result = await withDiskItems(items, (read) => ingestApi.ingestBatch(read, settings, options, onProgress));
    if (options?.spillSets) spillKept(result);
    return result;
  },

  /** The app's `verifyPairs` (exact Jaccards of a chunk), its disk items read here (a cached scan's unchanged files) and its spilled sets read back. */
  verifyPairs(items: IngestItem[], pairs: LocalPairs, settings: SimHashSettings, limits?: IngestLimits, kept?: JobSets): ReturnType<typeof ingestApi.verifyPairs> {
    const job = withSpilledSets(items, kept);
    return withDiskItems(job.items, (read) => ingestApi.verifyPairs(read, pairs, settings, limits, job.kept));
  },

  /** The app's `measureContainment`, its disk items read here and its spilled sets read back. */
  measureContainment(items: IngestItem[], pairs: LocalPairs, threshold: number, settings: SimHashSettings, limits?: IngestLimits, kept?: JobSets): ReturnType<typeof ingestApi.measureContainment> {
    const job = withSpilledSets(items, kept);
    return withDiskItems(job.items, (read) => ingestApi.measureContainment(read, pairs, threshold, settings, limits, job.kept));
  },

  /** The app's `passagesOf`, its disk items read here and its spilled sets read back. */
  passagesOf(items: IngestItem[], settings: SimHashSettings, limits?: IngestLimits, kept?: JobSets): ReturnType<typeof ingestApi.passagesOf> {
    const job = withSpilledSets(items, kept);
    return withDiskItems(job.items, (read) => ingestApi.passagesOf(read, settings, limits, job.kept));
  },

  /** The app's `chainGroups`, its disk items read here and its spilled sets read back. */
  chainGroups(items: IngestItem[], job: ChainJob, settings: SimHashSettings, threshold: number, limits?: IngestLimits, kept?: JobSets): ReturnType<typeof ingestApi.chainGroups> {
    const loaded = withSpilledSets(items, kept);
    return withDiskItems(loaded.items, (read) => ingestApi.chainGroups(read, job, settings, threshold, limits, loaded.kept));
  },

  /**
   * `ingestBatch` over the files at `paths` (also their names: HTML is recognized by the name), read
   * here, a few megabytes at a time; a file that cannot be read or is over the document limit gets
   * DocStatus.unreadable or DocStatus.tooLarge and a skip, as `ingestBatch` would give it.
   */
  /** Gets ready for `settings` before the first batch (WebAssembly compiled, fingerprinter made): a thread starts while the main thread walks. */
  async warmUp(settings: SimHashSettings): Promise<void> {
    await ingestApi.ingestBatch([{ name: 'warm-up.txt', bytes: new TextEncoder().encode('warm up the fingerprinter') }], settings);
  },

  /**
   * The stat of `base + path` for each of `paths`: the scan's listing, split over the threads, so a
   * cached second scan does not wait on one thread's synchronous stats. `access`: also whether each may
   * be read (a scan that reads every file asks here, beside the stat, not on the main thread).
   */
  statPaths(base: string, paths: string[], access = false): PathStats {
    const n = paths.length;
    const out: PathStats = { size: new Float64Array(n), mtimeMs: new Float64Array(n), ctimeMs: new Float64Array(n), ino: new Float64Array(n), failed: [], denied: [] };
    for (let i = 0; i < n; i++) {
      const name = fsPath(base + paths[i]);
      try {
        const info = statSync(name);
        out.size[i] = info.size;
        out.mtimeMs[i] = info.mtimeMs;
        out.ctimeMs[i] = info.ctimeMs;
        out.ino[i] = info.ino;
      } catch (error) {
        out.failed.push([i, errorCode(error)]);
        continue;
      }
      if (!access) continue;
      try {
        accessSync(name, constants.R_OK);
      } catch (error) {
        out.denied.push([i, errorCode(error)]);
      }
    }
    return transfer(out, [out.size.buffer, out.mtimeMs.buffer, out.ctimeMs.buffer, out.ino.buffer]);
  },

  ingestPaths(paths: string[], settings: SimHashSettings): Promise<PathBatchResult> {
    const run = turn.then(() => ingestPathsNow(paths, settings));
    turn = run.catch(() => undefined);
    return run;
  },
};

/** `ingestPaths` while no other call uses the arena. */
async function ingestPathsNow(paths: string[], settings: SimHashSettings): Promise<PathBatchResult> {
  const n = paths.length;
  const out: PathBatchResult = { ...allocateDocColumns(FINGERPRINT_COLUMNS, n), skipped: [] };
  const maxBytes = DEFAULT_INGEST_LIMITS.maxBytes;
  let i = 0;
  while (i < n) {
    // Fill the arena with whole files; a file larger than what is left of it gets its own buffer and closes the round.
    const items: IngestItem[] = [];
    const at: number[] = [];
    let used = 0;
    for (; i < n && used < arena.byteLength; i++) {
      const read = readPath(paths[i], arena.subarray(used), maxBytes);
      if ('notRegular' in read) {
        out.status[i] = DocStatus.notRegular;
        out.skipped.push({ index: i, reason: 'not-regular', message: skipMessage('not-regular', read.notRegular) });
      } else if ('error' in read) {
        out.status[i] = DocStatus.unreadable;
        out.skipped.push({ index: i, reason: 'unreadable', message: skipMessage('unreadable', read.error) });
      } else if ('tooLarge' in read) {
        out.status[i] = DocStatus.tooLarge;
        out.skipped.push({ index: i, reason: 'too-large', message: skipMessage('too-large', `${(read.tooLarge / (1024 * 1024)).toFixed(1)} MB`) });
      } else if (read.bytes.byteLength === 0) {
        // A regular file of 0 bytes (FIFOs and devices were refused above): an empty file, said plainly.
        out.status[i] = DocStatus.empty;
        out.skipped.push({ index: i, reason: 'empty', message: skipMessage('empty', 'regular') });
      } else {
        items.push({ name: paths[i], bytes: read.bytes });
        at.push(i);
        if (read.bytes.buffer === arena.buffer) used += read.bytes.byteLength;
        else {
          i++;
          break;
        }
      }
    }
    if (items.length === 0) continue;
    const r = await ingestApi.ingestBatch(items, settings);
    scatterDocColumns(out, FINGERPRINT_COLUMNS, r, at);
    for (const s of r.skipped) out.skipped.push({ ...s, index: at[s.index] } satisfies BatchSkip);
  }
  out.skipped.sort((a, b) => a.index - b.index);
  return transfer(out, docColumnBuffers(out, FINGERPRINT_COLUMNS));
}

export type NodeIngestApi = typeof nodeIngestApi;
