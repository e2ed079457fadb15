/**
 * Reads small files on the main thread, asynchronously, so their bytes can be transferred to the
 * ingest workers. Why here and not in the workers: in Chromium a File from a folder input carries
 * no metadata yet, and posting it to a worker (or reading `size`/`slice`) fetches that metadata with
 * a synchronous IPC on the main thread, which makes long tasks under load. `file.stream()` needs no
 * metadata and never blocks.
 */

/** A file's bytes, or a note that it is larger than the limit (read it elsewhere), or why it failed. */
export type ReadOutcome =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'large' }
  | { kind: 'error'; message: string };

function describe(error: unknown): string {
  if (error instanceof DOMException) return error.name === 'NotFoundError' ? 'file not found' : error.name;
  return error instanceof Error ? error.message : String(error);
}

/** Reads `file` completely if it has at most `limit` bytes; stops reading as soon as it exceeds it. */
export async function readUpTo(file: Blob, limit: number): Promise<ReadOutcome> {
  try {
    const reader = file.stream().getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel();
        return { kind: 'large' };
      }
      chunks.push(value);
    }
    if (chunks.length === 1 && chunks[0].byteOffset === 0 && chunks[0].byteLength === chunks[0].buffer.byteLength) {
      return { kind: 'bytes', bytes: chunks[0] };
    }
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    return { kind: 'bytes', bytes };
  } catch (error) {
    return { kind: 'error', message: describe(error) };
  }
}

/** A read lane's buffer, reused from file to file (a BYOB read moves it into a new ArrayBuffer: kept here). */
export interface ReadScratch {
  buffer: ArrayBuffer;
}

/** The first size of a lane's buffer; it grows by doubling, up to one byte past the read limit. */
const SCRATCH_BYTES = 64 * 1024;

/**
 * The BYOB readers whose reads are under way. Why: Chromium collects a Blob's byte stream (and its
 * reader) that only its pending read's continuation refers to, and that read never settles: a
 * 20,000-file scan stopped with every read lane waiting (tests/e2e/ingest-collected-reads.spec.ts).
 * Held here, the reader keeps its stream alive until the read ends. Default readers are not collected so.
 */
const reading = new Set<ReadableStreamBYOBReader>();

/** A new read lane's buffer. */
export function readScratch(): ReadScratch {
  return { buffer: new ArrayBuffer(SCRATCH_BYTES) };
}

/**
 * `readUpTo` into `scratch` (a view of it, valid until the lane's next read): the stream fills the
 * lane's own buffer (a BYOB reader), so reading a file allocates nothing. Why: a fresh ArrayBuffer
 * per file (the stream's chunks) was garbage in the page and the workers until their next full
 * collection, most of the renderer's growth during a scan. Streams without BYOB reads take `readUpTo`.
 */
export async function readUpToInto(file: Blob, limit: number, scratch: ReadScratch): Promise<ReadOutcome> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = file.stream().getReader({ mode: 'byob' });
  } catch {
    return readUpTo(file, limit);
  }
  reading.add(reader);
  try {
    let at = 0;
    for (;;) {
      if (at === scratch.buffer.byteLength) {
        // One byte past the limit is enough to tell a larger file.
        const grown = new ArrayBuffer(Math.min(Math.max(2 * at, SCRATCH_BYTES), limit + 1));
        new Uint8Array(grown).set(new Uint8Array(scratch.buffer, 0, at));
        scratch.buffer = grown;
      }
      const { done, value } = await reader.read(new Uint8Array(scratch.buffer, at, scratch.buffer.byteLength - at));
      // The read took the view's buffer and gives it back as a new ArrayBuffer (the old one is detached).
      if (value) scratch.buffer = value.buffer as ArrayBuffer;
      if (done) break;
      at += value.byteLength;
      if (at > limit) {
        await reader.cancel();
        return { kind: 'large' };
      }
    }
    return { kind: 'bytes', bytes: new Uint8Array(scratch.buffer, 0, at) };
  } catch (error) {
    // A failed read may have left the buffer detached (byteLength 0): the lane starts a new one.
    if (scratch.buffer.byteLength === 0) scratch.buffer = new ArrayBuffer(SCRATCH_BYTES);
    return { kind: 'error', message: describe(error) };
  } finally {
    reading.delete(reader);
  }
}
