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
import { binaryReason, utf32Bom } from './decode.ts';
import { documentText } from './document-text.ts';
import { NAMED_ENTITIES, isHtmlName } from './html.ts';
import { NEEDS_UPPERCASE_FIRST_ALL, normalizeText, upperThenLower } from './normalize.ts';

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
  const folded = c.normalize('NFKC').replace(NEEDS_UPPERCASE_FIRST_ALL, upperThenLower).toLowerCase();
  const result = normalizeText(c);
  if (startsJoining(folded) || startsJoining(result)) return NOT_SIMPLE;
  const utf8 = encoder.encode(result);
  // (No line feed: the fast path finds line starts by counting them.)
  if (utf8.length > 127 || utf8.includes(0x0a)) return NOT_SIMPLE;
  if (poolUsed + utf8.length > pool.length) {
    const grown = new Uint8Array(pool.length * 2);
    grown.set(pool);
    pool = grown;
  }
  pool.set(utf8, poolUsed);
  const entry = poolUsed * 256 + utf8.length * 2 + (utf8.length === result.length ? 0 : 1);
  poolUsed += utf8.length;
  return entry;
}

/** The table entry of a code point (see BMP_ENTRIES), filling its block on first use. */
function entryOf(cp: number): number {
  if (cp < 0x10000) {
    const entry = BMP_ENTRIES[cp];
    if (entry !== 0) return entry;
    const start = cp & ~0xff;
    for (let c = start; c < start + 256; c++) BMP_ENTRIES[c] = classify(c);
    return BMP_ENTRIES[cp];
  }
  let block = ASTRAL_BLOCKS[cp >>> 8];
  if (!block) {
    block = ASTRAL_BLOCKS[cp >>> 8] = new Int32Array(256);
    const start = cp & ~0xff;
    for (let c = 0; c < 256; c++) block[c] = classify(start + c);
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

const LOWER = new Uint8Array(128);
for (let b = 0; b < 128; b++) LOWER[b] = b >= 0x41 && b <= 0x5a ? b + 32 : b;
/** Byte maps of the fast path's inner loop: a byte's lowercase, or STOP where the loop must look closer. */
const STOP = 0xff;
const TEXT_BYTES = new Uint8Array(256).fill(STOP);
TEXT_BYTES.set(LOWER);
const HTML_BYTES = TEXT_BYTES.slice();
HTML_BYTES[0x3c] = STOP; // <
HTML_BYTES[0x26] = STOP; // &

/** Result of normalizeFast: use the string path. */
const FALLBACK = -1;
/** Result of normalizeFast: the file is binary (decodeText's rule). */
const BINARY = -2;
/** Whether the last fast result was pure ASCII (a module variable: no object per document). */
let fastAscii = true;

/** Raw-text elements (their bodies are not text), as html.ts knows them: lowercase ASCII names. */
const RAW_TEXT_NAMES = ['script', 'style', 'template', 'noscript', 'textarea'].map((s) => encoder.encode(s));

/** Grows `out` so that `need` bytes fit, keeping the first `keep`. */
function grow(out: Utf8Buffer, need: number, keep: number): Uint8Array {
  const next = new Uint8Array(Math.max(need, 2 * out.bytes.length));
  next.set(out.bytes.subarray(0, keep));
  out.bytes = next;
  return next;
}

/**
 * The fast path: writes the normalized UTF-8 of the file's text into out.bytes and returns its
 * length, or FALLBACK (the string path must do it) or BINARY. Invariant while writing: room for
 * what is written so far plus one byte per input byte left (ASCII never grows), so the ASCII loop needs no check.
 */
function normalizeFast(bytes: Uint8Array, html: boolean, out: Utf8Buffer): number {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return FALLBACK;
  // UTF-32 BE's BOM starts with NULs: decoded by the string path, not called binary here.
  if (utf32Bom(bytes) !== null) return FALLBACK;
  let src = bodyOf(bytes);
  if (binaryReason(src) !== null) return BINARY;
  // TextDecoder drops one more byte order mark at the start of the body.
  src = bodyOf(src);
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
      // Only this line goes through the strings (a combining mark, say): normalization never
      // crosses a line feed, which composes with nothing on either side. Each input line feed
      // wrote one output line feed, and nothing else writes one, so the line starts after the last.
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
      if (room > dst.length) {
        dst = grow(out, room, lineOut);
        dstView = new DataView(dst.buffer);
      }
      const written = encoder.encodeInto(line, dst.subarray(lineOut)).written;
      if (written !== line.length) nonAscii = 1;
      w = lineOut + written;
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

/** Decodes one line of the fast path's input (valid UTF-8 or it throws; a U+FEFF at its start is kept: it is not the file's BOM). */
const lineDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Where the tag, comment or declaration starting with the '<' at `i` ends (stripHtml's rules:
 * raw-text bodies included), -1 when that '<' opens none (it is text), FALLBACK when a closing
 * raw-text tag may hold a non-ASCII space (the regex's \s).
 */
function tagEnd(s: Uint8Array, i: number): number {
  const n = s.length;
  const next = i + 1 < n ? s[i + 1] : -1;
  if (next === 0x21 /* ! */ && s[i + 2] === 0x2d && s[i + 3] === 0x2d && i + 3 < n) {
    const close = indexOf3(s, 0x2d, 0x2d, 0x3e, i + 4);
    return close < 0 ? n : close + 3;
  }
  if (next === 0x21 || next === 0x3f /* ? */) {
    const close = s.indexOf(0x3e, i + 2);
    return close < 0 ? n : close + 1;
  }
  const letter = (next >= 0x41 && next <= 0x5a) || (next >= 0x61 && next <= 0x7a);
  if (!letter && next !== 0x2f /* / */) return -1;
  const close = s.indexOf(0x3e, i + 1);
  const end = close < 0 ? n : close + 1;
  if (next === 0x2f) return end;
  const raw = rawTextName(s, i + 1);
  if (raw < 0) return end;
  return rawTextEnd(s, RAW_TEXT_NAMES[raw], end);
}

/** True when s[from, to) is well-formed UTF-8 (TextDecoder's rule; the range never splits a sequence: it ends at '>' or the input's end). */
function validUtf8(s: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const b = s[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else return false;
    if (i + need >= to) return false;
    const c1 = s[i + 1];
    if (c1 < lower || c1 > upper) return false;
    for (let k = 2; k <= need; k++) if ((s[i + k] & 0xc0) !== 0x80) return false;
    i += need + 1;
  }
  return true;
}

/** First index >= from of the three bytes a b c in a row, or -1. */
function indexOf3(s: Uint8Array, a: number, b: number, c: number, from: number): number {
  for (let at = s.indexOf(a, from); at >= 0 && at + 2 < s.length; at = s.indexOf(a, at + 1)) {
    if (s[at + 1] === b && s[at + 2] === c) return at;
  }
  return -1;
}

/** The raw-text element (index into RAW_TEXT_NAMES) whose name starts at `start`, or -1 (html.ts rawTextCloser's rule). */
function rawTextName(s: Uint8Array, start: number): number {
  let end = start;
  const limit = Math.min(s.length, start + 9);
  while (end < limit) {
    const c = s[end];
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45) end++;
    else break;
  }
  const length = end - start;
  if (length < 5 || length > 8) return -1;
  for (let r = 0; r < RAW_TEXT_NAMES.length; r++) {
    const name = RAW_TEXT_NAMES[r];
    if (name.length !== length) continue;
    let k = 0;
    while (k < length && LOWER[s[start + k]] === name[k]) k++;
    if (k === length) return r;
  }
  return -1;
}

/** JavaScript's \s among ASCII bytes: tab, LF, VT, FF, CR, space. */
function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** The end of the first `</name\s*>` (ASCII case-insensitive) at or after `from`, or the input's end; FALLBACK where \s may be non-ASCII. */
function rawTextEnd(s: Uint8Array, name: Uint8Array, from: number): number {
  const n = s.length;
  for (let at = s.indexOf(0x3c, from); at >= 0; at = s.indexOf(0x3c, at + 1)) {
    if (s[at + 1] !== 0x2f) continue;
    let k = 0;
    while (k < name.length && at + 2 + k < n && LOWER[s[at + 2 + k] & 0x7f] === name[k] && s[at + 2 + k] < 0x80) k++;
    if (k < name.length) continue;
    let j = at + 2 + name.length;
    while (j < n && isAsciiSpace(s[j])) j++;
    if (j < n && s[j] === 0x3e) return j + 1;
    if (j < n && s[j] >= 0x80) return FALLBACK;
  }
  return n;
}

/** Where the reference that entityAt decoded ends (a module variable: no object per reference). */
let entityEnd = 0;
/**
 * NAMED_ENTITIES by their name packed into a number (a byte per 7 bits): html.ts looks a name up as
 * written, then lowercased; its names are all lowercase, so the lowercased name's key finds the same.
 */
const ENTITY_BY_KEY = new Map<number, number>();
let longestEntityName = 0;
for (const [name, value] of Object.entries(NAMED_ENTITIES)) {
  if (name !== name.toLowerCase() || value.length !== 1) throw new Error(`html.ts entity '${name}' breaks normalized-utf8's lookup`);
  let key = 0;
  for (let k = name.length - 1; k >= 0; k--) key = key * 128 + name.charCodeAt(k);
  ENTITY_BY_KEY.set(key, value.charCodeAt(0));
  longestEntityName = Math.max(longestEntityName, name.length);
}

/**
 * The code point of the character reference at `i` (an '&') as html.ts decodes it, setting
 * entityEnd; -1 when html.ts would leave the text as written (no reference, or an unknown name).
 * The pattern: &#[0-9]{1,7}; | &#[xX][0-9a-fA-F]{1,6}; | &[a-zA-Z][a-zA-Z0-9]{1,31};
 */
function entityAt(s: Uint8Array, i: number): number {
  const n = s.length;
  let j = i + 1;
  if (j >= n) return -1;
  if (s[j] === 0x23 /* # */) {
    j++;
    const hex = j < n && (s[j] === 0x78 || s[j] === 0x58);
    if (hex) j++;
    const digitsStart = j;
    let code = 0;
    while (j < n) {
      const c = s[j];
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
      else break;
      code = code * (hex ? 16 : 10) + d;
      j++;
    }
    const digits = j - digitsStart;
    if (digits < 1 || digits > (hex ? 6 : 7) || j >= n || s[j] !== 0x3b /* ; */) return -1;
    entityEnd = j + 1;
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0xfffd;
    return code;
  }
  const first = s[j];
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a))) return -1;
  while (j < n) {
    const c = s[j];
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) j++;
    else break;
  }
  const length = j - i - 1;
  if (length < 2 || length > 32 || j >= n || s[j] !== 0x3b) return -1;
  if (length > longestEntityName) return -1;
  let key = 0;
  for (let k = j - 1; k > i; k--) key = key * 128 + LOWER[s[k]];
  const code = ENTITY_BY_KEY.get(key);
  if (code === undefined) return -1;
  entityEnd = j + 1;
  return code;
}
