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
