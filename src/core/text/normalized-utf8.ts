/**
 * A document's bytes straight to the UTF-8 of its normalized compared text:
 * `normalizedUtf8(bytes, name)` writes UTF-8(normalizeText(documentText(bytes, name).text)), the exact
 * bytes whose XXH64 is the content hash and whose tokens are the fingerprint's features.
 *
 * Why: decoding to a JavaScript string, stripping markup from the string, normalizing it (NFKC twice)
 * and encoding it back to UTF-8 cost about three times the fingerprinting itself on real text (V8
 * decodes non-ASCII UTF-8 at under 200 MB/s, and most real files hold a few non-ASCII characters: a
 * no-break space, a typographic quote). The fast path here does all of that in one pass over the
 * bytes, making no string: ASCII is lowercased byte by byte, every other code point is looked up in a
 * table of per-code-point results, and HTML tags, comments, raw-text bodies and character references
 * are handled as `stripHtml` handles them. When it meets anything it cannot prove equal (invalid
 * UTF-8, UTF-16, windows-1252, a combining mark, a Hangul vowel or trailing jamo, a
 * Unicode space in a closing raw-text tag), it gives up and the string path produces the same bytes.
 *
 * Why per code point is exact: a BMP code point gets a table entry only when its own decomposition,
 * its case-folded form and its result (normalizeText of the character alone) all start with a
 * starter that composes with nothing before it (not a mark, not a conjoining jamo: the only starters
 * that are the second half of a canonical composition). In a string made of such pieces and ASCII,
 * canonical reordering and composition never cross from one piece to the next, so NFKC of the whole
 * is the NFKC of each piece, both times; case mapping is context-free but for final sigma, which
 * normalizeText turns into σ anyway. A unit test checks every entry between varied neighbours, and
 * one compares both paths on real documents.
 */
import { charClass, MARK } from './char-class.ts';
import { binaryReason, utf16WithoutBom, utf32Bom } from './decode.ts';
import { documentText } from './document-text.ts';
import { FALLBACK, LOWER, entityAt, entityEnd, tagEnd, validUtf8 } from './html-bytes.ts';
import { isHtmlName } from './html.ts';
import { caseFold, finishFold, normalizeText, selfNormalRun } from './normalize.ts';

/** A growable output buffer, reused across documents (the normalized text lives in `bytes`). */
export type Utf8Buffer = { bytes: Uint8Array };

export function createUtf8Buffer(capacity = 1 << 16): Utf8Buffer {
  return { bytes: new Uint8Array(capacity) };
}

/** The normalized text of a document, written to a buffer, or why it has none. */
export type NormalizedUtf8 =
  | {
      ok: true;
      /** The normalized text's UTF-8: a view of the buffer, valid until the buffer is written again. */
      utf8: Uint8Array;
      /** True when every byte of `utf8` is ASCII. */
      ascii: boolean;
      /** True when the name marks an HTML page and its markup was stripped. */
      html: boolean;
      /** Bytes of invalid UTF-8 replaced by U+FFFD (0 when none). */
      invalidBytes: number;
    }
  | { ok: false; reason: 'binary'; message: string };

const encoder = new TextEncoder();

/**
 * Writes the UTF-8 of `normalizeText(documentText(bytes, name).text)` into `out` (growing it when
 * needed); the same bytes either way, from one pass over the bytes where it can, else through the strings.
 */
export function normalizedUtf8(bytes: Uint8Array, name: string, out: Utf8Buffer): NormalizedUtf8 {
  const html = isHtmlName(name);
  const fast = normalizeFast(bytes, html, out);
  if (fast >= 0) return { ok: true, utf8: out.bytes.subarray(0, fast), ascii: fastAscii, html, invalidBytes: 0 };
  if (fast === BINARY) return { ok: false, reason: 'binary', message: binaryReason(bodyOf(bytes))! };
  // The decoding rule alone: which format the file is was decided before (document-utf8.ts).
  const decoded = documentText(bytes, name, { format: html ? 'html' : 'text' });
  if (!decoded.ok) return { ok: false, reason: 'binary', message: decoded.message };
  const text = normalizeText(decoded.text);
  if (out.bytes.length < 3 * text.length) out.bytes = new Uint8Array(3 * text.length + 64);
  const { written } = encoder.encodeInto(text, out.bytes);
  return { ok: true, utf8: out.bytes.subarray(0, written), ascii: written === text.length, html, invalidBytes: decoded.invalidBytes ?? 0 };
}

