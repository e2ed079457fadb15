/** Saving generated text as a file through a Blob and an object URL (nothing goes over the network). */

/** Offers `text` (or its parts, joined by the Blob without one giant string) as a download named `fileName`. */
export function downloadText(text: string | readonly string[], fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(typeof text === 'string' ? [text] : [...text], { type }));
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
