/** Saving generated text as a file through a Blob and an object URL (nothing goes over the network). */

/** Offers `text` (or its parts, joined by the Blob without one giant string) as a download named `fileName`. */
export function downloadText(text: string | readonly string[], fileName: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(new Blob(typeof text === 'string' ? [text] : [...text], { type }), fileName);
}

/** Offers binary parts (e.g. a Parquet file's chunks) as a download named `fileName`. */
export function downloadBytes(parts: readonly Uint8Array[], fileName: string, type = 'application/vnd.apache.parquet'): void {
  // The parts are whole buffers of their own (the Parquet writer hands out copies): no copy here.
  const buffers = parts.map((p) => (p.byteOffset === 0 && p.byteLength === p.buffer.byteLength ? p.buffer : p.slice().buffer) as ArrayBuffer);
  downloadBlob(new Blob(buffers, { type }), fileName);
}

function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The object URL is revoked once the click is handled: revoking synchronously can cancel the download in some browsers; a task later is safe.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name with the date, e.g. `simsift-pairs-2026-11-22.csv`. */
export function datedFileName(stem: string, now: Date = new Date(), ext = 'csv'): string {
  const d = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `${stem}-${d}.${ext}`;
}
