/** Turning the diff worker's runs into the text segments the pair view renders. */

/** A piece of one document's text: unchanged (0), removed from A (1), added in B (2) or part of a shared passage (SHARED). */
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

/**
 * Groups segments into chunks of about `target` characters, cut after a newline, so each chunk can be
 * its own block with `content-visibility: auto` and the browser lays out only the visible part of a
 * 1 MB text. A text with no newline for `8 × target` characters is cut at a space (or anywhere) there,
 * which shows as an extra line break: the price of keeping such a text responsive.
 */
export function chunkSegments(segments: readonly DiffSegment[], target = 4096): DiffSegment[][] {
  const chunks: DiffSegment[][] = [];
  let chunk: DiffSegment[] = [];
  let length = 0;
  const close = () => {
    if (chunk.length > 0) chunks.push(chunk);
    chunk = [];
    length = 0;
  };
  for (const segment of segments) {
    let text = segment.text;
    while (text.length > 0) {
      if (length + text.length < target) {
        chunk.push({ text, kind: segment.kind });
        length += text.length;
        break;
      }
      const need = Math.max(0, target - length - 1);
      let cut = text.indexOf('\n', need);
      if (cut < 0 || length + cut >= 8 * target) {
        if (length + text.length < 8 * target) {
          chunk.push({ text, kind: segment.kind });
          length += text.length;
          break;
        }
        const hard = 8 * target - length;
        const space = text.lastIndexOf(' ', hard - 1);
        cut = space > 0 ? space : Math.max(0, hard - 1);
      }
      chunk.push({ text: text.slice(0, cut + 1), kind: segment.kind });
      text = text.slice(cut + 1);
      close();
    }
  }
  close();
  return chunks;
}

/**
 * The offset in the other text that corresponds to `offset` in this one, through the diff's alignment
 * points (`from` this side's, `to` the other's, see DiffResult.alignA): the same distance past the last
 * point at or before `offset`, but not past the other side's next point.
 */
export function mapOffset(from: Uint32Array, to: Uint32Array, offset: number): number {
  if (from.length === 0) return offset;
  const i = chunkIndexOf(from, offset);
  const mapped = to[i] + (offset - from[i]);
  return i + 1 < to.length ? Math.min(mapped, to[i + 1]) : mapped;
}

/** Start offset of each chunk in its text (for finding the chunk that holds an offset). */
export function chunkStarts(chunks: readonly DiffSegment[][]): Uint32Array {
  const starts = new Uint32Array(chunks.length);
  let at = 0;
  for (let c = 0; c < chunks.length; c++) {
    starts[c] = at;
    for (const s of chunks[c]) at += s.text.length;
  }
  return starts;
}

/** The block (of blocks starting at `starts`, ascending, the first at 0) that holds text offset `offset`. */
export function chunkIndexOf(starts: Uint32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Unchanged runs shorter than this are words the two texts happen to share, not a passage of one inside the other. */
export const SHARED_PASSAGE_CHARS = 40;

/**
 * Where the shared passage of a contained pair starts in one document's text: the offset of its first
 * unchanged run of at least `min` characters (runs as the diff returns them), or -1 when there is none.
 */
export function sharedPassageStart(lengths: Uint32Array, kinds: Uint8Array, min = SHARED_PASSAGE_CHARS): number {
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    if (kinds[i] === 0 && lengths[i] >= min) return at;
    at += lengths[i];
  }
  return -1;
}

/** The kind of an unchanged segment that is part of the passage a contained document shares with its whole. */
export const SHARED = 3;

/** `segments` with each unchanged one of at least `min` characters (a passage, not a stray common word) marked SHARED. */
export function markShared(segments: readonly DiffSegment[], min = SHARED_PASSAGE_CHARS): DiffSegment[] {
  return segments.map((s) => (s.kind === 0 && s.text.length >= min ? { text: s.text, kind: SHARED } : s));
}
