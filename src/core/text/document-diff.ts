/**
 * The pair view's diff: two documents compared as sequences of words, so that how a text is laid out
 * (line wrapping, runs of spaces, a word hyphenated at a line's end) is never a change, while the
 * result still marks runs of the original texts. Words are cut by the fingerprint's character classes
 * (char-class.ts); with `ignoreCaseAndPunctuation` they are compared exactly as the fingerprint sees
 * them (normalizeText, punctuation dropped).
 */
import { diffArrays } from 'diff';
import { charClass, MARK, SEP, SOLO, WORD } from './char-class.ts';
import { normalizeText } from './normalize.ts';
import { ADDED, REMOVED, SAME, type DiffOptions, type DiffResult, type DiffStatus } from './diff-runs.ts';

/** The words of one text: where each lies in the original, and its comparison key as an interned id. */
export interface DocumentWords {
  starts: Uint32Array;
  ends: Uint32Array;
  ids: number[];
}

const SOFT_HYPHEN = 0xad;
const NON_ASCII = /[^\x00-\x7f]/;
const isSpace = (cp: number) => cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || cp === 0xa0 || cp === 0x2028 || cp === 0x2029 || cp === 0x3000 || (cp >= 0x2000 && cp <= 0x200b) || cp === 0x85 || cp === 0xfeff;
const isLowercase = (ch: string) => /^\p{Ll}$/u.test(ch);

/**
 * Where a hyphen at `at` ends a line inside a word ("free-\n  dom"): the offset of the next word's
 * first letter when it is lowercase, else -1.
 */
function hyphenatedContinuation(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (text[i] === '\r') i++;
  if (text[i] !== '\n') return -1;
  i++;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  const cp = text.codePointAt(i);
  return cp !== undefined && isLowercase(String.fromCodePoint(cp)) ? i : -1;
}

/**
 * Cuts `text` into words. A word is a run of letters, digits and marks, or one letter of a script
 * written without spaces; each punctuation mark is a word of its own unless `loose` (then it is
 * skipped); white space only separates. A soft hyphen inside a word and a hyphen at a line's end
 * before a lowercase letter join the word's parts. Keys are NFKC (`loose`: the fingerprint's
 * normalizeText, which also folds case), interned in `intern` so both texts share ids.
 */
export function documentWords(text: string, loose: boolean, intern: Map<string, number>): DocumentWords {
  const starts: number[] = [];
  const ends: number[] = [];
  const ids: number[] = [];
  let key = '';
  let pieceStart = -1; // start of the current piece of an open word; -1 when no word is open
  let wordStart = 0;
  let next = -1;
  const emit = (start: number, end: number, raw: string) => {
    const k = loose ? normalizeText(raw) : NON_ASCII.test(raw) ? raw.normalize('NFKC') : raw;
    let id = intern.get(k);
    if (id === undefined) intern.set(k, (id = intern.size));
    starts.push(start);
    ends.push(end);
    ids.push(id);
  };
  const close = (end: number) => {
    if (pieceStart < 0) return;
    emit(wordStart, end, key + text.slice(pieceStart, end));
    key = '';
    pieceStart = -1;
  };
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const c = charClass(cp);
    if (c === WORD || (c === MARK && pieceStart >= 0)) {
      if (pieceStart < 0) {
        pieceStart = i;
        wordStart = i;
      }
    } else if (c === MARK || c === SOLO) {
      close(i);
      // A mark with no word before it starts one; a SOLO letter is a word by itself (with its marks).
      let end = i + width;
      while (end < text.length && charClass(text.codePointAt(end)!) === MARK) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
      if (c === MARK) {
        pieceStart = i;
        wordStart = i;
        i = end;
        continue;
      }
      emit(i, end, text.slice(i, end));
      i = end;
      continue;
    } else if (pieceStart >= 0 && cp === SOFT_HYPHEN) {
      key += text.slice(pieceStart, i);
      pieceStart = i + 1;
    } else if (pieceStart >= 0 && (cp === 0x2d || cp === 0x2010) && (next = hyphenatedContinuation(text, i)) >= 0) {
      key += text.slice(pieceStart, i);
      i = pieceStart = next;
      continue;
    } else {
      close(i);
      if (!loose && c === SEP && !isSpace(cp) && cp !== SOFT_HYPHEN) emit(i, i + width, text.slice(i, i + width));
    }
    i += width;
  }
  close(text.length);
  return { starts: Uint32Array.from(starts), ends: Uint32Array.from(ends), ids };
}

/** Runs over one text, merging neighbours of the same kind. */
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

/**
 * Runs covering `text` from its words and which of them changed: a changed word is marked `kind`, as is
 * the space between two changed words (one change reads as one mark); all other text is unchanged.
 */
function runsOf(text: string, words: DocumentWords, changed: Uint8Array, kind: number): RunBuilder {
  const runs = new RunBuilder();
  let at = 0;
  for (let w = 0; w < changed.length; w++) {
    const gapKind = w > 0 && changed[w - 1] && changed[w] ? kind : SAME;
    runs.push(words.starts[w] - at, gapKind);
    runs.push(words.ends[w] - words.starts[w], changed[w] ? kind : SAME);
    at = words.ends[w];
  }
  runs.push(text.length - at, SAME);
  return runs;
}

