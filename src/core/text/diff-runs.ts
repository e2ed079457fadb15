/**
 * The shape of a text diff as the pair view draws it: runs that cover each text exactly, in typed
 * arrays. Kept apart from the diff worker so the page can read results without bundling the diff
 * library (the diff worker computes them with core/text/document-diff.ts).
 */

/** Kind of a run of text: unchanged, only in text A (removed), only in text B (added). */
export const SAME = 0;
export const REMOVED = 1;
export const ADDED = 2;

/** How far the diff got within its limits. */
export type DiffStatus =
  | 'identical' // the texts are equal
  | 'words' // compared word by word (possibly no word differs: only the layout does)
  | 'too-large' // over the size cap: nothing marked
  | 'too-slow'; // even the line diff ran out of time: nothing marked

/**
 * Differences as runs that cover each text exactly: text A is split into runs of `aLengths[i]`
 * UTF-16 code units of kind `aKinds[i]` (SAME or REMOVED), text B likewise (SAME or ADDED).
 * Typed arrays, so the result crosses the worker boundary as transferred buffers.
 */
export interface DiffResult {
  status: DiffStatus;
  aLengths: Uint32Array;
  aKinds: Uint8Array;
  bLengths: Uint32Array;
  bKinds: Uint8Array;
  /** Code units marked removed in A and added in B. */
  removedChars: number;
  addedChars: number;
  /** Words marked removed in A and added in B. */
  removedWords: number;
  addedWords: number;
  /**
   * Offsets in A and B that correspond (both ascending, from 0,0 to the two lengths): the starts of
   * unchanged stretches and of changes, and points inside long unchanged stretches. Unchanged text is
   * not the same length on both sides (layout is not a change), so positions map through these.
   */
  alignA: Uint32Array;
  alignB: Uint32Array;
  /** Where each change (removed and added words together) starts, as offsets in A, ascending. */
  changes: Uint32Array;
  /** Wall time spent, in milliseconds. */
  ms: number;
}

export interface DiffOptions {
  /** Total time budget in milliseconds (default 1500). */
  timeoutMs?: number;
  /** Largest combined length (UTF-16 code units) that is diffed at all (default 8,000,000). */
  maxChars?: number;
  /** Compare the words as the fingerprint does: case folded, punctuation skipped (default false). */
  ignoreCaseAndPunctuation?: boolean;
}
