/**
 * The shape of a text diff as the pair view draws it: runs that cover each text exactly, in typed
 * arrays. Kept apart from the diff worker so the page can read results without bundling the diff
 * library (the worker computes them, see workers/diff-api.ts).
 */

/** Kind of a run of text: unchanged, only in text A (removed), only in text B (added). */
export const SAME = 0;
export const REMOVED = 1;
export const ADDED = 2;

/** How far the diff got within its limits. */
export type DiffStatus =
  | 'identical' // the texts are equal
  | 'words' // word-level differences everywhere
  | 'lines' // some changed blocks are marked whole (word diff ran out of time there)
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
  /** Wall time spent, in milliseconds. */
  ms: number;
}

export interface DiffOptions {
  /** Total time budget in milliseconds (default 1500). */
  timeoutMs?: number;
  /** Largest combined length (UTF-16 code units) that is diffed at all (default 8,000,000). */
  maxChars?: number;
}
