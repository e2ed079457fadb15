/**
 * The one feeder of the ingest workers: reads a scan's files on the main thread, several in flight,
 * and hands ready-to-transfer batches to a sink, cut by bytes and files, with at most a bounded number
 * of batches in flight (back-pressure keeps memory bounded). Used by the fingerprint pass and the
 * TF-IDF document-frequency pass.
 *
 * Why the main thread reads at all: in Chromium a File from a folder input carries no metadata yet,
 * and posting it to a worker (or reading `size`/`slice`) fetches that metadata with a synchronous IPC
 * on the main thread, long under load; `file.stream()` (see
 * read-file-bytes.ts) needs no metadata and never blocks. Files over the read limit go to a worker
 * alone, as Files, and the worker reads them; in Node the limit is the document limit, because Node
 * cannot post a file-backed Blob at all, so the CLI's files go as their paths (FeedOptions.diskRef) and
 * its threads read them.
 */
import { MAX_DOCUMENT_BYTES } from '../core/documents/document-status.ts';
import type { DiskRef, IngestItem } from '../workers/ingest-protocol.ts';
import { readUpTo } from './read-file-bytes.ts';

/** One batch for a worker: doc ids and their items (bytes, or one large File), with the buffers to transfer. */
export interface FeedBatch {
  ids: number[];
  items: IngestItem[];
  buffers: ArrayBuffer[];
  /** Bytes read here (0 for a large file the worker reads). */
  bytes: number;
  /** True for a single file over the read limit, sent as a File. */
  large: boolean;
}

/** What the feeder reports; `send` returns the batch's task (its rejection stops the feed). */
export interface FeedSink {
  send(batch: FeedBatch): Promise<void>;
  /** A file could not be read (moved, deleted, locked). */
  unreadable(doc: number, message: string): void;
  /** A file is larger than SimSift compares (MAX_DOCUMENT_BYTES): never sent. */
  tooLarge(doc: number, size: number): void;
  /** A small file was read (its size is known from now on). */
  read?(doc: number, bytes: number): void;
}

export interface FeedOptions {
  /** Files up to this size are read here (ScanWorkers.readLimit). */
  readLimit: number;
  /** Batches in flight at most (two per worker keeps every worker busy). */
  maxInFlight: number;
  signal: AbortSignal;
  batchBytes?: number;
  batchFiles?: number;
  /** Reads in flight here: enough to hide the per-file latency of the browser's blob reads. */
  readConcurrency?: number;
  /** File `d` when it is not `files[d]` itself (a range of a stored batch, sliced only when read). */
  fileAt?: (d: number) => Blob;
  /** A file the workers read themselves (ScanWorkers.diskRef): sent as its path, never read here. */
  diskRef?: (file: Blob) => DiskRef | null;
  /** Each file's modification time (0: not asked; a new file's is asked once the results show, see corpus/file-times.ts): sent with its bytes. */
  modified?: { [d: number]: number; readonly length: number };
}

/**
 * Feeds `files` (doc id = index) to `sink`; resolves when every batch is sent, settled and none failed
 * (`onSent` runs once all are sent, before waiting for the last ones). Rejects with the first failure.
 */
export async function feedFiles(
  files: ArrayLike<Blob>,
  paths: readonly string[],
  sink: FeedSink,
  options: FeedOptions,
  onSent?: () => void,
): Promise<void> {
  const { readLimit, maxInFlight, signal } = options;
  const batchBytes = options.batchBytes ?? 4 * 1024 * 1024;
  const batchFiles = options.batchFiles ?? 256;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  const dispatch = (batch: FeedBatch) => {
    const task = sink
      .send(batch)
      .catch((error: unknown) => void (failure ??= error))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };
  let open: FeedBatch = { ids: [], items: [], buffers: [], bytes: 0, large: false };
  const flush = () => {
    if (open.ids.length === 0) return;
    dispatch(open);
    open = { ids: [], items: [], buffers: [], bytes: 0, large: false };
  };
  let next = 0;
  const lane = async () => {
    while (next < files.length && failure === null) {
      const d = next++;
      const file = options.fileAt ? options.fileAt(d) : files[d];
      const disk = options.diskRef?.(file) ?? null;
      if (disk) {
        signal.throwIfAborted();
        if (disk.size > MAX_DOCUMENT_BYTES) sink.tooLarge(d, disk.size);
        else {
          sink.read?.(d, disk.size);
          open.ids.push(d);
          open.items.push({ name: paths[d], disk, ...(options.modified ? { lastModified: options.modified[d] } : {}) });
          open.bytes += disk.size;
          if (open.bytes >= batchBytes || open.ids.length >= batchFiles) flush();
        }
        while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
        continue;
      }
      const read = await readUpTo(file, readLimit);
      signal.throwIfAborted();
      if (read.kind === 'error') {
        sink.unreadable(d, read.message);
        continue;
      }
      if (read.kind === 'large') {
        // Its size is asked only now, once the file is known to be large (one call, not one per file).
        if (file.size > MAX_DOCUMENT_BYTES) sink.tooLarge(d, file.size);
        else dispatch({ ids: [d], items: [{ name: paths[d], file, ...(options.modified ? { lastModified: options.modified[d] } : {}) }], buffers: [], bytes: 0, large: true });
      } else {
        sink.read?.(d, read.bytes.byteLength);
        open.ids.push(d);
        open.items.push({ name: paths[d], bytes: read.bytes, ...(options.modified ? { lastModified: options.modified[d] } : {}) });
        open.buffers.push(read.bytes.buffer as ArrayBuffer);
        open.bytes += read.bytes.byteLength;
        if (open.bytes >= batchBytes || open.ids.length >= batchFiles) flush();
      }
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    }
  };
  await Promise.all(Array.from({ length: options.readConcurrency ?? 32 }, lane));
  flush();
  if (failure !== null) throw failure;
  onSent?.();
  while (inFlight.size > 0) await Promise.race(inFlight);
  if (failure !== null) throw failure;
}
