/**
 * The text-diff worker's API: word-level differences between two documents for the pair view,
 * computed line-first so that 1 MB near-duplicates stay fast, under a time budget and a size cap.
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import { ADDED, REMOVED, SAME, type DiffOptions, type DiffResult, type DiffStatus } from '../core/text/diff-runs.ts';

class RunBuilder {
  lengths: number[] = [];
  kinds: number[] = [];
  marked = 0;
  push(length: number, kind: number): void {
    if (length === 0) return;
    if (kind !== SAME) this.marked += length;
    const last = this.kinds.length - 1;
    if (last >= 0 && this.kinds[last] === kind) this.lengths[last] += length;
    else {
      this.lengths.push(length);
      this.kinds.push(kind);
    }
  }
}

function finish(status: DiffStatus, a: RunBuilder, b: RunBuilder, started: number): DiffResult {
  return {
    status,
    aLengths: Uint32Array.from(a.lengths),
    aKinds: Uint8Array.from(a.kinds),
    bLengths: Uint32Array.from(b.lengths),
    bKinds: Uint8Array.from(b.kinds),
    removedChars: a.marked,
    addedChars: b.marked,
    ms: performance.now() - started,
  };
}

/** Both texts as single unmarked runs (used when the diff is skipped). */
function unmarked(status: DiffStatus, a: string, b: string, started: number): DiffResult {
  const ra = new RunBuilder();
  const rb = new RunBuilder();
  ra.push(a.length, SAME);
  rb.push(b.length, SAME);
  return finish(status, ra, rb, started);
}

/**
 * Word-level differences between `a` and `b`. Lines are diffed first (cheap even for megabytes);
 * only each changed block is then diffed word by word (`diffWordsWithSpace`), each with what is left
 * of the time budget. A block whose word diff runs out of time is marked whole.
 */
export function diffTexts(a: string, b: string, options: DiffOptions = {}): DiffResult {
  const started = performance.now();
  const budget = options.timeoutMs ?? 1500;
  const maxChars = options.maxChars ?? 8_000_000;
  if (a === b) return unmarked('identical', a, b, started);
  if (a.length + b.length > maxChars) return unmarked('too-large', a, b, started);

  const lines = diffLines(a, b, { timeout: budget });
  if (lines === undefined) return unmarked('too-slow', a, b, started);

  const ra = new RunBuilder();
  const rb = new RunBuilder();
  let status: DiffStatus = 'words';
  for (let i = 0; i < lines.length; i++) {
    const change = lines[i];
    if (!change.added && !change.removed) {
      ra.push(change.value.length, SAME);
      rb.push(change.value.length, SAME);
      continue;
    }
    // A changed block: the removed and added parts next to each other, in either order.
    let removed = '';
    let added = '';
    let j = i;
    while (j < lines.length && (lines[j].added || lines[j].removed)) {
      if (lines[j].removed) removed += lines[j].value;
      else added += lines[j].value;
      j++;
    }
    i = j - 1;
    const left = budget - (performance.now() - started);
    const words =
      removed !== '' && added !== '' && left > 0
        ? diffWordsWithSpace(removed, added, { timeout: left })
        : undefined;
    if (words === undefined) {
      if (removed !== '' && added !== '') status = 'lines';
      ra.push(removed.length, REMOVED);
      rb.push(added.length, ADDED);
      continue;
    }
    for (const w of words) {
      if (w.removed) ra.push(w.value.length, REMOVED);
      else if (w.added) rb.push(w.value.length, ADDED);
      else {
        ra.push(w.value.length, SAME);
        rb.push(w.value.length, SAME);
      }
    }
  }
  return finish(status, ra, rb, started);
}

/** The API object the diff worker exposes. */
export const diffApi = {
  diffTexts,
};

export type DiffApi = typeof diffApi;
