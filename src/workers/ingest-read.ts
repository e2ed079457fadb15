/**
 * How the ingest worker reads its items: the scan's folder handles and the paths opened under them, a
 * file's bytes read whole (or why not), and those bytes turned into the normalized compared text and
 * its content hash (core documentUtf8, XXH64). The worker's document extractor and xxhash live here.
 */
import xxhash, { type XXHashAPI } from 'xxhash-wasm';
import type { Utf8Buffer } from '../core/text/normalized-utf8.ts';
import { documentUtf8 } from '../core/text/document-utf8.ts';
import type { Extractor } from '../core/text/documents/extract-document.ts';
import { createWorkerExtractor } from './extraction-worker.ts';
import type { SpawnedWorker } from './worker-bridge.ts';
import { hiOf, loOf } from '../core/simhash/fingerprint64.ts';
import { DEFAULT_INGEST_LIMITS, type BatchSkip, type IngestItem, type IngestLimits } from './ingest-protocol.ts';
import { DocFlag, DocStatus, EXTRACTION_STATUS, formatFlags, skipMessage, tooLargeMessage } from '../core/documents/document-status.ts';
import { createPathOpener, describeHandleError, type EntryHandle } from './directory-handles.ts';

/** Why a file has no text (`flags`: its format, when it is a document that could not be read). */
export type NoText = { ok: false; status: number; skip: BatchSkip['reason']; message: string; flags?: number };

/**
 * The normalized text of one file (its UTF-8 in the worker's buffer: valid until the next file is
 * decoded, so each is used at once) and its content hash, or why there is none.
 */
export type FileText = { ok: true; utf8: Uint8Array; ascii: boolean; hashHi: number; hashLo: number; flags: number; invalidBytes: number } | NoText;

/** One file's bytes as read, or why there are none. */
export type FileBytes = { ok: true; bytes: Uint8Array } | NoText;

// WASM is compiled once per worker; every batch awaits the same promise.
let xxhashPromise: Promise<XXHashAPI> | null = null;

/** How this worker extracts documents: in its own thread by default; in a worker of their own once `useExtractionWorker` is called. */
let extractor: Extractor | undefined;

/**
 * Extracts documents in workers made by `spawn` (extraction-worker.ts), so that one past its time limit
 * is stopped by terminating its worker. The worker files call it; tests calling the API in-process do not.
 */
export function useExtractionWorker(spawn: () => SpawnedWorker): void {
  extractor = createWorkerExtractor(spawn);
}

/** The worker's XXH64, compiled on first use. */
export function getXxhash(): Promise<XXHashAPI> {
  xxhashPromise ??= xxhash();
  return xxhashPromise;
}

/** An item's modification time: the page's record, else its File's (free here: a handle's getFile carries it). */
export function itemModified(item: IngestItem): number {
  return item.lastModified ?? (item.file instanceof File ? item.file.lastModified : 0);
}

/** An item's size in bytes: its bytes' length, else its file's size (0 for a file that could not be opened). */
export function itemSize(item: IngestItem): number {
  return item.error !== undefined ? 0 : item.bytes ? item.bytes.byteLength : item.file!.size;
}

// The handles of the scan that reads through directory handles (`openHandles`), and how to open a path under them.
let handleRoots: { token: string; open: (path: string) => Promise<File> } | null = null;
/** Files opened and read at once per batch: each open and each read is a round trip to the browser process. */
const HANDLE_READS_IN_FLIGHT = 12;
/** Bytes of a batch read up front; files past this (or over `readAheadBytes`) stay Files that `ingestItems` reads in turn. */
const HANDLE_BATCH_READ_BYTES = 32 * 1024 * 1024;

/** Makes `roots` (named by the scan's `token`) the handles that `openPaths` opens paths under. */
export function useHandleRoots(roots: FileSystemHandle[], token: string): void {
  handleRoots = { token, open: createPathOpener(roots as unknown as EntryHandle[]) };
}