/** `bytes` without a UTF-8 byte order mark, as decodeText sniffs it. */
function bodyOf(bytes: Uint8Array): Uint8Array {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

// ---- the per-code-point table ----

/** Table value: the code point needs the string path. */
const NOT_SIMPLE = -1;
/**
 * Per code point, in blocks of 256 filled on first use: NOT_SIMPLE, or
 * (offset in `pool`) * 256 + (length in bytes) * 2 + (1 if any byte is non-ASCII). 0 = not filled.
 */
const BMP_ENTRIES = new Int32Array(0x10000);
/** Blocks above the BMP (emoji, mathematical letters, ...), by cp >> 8. */
const ASTRAL_BLOCKS: Array<Int32Array | undefined> = [];
let pool = new Uint8Array(1 << 16);
let poolUsed = 0;

/**
 * Hangul vowel and trailing jamo (modern and extended), which compose with the syllable or jamo
 * before them (a leading jamo, and a syllable, whose decomposition starts with one, never do).
 */
function isTrailingJamo(cp: number): boolean {
  return (cp >= 0x1160 && cp <= 0x11ff) || (cp >= 0xd7b0 && cp <= 0xd7ff);
}

/** True when `s` starts with a code point that can join what stands before it (a mark or a vowel/trailing jamo). */
function startsJoining(s: string): boolean {
  if (s.length === 0) return false;
  const cp = s.codePointAt(0)!;
  return charClass(cp) === MARK || isTrailingJamo(cp);
}

function classify(cp: number): number {
  if (cp >= 0xd800 && cp <= 0xdfff) return NOT_SIMPLE;
  const c = String.fromCodePoint(cp);
  if (startsJoining(c) || startsJoining(c.normalize('NFKD'))) return NOT_SIMPLE;
  const folded = caseFold(c.normalize('NFKC'));
  // normalizeText(c), from its own first steps (`folded`) rather than from the start again: each
  // worker fills the blocks its text touches (a hundred or more on real text), so a call saved is
  // thousands saved (the table test holds every entry to normalizeText).
  const result = finishFold(folded);
  if (startsJoining(folded) || startsJoining(result)) return NOT_SIMPLE;
  // (No line feed: the fast path finds line starts by counting them.)
  if (result.includes('\n')) return NOT_SIMPLE;
  return pooled(result);
}

/** The table entry of a result: its UTF-8 added to the pool (NOT_SIMPLE when too long for an entry). */
function pooled(result: string): number {
  // Written straight into the pool: TextEncoder#encode made a fresh buffer per code point, which
  // cost more than the normalizing in Chromium's workers.
  if (poolUsed + 3 * result.length > pool.length) {
    const grown = new Uint8Array(Math.max(pool.length * 2, poolUsed + 3 * result.length));
    grown.set(pool);
    pool = grown;
  }
  const length = utf8Into(result, pool, poolUsed);
  if (length > 127) return NOT_SIMPLE;
  const entry = poolUsed * 256 + length * 2 + (length === result.length ? 0 : 1);
  poolUsed += length;
  return entry;
}

/** Writes the UTF-8 of `s` (well-formed: no lone surrogates) at `out[at..]`; returns its length in bytes. */
function utf8Into(s: string, out: Uint8Array, at: number): number {
  let w = at;
  for (let i = 0; i < s.length; i++) {
    let u = s.charCodeAt(i);
    if (u < 0x80) out[w++] = u;
    else if (u < 0x800) {
      out[w++] = 0xc0 | (u >> 6);
      out[w++] = 0x80 | (u & 0x3f);
    } else if (u >= 0xd800 && u <= 0xdbff) {
      u = 0x10000 + ((u - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[w++] = 0xf0 | (u >> 18);
      out[w++] = 0x80 | ((u >> 12) & 0x3f);
      out[w++] = 0x80 | ((u >> 6) & 0x3f);
      out[w++] = 0x80 | (u & 0x3f);
    } else {
      out[w++] = 0xe0 | (u >> 12);
      out[w++] = 0x80 | ((u >> 6) & 0x3f);
      out[w++] = 0x80 | (u & 0x3f);
    }
  }
  return w - at;
}

/**
 * Fills `entries` (256 of them) for the block starting at `start`. A block whose code points all
 * normalize to themselves (selfNormalRun) needs no call per code point: each is its own result (a mark
 * or a trailing jamo still goes to the string path, as classify decides).
 */
function fillBlock(entries: Int32Array, at: number, start: number): void {
  const run = start >= 0xd800 && start <= 0xdfff ? null : selfNormalRun(start, 256);
  if (run === null) {
    for (let c = 0; c < 256; c++) entries[at + c] = classify(start + c);
    return;
  }
  let i = 0;
  for (let c = 0; c < 256; c++) {
    const cp = start + c;
    const ch = run.slice(i, (i += cp < 0x10000 ? 1 : 2));
    entries[at + c] = startsJoining(ch) ? NOT_SIMPLE : pooled(ch);
  }
}

/** The table entry of a code point (see BMP_ENTRIES), filling its block on first use. */
function entryOf(cp: number): number {
  if (cp < 0x10000) {
    const entry = BMP_ENTRIES[cp];
    if (entry !== 0) return entry;
    fillBlock(BMP_ENTRIES, cp & ~0xff, cp & ~0xff);
    return BMP_ENTRIES[cp];
  }
  let block = ASTRAL_BLOCKS[cp >>> 8];
  if (!block) {
    block = ASTRAL_BLOCKS[cp >>> 8] = new Int32Array(256);
    fillBlock(block, 0, cp & ~0xff);
  }
  return block[cp & 0xff];
}

/** The per-code-point result of `cp` as a string, or null when it needs the string path (for tests and benches). */
export function normalizedCodePoint(cp: number): string | null {
  const entry = entryOf(cp);
  if (entry === NOT_SIMPLE) return null;
  const offset = entry >> 8;
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(pool.subarray(offset, offset + ((entry & 0xff) >> 1)));
}

// ---- the fast path ----

/** Byte maps of the fast path's inner loop: a byte's lowercase, or STOP where the loop must look closer. */
const STOP = 0xff;
const TEXT_BYTES = new Uint8Array(256).fill(STOP);
TEXT_BYTES.set(LOWER);
const HTML_BYTES = TEXT_BYTES.slice();
HTML_BYTES[0x3c] = STOP; // <
HTML_BYTES[0x26] = STOP; // &

/** Result of normalizeFast: the file is binary (decodeText's rule). */
const BINARY = -2;
/** Whether the last fast result was pure ASCII (a module variable: no object per document). */
let fastAscii = true;

/** Grows `out` so that `need` bytes fit, keeping the first `keep`. */
function grow(out: Utf8Buffer, need: number, keep: number): Uint8Array {
  const next = new Uint8Array(Math.max(need, 2 * out.bytes.length));
  next.set(out.bytes.subarray(0, keep));
  out.bytes = next;
  return next;
}

/** The text the fast path reads (after the byte order marks), or FALLBACK (UTF-16/32) or BINARY. */
function fastBody(bytes: Uint8Array): Uint8Array | number {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return FALLBACK;
  // UTF-32 BE's BOM starts with NULs: decoded by the string path, not called binary here.
  if (utf32Bom(bytes) !== null) return FALLBACK;
  const src = bodyOf(bytes);
  if (binaryReason(src) !== null) return src === bytes && utf16WithoutBom(src) !== null ? FALLBACK : BINARY;
  // TextDecoder drops one more byte order mark at the start of the body.
  return bodyOf(src);
}

/**
 * The fast path: writes the normalized UTF-8 of the file's text into out.bytes and returns its
 * length, or FALLBACK (the string path must do it) or BINARY. Invariant while writing: room for
 * what is written so far plus one byte per input byte left (ASCII never grows), so the ASCII loop needs no check.
 */
function normalizeFast(bytes: Uint8Array, html: boolean, out: Utf8Buffer): number {
  const src = fastBody(bytes);
  if (typeof src === 'number') return src;
  const n = src.length;
  let dst = out.bytes.length >= n + 16 ? out.bytes : grow(out, n + 16, 0);
  let w = 0;
  let nonAscii = 0;
  let i = 0;
  const map = html ? HTML_BYTES : TEXT_BYTES;
  const srcView = new DataView(src.buffer, src.byteOffset, n);
  let dstView = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  while (i < n) {
    // The common case, a run of plain ASCII, four bytes at a time while none of them needs a closer
    // look (no high bit; in HTML no '<' or '&'): A-Z get 0x20 added. (1.75x the byte loop on real text.)
    while (i + 4 <= n) {
      const x = srcView.getUint32(i, true);
      let look = x;
      if (html) {
        const lt = x ^ 0x3c3c3c3c;
        const amp = x ^ 0x26262626;
        look |= ((lt - 0x01010101) & ~lt) | ((amp - 0x01010101) & ~amp);
      }
      if ((look & 0x80808080) !== 0) break;
      const t = x | 0x80808080;
      const upper = (t - 0x41414141) & ~(t - 0x5b5b5b5b) & 0x80808080;
      dstView.setUint32(w, x | (upper >>> 2), true);
      w += 4;
      i += 4;
    }
    // Then a byte at a time up to the byte that needs the closer look.
    let v: number;
    while (i < n && (v = map[src[i]]) !== STOP) {
      dst[w++] = v;
      i++;
    }
    if (i >= n) break;
    const b = src[i];
    const charStart = i;
    let cp: number;
    if (b < 0x80) {
      // '<' or '&' in HTML.
      if (b === 0x3c) {
        const end = tagEnd(src, i);
        // What a tag drops must still be valid UTF-8: the string path decodes the whole file first.
        if (end === FALLBACK || (end >= 0 && !validUtf8(src, i, end))) return FALLBACK;
        if (end < 0) {
          // A '<' that opens no tag is text.
          dst[w++] = b;
          i++;
        } else {
          dst[w++] = 0x20;
          i = end;
        }
        continue;
      }
      cp = entityAt(src, i);
      if (cp < 0) {
        // No reference here (or one html.ts leaves as written): the '&' is text.
        dst[w++] = b;
        i++;
        continue;
      }
      i = entityEnd;
      if (cp < 0x80) {
        dst[w++] = LOWER[cp];
        continue;
      }
      // A referenced non-ASCII character is looked up as a written one is, below.
    } else if (b >= 0xc2 && b <= 0xdf) {
      // A multi-byte sequence, well-formed (else the string path counts the invalid bytes).
      if (i + 1 >= n) return FALLBACK;
      const c1 = src[i + 1];
      if ((c1 & 0xc0) !== 0x80) return FALLBACK;
      cp = ((b & 0x1f) << 6) | (c1 & 0x3f);
      i += 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      if (i + 2 >= n) return FALLBACK;
      const c1 = src[i + 1];
      const c2 = src[i + 2];
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80) return FALLBACK;
      if ((b === 0xe0 && c1 < 0xa0) || (b === 0xed && c1 > 0x9f)) return FALLBACK;
      cp = ((b & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
      i += 3;
    } else if (b >= 0xf0 && b <= 0xf4) {
      if (i + 3 >= n) return FALLBACK;
      const c1 = src[i + 1];
      const c2 = src[i + 2];
      const c3 = src[i + 3];
      if ((c1 & 0xc0) !== 0x80 || (c2 & 0xc0) !== 0x80 || (c3 & 0xc0) !== 0x80) return FALLBACK;
      if ((b === 0xf0 && c1 < 0x90) || (b === 0xf4 && c1 > 0x8f)) return FALLBACK;
      cp = ((b & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
      i += 4;
    } else return FALLBACK;
    const entry = entryOf(cp);
    if (entry === NOT_SIMPLE) {
      // (In HTML, where references are decoded, the whole page takes the string path.)
      if (html) return FALLBACK;
      const lineEnd = normalizeLine(src, charStart, i, w, out);
      if (lineEnd === FALLBACK) return FALLBACK;
      if (dst !== out.bytes) [dst, dstView] = [out.bytes, new DataView(out.bytes.buffer)];
      w = lineWritten;
      nonAscii |= lineNonAscii;
      i = lineEnd;
      continue;
    }
    const len = (entry & 0xff) >> 1;
    if (w + len + (n - i) + 16 > dst.length) {
      dst = grow(out, w + len + (n - i) + 16, w);
      dstView = new DataView(dst.buffer);
    }
    const at = entry >> 8;
    for (let k = 0; k < len; k++) dst[w++] = pool[at + k];
    nonAscii |= entry & 1;
  }
  fastAscii = nonAscii === 0;
  return w;
}

/** Where normalizeLine's output ends, and whether it wrote non-ASCII (module variables: no object per line). */
let lineWritten = 0;
let lineNonAscii = 0;

/**
 * Writes the line around `charStart` (which holds a character the tables cannot map, a combining
 * mark say) through the strings, over what the fast path wrote of it; returns where the line ends
 * in `src`, or FALLBACK. Normalization never crosses a line feed, which composes with nothing on
 * either side. Each input line feed wrote one output line feed, and nothing else writes one, so the
 * line starts after the last.
 */
function normalizeLine(src: Uint8Array, charStart: number, i: number, w: number, out: Utf8Buffer): number {
  const n = src.length;
  let dst = out.bytes;
  const lineStart = charStart === 0 ? 0 : src.lastIndexOf(0x0a, charStart - 1) + 1;
  const lineOut = w === 0 ? 0 : dst.lastIndexOf(0x0a, w - 1) + 1;
  let lineEnd = src.indexOf(0x0a, i);
  if (lineEnd < 0) lineEnd = n;
  let line: string;
  try {
    line = normalizeText(lineDecoder.decode(src.subarray(lineStart, lineEnd)));
  } catch {
    return FALLBACK; // invalid UTF-8 further on: the string path counts it
  }
  const room = lineOut + 3 * line.length + (n - lineEnd) + 16;
  if (room > dst.length) dst = grow(out, room, lineOut);
  const written = encoder.encodeInto(line, dst.subarray(lineOut)).written;
  lineNonAscii = written !== line.length ? 1 : 0;
  lineWritten = lineOut + written;
  return lineEnd;
}

/** Decodes one line of the fast path's input (valid UTF-8 or it throws; a U+FEFF at its start is kept: it is not the file's BOM). */
const lineDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
