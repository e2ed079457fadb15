/**
 * File names as the CLI holds and prints them. A name is bytes on disk: the CLI holds it as a string
 * in which each byte that is not valid UTF-8 is a lone surrogate U+DC80..U+DCFF (Python's
 * "surrogateescape"), so two names that differ only in such bytes stay two names, and `fsPath` gives
 * the exact bytes back to open the file. Printed, a name is escaped so that it cannot drive the
 * terminal or be mistaken for another: controls, bidirectional controls and invalid bytes are written
 * as escapes (`escapeName`, read back by `unescapeName`).
 */

/** U+DC00 + byte (U+DC80..U+DCFF, as bytes 80..FF are the only invalid ones): how an invalid UTF-8 byte is held in a name. */
const ESCAPED_BYTE = 0xdc00;

/** The name's string for its bytes: UTF-8, with each invalid byte held as U+DC80 + byte. */
export function nameFromBytes(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // Valid UTF-8 (the usual case) round-trips exactly.
  if (!text.includes('\uFFFD') || Buffer.from(text, 'utf8').equals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) return text;
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = validSequenceLength(bytes, i);
    if (length === 0) {
      out += String.fromCharCode(ESCAPED_BYTE + bytes[i]);
      i++;
    } else {
      out += Buffer.from(bytes.subarray(i, i + length)).toString('utf8');
      i += length;
    }
  }
  return out;
}

/** Length of the valid UTF-8 sequence starting at bytes[i], or 0 when the byte there starts none. */
function validSequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i];
  if (b < 0x80) return 1;
  const cont = (j: number, lo = 0x80, hi = 0xbf) => j < bytes.length && bytes[j] >= lo && bytes[j] <= hi;
  if (b >= 0xc2 && b <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b === 0xe0) return cont(i + 1, 0xa0) && cont(i + 2) ? 3 : 0;
  if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (b === 0xed) return cont(i + 1, 0x80, 0x9f) && cont(i + 2) ? 3 : 0; // no encoded surrogates
  if (b === 0xf0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b >= 0xf1 && b <= 0xf3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b === 0xf4) return cont(i + 1, 0x80, 0x8f) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

/** A unit that may be an escaped byte; one object (a literal in the function is a new RegExp per call, per path of a scan). */
const MAYBE_ESCAPED = /[\udc80-\udcff]/;

/** True when `text` holds a lone surrogate U+DC80..U+DCFF (an invalid byte of a name). */
export function hasEscapedBytes(text: string): boolean {
  // The regular expression is native and fast; the loop below tells a lone one from a pair's low half.
  if (!MAYBE_ESCAPED.test(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (c >= 0xdc80 && c <= 0xdcff) return true;
  }
  return false;
}

/** The bytes of `text` as written to a file: UTF-8, with each held invalid byte written as itself. */
export function encodeName(text: string): Buffer {
  if (!hasEscapedBytes(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      i++;
      continue;
    }
    if (c >= 0xdc80 && c <= 0xdcff) {
      parts.push(Buffer.from(text.slice(start, i), 'utf8'), Buffer.from([c - ESCAPED_BYTE]));
      start = i + 1;
    }
  }
  parts.push(Buffer.from(text.slice(start), 'utf8'));
  return Buffer.concat(parts);
}

/** What to hand to `fs` for a name: the string itself, or its exact bytes when it holds invalid ones. */
export function fsPath(name: string): string | Buffer {
  return hasEscapedBytes(name) ? encodeName(name) : name;
}

/**
 * Characters a terminal acts on or that reorder what is shown: C0 controls and DEL, C1 controls,
 * bidirectional controls and marks (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069), line and
 * paragraph separators, and lone surrogates (invalid bytes of a name, or broken text).
 */
const UNSAFE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** UNSAFE without the global flag, for `test` (a global regex's `test` moves its lastIndex). */
const HAS_UNSAFE = new RegExp(UNSAFE.source);
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
  // An invalid byte of a name is written as that byte.
  if (code >= 0xdc80 && code <= 0xdcff) return `\\x${(code - ESCAPED_BYTE).toString(16).padStart(2, '0')}`;
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * A name for one line of terminal output, unambiguous and inert: backslash as `\\`; LF, CR and tab as
 * `\n`, `\r`, `\t`; other C0 controls and DEL as `\xHH`; an invalid UTF-8 byte as `\xHH` (HH >= 80);
 * C1 controls, bidirectional controls and other lone surrogates as `\uHHHH`; in a path part that is not
 * in NFC, the combining characters as `\uHHHH` (so two spellings of one name never print alike). `unescapeName` reads it
 * back exactly.
 */
export function escapeName(name: string): string {
  const unnormalized = NON_ASCII.test(name) && name.normalize('NFC') !== name;
  if (!unnormalized && !name.includes('\\') && !HAS_UNSAFE.test(name)) return name;
  const escaped = name.replace(/\\/g, '\\\\').replace(UNSAFE, escapeChar);
  return unnormalized ? escaped.split('/').map((part) => (part.normalize('NFC') === part ? part : escapeDecomposed(part))).join('/') : escaped;
}

const NON_ASCII = /[^\x00-\x7f]/;
/** Combining marks and the Hangul vowel and final jamo: what a decomposed (NFD) spelling adds to a composed one. */
const COMPOSING = /[\p{M}\u1160-\u11ff]/u;
const unitEscapes = (c: string) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * A name part that is not in NFC with the characters that make it so as `\uHHHH`: `cafe\u0301.txt` (NFD)
 * then reads differently from `café.txt` (NFC), which prints as it is, though a terminal shows both alike.
 */
function escapeDecomposed(part: string): string {
  let out = '';
  for (const c of part) out += COMPOSING.test(c) || c.normalize('NFC') !== c ? unitEscapes(c) : c;
  // Whatever made the part not NFC, something must show: else every non-ASCII character is escaped.
  return out !== part ? out : part.replace(/[^\x00-\x7f]/gu, unitEscapes);
}

/** The name `escapeName` wrote, as it was (invalid bytes held as U+DC80 + byte again). */
export function unescapeName(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|([nrt\\]))/g, (_, hex?: string, unit?: string, named?: string) => {
    if (hex !== undefined) {
      const byte = parseInt(hex, 16);
      return String.fromCharCode(byte < 0x80 ? byte : ESCAPED_BYTE + byte);
    }
    if (unit !== undefined) return String.fromCharCode(parseInt(unit, 16));
    return named === 'n' ? '\n' : named === 'r' ? '\r' : named === 't' ? '\t' : '\\';
  });
}

/**
 * A message for the terminal: the characters of `UNSAFE` escaped as `escapeName` writes them, the rest
 * (backslashes included) unchanged. Every line the CLI prints to stderr goes through it, so a name
 * quoted in an error cannot set the terminal's title or reorder the line.
 */
export function terminalText(text: string): string {
  return !HAS_UNSAFE.test(text) ? text : text.replace(UNSAFE, escapeChar);
}
