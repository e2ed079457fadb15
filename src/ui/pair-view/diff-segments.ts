/** Turning the diff worker's runs into the text segments the pair view renders. */

/** A piece of one document's text: unchanged (0), removed from A (1) or added in B (2). */
export interface DiffSegment {
  readonly text: string;
  readonly kind: number;
}

/**
 * Cuts `text` into segments along `lengths`/`kinds` (runs that cover it exactly). If the runs do not
 * cover the text (a stale result for another text), the rest is returned as one unchanged segment.
 */
export function runsToSegments(text: string, lengths: Uint32Array, kinds: Uint8Array): DiffSegment[] {
  const out: DiffSegment[] = [];
  let at = 0;
  for (let i = 0; i < lengths.length && at < text.length; i++) {
    const end = Math.min(text.length, at + lengths[i]);
    out.push({ text: text.slice(at, end), kind: kinds[i] });
    at = end;
  }
  if (at < text.length) out.push({ text: text.slice(at), kind: 0 });
  return out;
}

/** The scroll position of a pane that keeps the same relative position as its partner. */
export function syncedScrollTop(
  sourceTop: number,
  sourceScrollHeight: number,
  sourceClientHeight: number,
  targetScrollHeight: number,
  targetClientHeight: number,
): number {
  const sourceRange = sourceScrollHeight - sourceClientHeight;
  const targetRange = targetScrollHeight - targetClientHeight;
  if (sourceRange <= 0 || targetRange <= 0) return 0;
  return Math.round((sourceTop / sourceRange) * targetRange);
}