function result(status: DiffStatus, ra: RunBuilder, rb: RunBuilder, walk: Walk, started: number): DiffResult {
  return {
    status,
    aLengths: Uint32Array.from(ra.lengths),
    aKinds: Uint8Array.from(ra.kinds),
    bLengths: Uint32Array.from(rb.lengths),
    bKinds: Uint8Array.from(rb.kinds),
    removedChars: ra.marked,
    addedChars: rb.marked,
    removedWords: walk.removedWords,
    addedWords: walk.addedWords,
    alignA: Uint32Array.from(walk.alignA),
    alignB: Uint32Array.from(walk.alignB),
    changes: Uint32Array.from(walk.changes),
    ms: performance.now() - started,
  };
}

/** Every this many unchanged words, the walk records an alignment point (scrolling stays in step inside long unchanged stretches). */
const ALIGN_EVERY = 16;

/** What the walk over the word diff collects besides the runs. */
interface Walk {
  alignA: number[];
  alignB: number[];
  changes: number[];
  removedWords: number;
  addedWords: number;
}

const noWalk = (): Walk => ({ alignA: [0], alignB: [0], changes: [], removedWords: 0, addedWords: 0 });

/** Both texts as single unmarked runs (the diff was skipped). */
function unmarked(status: DiffStatus, a: string, b: string, started: number): DiffResult {
  const none = (text: string) => runsOf(text, { starts: new Uint32Array(0), ends: new Uint32Array(0), ids: [] }, new Uint8Array(0), SAME);
  return result(status, none(a), none(b), noWalk(), started);
}

/**
 * Walks the word diff (`edits`: runs of common, removed and added words in order, common between
 * `head` and `tail` common words), marking changed words and recording alignment points and where
 * each change (a stretch of removed and added words) starts in A.
 */
function walkEdits(a: string, b: string, wa: DocumentWords, wb: DocumentWords, head: number, tail: number, edits: readonly { count: number; added: boolean; removed: boolean }[]) {
  const changedA = new Uint8Array(wa.ids.length);
  const changedB = new Uint8Array(wb.ids.length);
  const walk = noWalk();
  const posA = (i: number) => (i < wa.ids.length ? wa.starts[i] : a.length);
  const posB = (i: number) => (i < wb.ids.length ? wb.starts[i] : b.length);
  const align = (pa: number, pb: number) => {
    const la = walk.alignA[walk.alignA.length - 1];
    const lb = walk.alignB[walk.alignB.length - 1];
    if (pa >= la && pb >= lb && (pa > la || pb > lb)) {
      walk.alignA.push(pa);
      walk.alignB.push(pb);
    }
  };
  let ia = 0;
  let ib = 0;
  let inChange = false;
  const common = (n: number) => {
    for (let k = 0; k < n; k += ALIGN_EVERY) align(posA(ia + k), posB(ib + k));
    ia += n;
    ib += n;
    inChange = false;
  };
  common(head);
  for (const edit of edits) {
    if (!edit.added && !edit.removed) {
      common(edit.count);
      continue;
    }
    if (!inChange) {
      align(posA(ia), posB(ib));
      walk.changes.push(posA(ia));
      inChange = true;
    }
    if (edit.removed) {
      changedA.fill(1, ia, ia + edit.count);
      walk.removedWords += edit.count;
      ia += edit.count;
    } else {
      changedB.fill(1, ib, ib + edit.count);
      walk.addedWords += edit.count;
      ib += edit.count;
    }
  }
  common(tail);
  align(a.length, b.length);
  return { changedA, changedB, walk };
}

/**
 * The differences between documents `a` and `b` as words (see the module comment), as runs covering
 * each original text, with alignment points and change offsets for the pair view. The common beginning
 * and end are set aside first; the rest is a Myers diff of word ids (jsdiff's diffArrays) within
 * `timeoutMs`, else nothing is marked ('too-slow').
 */
export function diffDocuments(a: string, b: string, options: DiffOptions = {}): DiffResult {
  const started = performance.now();
  if (a === b) return unmarked('identical', a, b, started);
  if (a.length + b.length > (options.maxChars ?? 8_000_000)) return unmarked('too-large', a, b, started);
  const loose = options.ignoreCaseAndPunctuation ?? false;
  const intern = new Map<string, number>();
  const wa = documentWords(a, loose, intern);
  const wb = documentWords(b, loose, intern);
  const na = wa.ids.length;
  const nb = wb.ids.length;
  let head = 0;
  while (head < na && head < nb && wa.ids[head] === wb.ids[head]) head++;
  let tail = 0;
  while (tail < na - head && tail < nb - head && wa.ids[na - 1 - tail] === wb.ids[nb - 1 - tail]) tail++;
  let edits: { count: number; added: boolean; removed: boolean }[] = [];
  if (head < na - tail || head < nb - tail) {
    const budget = Math.max(1, (options.timeoutMs ?? 1500) - (performance.now() - started));
    const changes = diffArrays(wa.ids.slice(head, na - tail), wb.ids.slice(head, nb - tail), { timeout: budget });
    if (changes === undefined) return unmarked('too-slow', a, b, started);
    edits = changes.map((c) => ({ count: c.count ?? c.value.length, added: c.added, removed: c.removed }));
  }
  const { changedA, changedB, walk } = walkEdits(a, b, wa, wb, head, tail, edits);
  return result('words', runsOf(a, wa, changedA, REMOVED), runsOf(b, wb, changedB, ADDED), walk, started);
}
