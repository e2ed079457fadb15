/**
 * Where the app's exports are saved: a file the person picks (`showSaveFilePicker`, where the browser
 * offers it: the export worker writes into it) or a download of a Blob the worker built (elsewhere).
 * Nothing goes over the network.
 */

/** The save picker's options as Chromium takes them (not in TypeScript's DOM library). */
interface SaveFilePickerOptions {
  suggestedName?: string;
  types?: { description: string; accept: Record<string, string[]> }[];
}
type SavePickerWindow = Window & { showSaveFilePicker?: (options?: SaveFilePickerOptions) => Promise<FileSystemFileHandle> };

/**
 * Asks where to save `fileName` when the browser offers a save picker: the chosen file's handle, or
 * null when there is no picker (then the export is a download). Rejects with an AbortError when the
 * person cancels. Call it first in a click handler: the picker needs the click's user activation.
 */
export function pickSaveFile(fileName: string, description: string, mime: string, ext: string): Promise<FileSystemFileHandle | null> {
  const picker = (window as SavePickerWindow).showSaveFilePicker;
  if (typeof picker !== 'function') return Promise.resolve(null);
  return picker.call(window, { suggestedName: fileName, types: [{ description, accept: { [mime]: [`.${ext}`] } }] });
}

/**
 * How long an object URL outlives the click that starts its download. Revoking it at once can cancel
 * a large download that the browser has not started reading yet (a 537 MB export was cancelled that
 * way while the page said it was saved); a minute later the download has long begun.
 */
const KEEP_URL_MS = 60_000;

/** Offers `blob` as a download named `fileName`; its object URL is kept until the download has surely started. */
export function startDownload(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS);
}

/** A file name with the date, e.g. `simsift-pairs-2026-11-22.csv`. */
export function datedFileName(stem: string, now: Date = new Date(), ext = 'csv'): string {
  const d = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return `${stem}-${d}.${ext}`;
}
