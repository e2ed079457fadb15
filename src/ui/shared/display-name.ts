/**
 * How a file name or path is shown: bidirectional-text controls made visible (so `rtl-\u202Etxt.exe`
 * cannot pass for `rtl-exe.txt`), and long paths shortened in the folder, never in the file name.
 */

/**
 * Characters that reorder the text around them without being seen: the embeddings and overrides
 * (U+202A-202E), the isolates (U+2066-2069), the left-to-right, right-to-left and Arabic letter
 * marks (U+200E, U+200F, U+061C). Other controls (newline, tab, C1) are shown escaped too: a name
 * shown in one line must not break it.
 */
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u0000-\u001F\u007F-\u009F]/g;

/** `U+202E` for a character (at least four hex digits, upper case). */
function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The text with every bidi control (and control character) written as `⟨U+XXXX⟩`. */
export function escapeBidi(text: string): string {
  return text.replace(HIDDEN, (c) => `⟨${codePoint(c)}⟩`);
}

/** True when `text` holds a character that `escapeBidi` rewrites. */
export function hasHiddenControls(text: string): boolean {
  HIDDEN.lastIndex = 0;
  const found = HIDDEN.test(text);
  HIDDEN.lastIndex = 0;
  return found;
}

/** A path ready to show: `dir` (with its trailing slash, maybe shortened) and `name` (whole), both escaped. */
export interface DisplayPath {
  /** The folder part, with a middle ellipsis when the path was too long; '' for a bare name. */
  dir: string;
  /** The file name, escaped, never shortened. */
  name: string;
  /** The whole path, escaped (for `title` and accessible names). */
  full: string;
  /** True when the folder was shortened. */
  shortened: boolean;
}

/**
 * Splits and escapes `path` for display. With `maxChars`, a longer path keeps its file name whole and
 * loses the middle of its folder part (`docs/…/2024/report.txt`): the start says where it lives, the
 * end which folder holds it. If the name alone is longer, the folder shrinks to `…/`.
 */
export function displayPath(path: string, maxChars = Infinity): DisplayPath {
  const full = escapeBidi(path);
  const cut = Math.max(full.lastIndexOf('/'), full.lastIndexOf('\\'));
  const name = full.slice(cut + 1);
  const dir = cut < 0 ? '' : full.slice(0, cut + 1);
  if (dir === '' || full.length <= maxChars) return { dir, name, full, shortened: false };
  const room = maxChars - name.length - 1; // one character for the ellipsis
  if (room < 2) return { dir: '…/', name, full, shortened: true };
  // Keep the trailing slash with the tail, and a little more of the start than of the end.
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return { dir: `${dir.slice(0, head)}…${dir.slice(dir.length - tail)}`, name, full, shortened: true };
}

/** The whole path as one escaped string, for accessible names and plain-text messages. */
export function displayName(path: string): string {
  return escapeBidi(path);
}