/**
 * Opens `paths` under the scan's handles and reads them, several at a time: an item with its File (and
 * its bytes while the batch's read budget lasts), or with why it could not be opened or read.
 */
export async function openPaths(token: string, paths: readonly string[], limits: IngestLimits = DEFAULT_INGEST_LIMITS, read = true): Promise<IngestItem[]> {
  if (!handleRoots || handleRoots.token !== token) throw new Error(`The folder of scan ${token} was not handed to this worker (openHandles).`);
  const { open } = handleRoots;
  const items: IngestItem[] = paths.map((name) => ({ name }));
  let budget = read ? HANDLE_BATCH_READ_BYTES : 0;
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        const file = await open(item.name);
        item.file = file;
        if (file.size > 0 && file.size <= Math.min(budget, limits.readAheadBytes)) {
          budget -= file.size;
          item.bytes = new Uint8Array(await file.arrayBuffer());
        }
      } catch (error) {
        item.error = describeHandleError(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HANDLE_READS_IN_FLIGHT, items.length) }, lane));
  return items;
}

function describeError(error: unknown): string {
  if (error instanceof DOMException) return error.name === 'NotFoundError' ? 'file not found' : error.name;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The compared text of one file's bytes (core documentUtf8: the one bytes -> compared-text rule,
 * documents extracted, as the pair view reads it), normalized as UTF-8 into `out` (the batch's buffer), and
 * the XXH64 of those bytes (seeded by the raw bytes' XXH64 when the decode was lossy).
 */
export async function decodeItem(read: FileBytes, name: string, xx: XXHashAPI, out: Utf8Buffer): Promise<FileText> {
  if (!read.ok) return read;
  const doc = await documentUtf8(read.bytes, name, out, undefined, extractor);
  if (!doc.ok) {
    const status = doc.reason === 'binary' ? DocStatus.binary : EXTRACTION_STATUS[doc.reason];
    return { ok: false, status, skip: doc.reason, message: skipMessage(doc.reason, doc.message), flags: doc.format ? formatFlags(doc.format) : 0 };
  }
  // A lossy decode (U+FFFD for damaged bytes) no longer says which bytes they were, so two files that
  // differ only there must not share a hash: it is seeded by the raw bytes' own XXH64, and only
  // byte-identical lossy files are exact duplicates (others can still be near-duplicates, for review).
  const hash = doc.invalidBytes > 0 ? xx.h64Raw(doc.utf8, xx.h64Raw(read.bytes)) : xx.h64Raw(doc.utf8);
  const flags = (doc.html ? DocFlag.html : 0) | (doc.invalidBytes > 0 ? DocFlag.invalidUtf8 : 0) | formatFlags(doc.format);
  return { ok: true, utf8: doc.utf8, ascii: doc.ascii, hashHi: hiOf(hash), hashLo: loOf(hash), flags, invalidBytes: doc.invalidBytes };
}

/**
 * Reads one item's bytes (if the main thread did not); never rejects (a failed read is an
 * 'unreadable' result). A file is always read whole; one larger than `maxBytes` is skipped as too large.
 */
export async function readItem(item: IngestItem, limits: IngestLimits, addBytes: (bytes: Uint8Array) => void): Promise<FileBytes> {
  if (item.error !== undefined) return { ok: false, status: DocStatus.unreadable, skip: 'unreadable', message: skipMessage('unreadable', item.error) };
  try {
    const size = itemSize(item);
    if (size > limits.maxBytes) {
      return { ok: false, status: DocStatus.tooLarge, skip: 'too-large', message: tooLargeMessage(size) };
    }
    const bytes = item.bytes ?? new Uint8Array(await item.file!.arrayBuffer());
    addBytes(bytes);
    return { ok: true, bytes };
  } catch (error) {
    return { ok: false, status: DocStatus.unreadable, skip: 'unreadable', message: skipMessage('unreadable', describeError(error)) };
  }
}

