/**
 * Bytes to text: detects the encoding of a file (UTF-8 with or without BOM, UTF-16 LE/BE with or without BOM, UTF-32 LE/BE with BOM;
 * a mostly-UTF-8 file with a few invalid bytes stays UTF-8 with U+FFFD for them; windows-1252 for
 * bytes that are not UTF-8 at all) and refuses binary files.
 */

/** The outcome of decoding one file. */
export type DecodeResult =
  | {
      ok: true;
      text: string;
      encoding: string;
      /**
       * Present (> 0) when the decode was lossy: how many bytes were replaced by U+FFFD (UTF-8: one
       * U+FFFD per maximal invalid subpart, as the WHATWG decoder does; UTF-16: unpaired surrogates and
       * an odd last byte; UTF-32: units that are no character).
       */
      invalidBytes?: number;
    }
  | { ok: false; reason: 'binary'; message: string };

/** How many leading bytes are inspected for binary content. */
export const BINARY_SNIFF_BYTES = 8192;
/** A file whose sniffed bytes are more than this share of control bytes is binary. */
export const CONTROL_BYTE_LIMIT = 0.3;

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });
const utf8Lenient = new TextDecoder('utf-8');
const utf16le = new TextDecoder('utf-16le');
const utf16Fatal = new TextDecoder('utf-16le', { fatal: true });

/**
 * windows-1252 bytes 0x80-0x9F (WHATWG Encoding table); all other bytes map to the same code point.
 * Decoded by hand because Node's built-in 'windows-1252' decoder (without full ICU) is really
 * ISO-8859-1 and turns 0x80 into U+0080 instead of €.
 */
const CP1252_HIGH = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d,
  0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x009d, 0x017e, 0x0178,
];

/** Decodes windows-1252 (every byte is a character, so this never fails). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    units[i] = b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] : b;
  }
  return utf16le.decode(units);
}

/** Why a byte sample looks binary, or null if it looks like text. */
export function binaryReason(bytes: Uint8Array): string | null {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  let control = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, n);
  for (let i = 0; i < n; i++) {
    // Four bytes at a time while none is below 0x20 or is DEL (SWAR; text is mostly such runs).
    while (i + 4 <= n) {
      const x = view.getUint32(i, true);
      const del = x ^ 0x7f7f7f7f;
      if ((((x - 0x20202020) & ~x) | ((del - 0x01010101) & ~del)) & 0x80808080) break;
      i += 4;
    }
    if (i >= n) break;
    const b = bytes[i];
    if (b === 0) return `binary file: NUL byte at offset ${i}`;
    // Tab, LF, VT, FF, CR and ESC occur in real text files; other C0 controls and DEL do not.
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) || b === 0x7f) {
      control++;
    }
  }
  if (n > 0 && control / n > CONTROL_BYTE_LIMIT) {
    return `binary file: ${Math.round((100 * control) / n)}% control bytes in the first ${n} bytes`;
  }
  return null;
}

/**
 * True (little-endian) or false (big-endian) when BOM-less bytes are UTF-16 text: in the first 8 KB,
 * one byte of most units is NUL and the other byte of (almost) none is, and the units are not mostly
 * control characters. Such files (Windows tools write them) would otherwise look binary. UTF-16 text
 * with few Latin-1 characters has few NULs, is not taken for binary, and is read as bytes.
 */
export function utf16WithoutBom(bytes: Uint8Array): boolean | null {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES) & ~1;
  if (n < 4) return null;
  const units = n >> 1;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const le = oddNul >= evenNul;
  const high = le ? oddNul : evenNul;
  const low = le ? evenNul : oddNul;
  // U+0000 is no text; U+xx00 letters (U+0100, U+4E00) are rare: at most 1% of units.
  if (high < 0.6 * units || low > 0.01 * units) return null;
  let control = 0;
  for (let i = 0; i < n; i += 2) {
    const unit = le ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1];
    const c0 = unit < 0x20 && unit !== 0x09 && unit !== 0x0a && unit !== 0x0b && unit !== 0x0c && unit !== 0x0d && unit !== 0x1b;
    if (c0 || (unit >= 0x7f && unit <= 0x9f)) control++;
  }
  return control / units > CONTROL_BYTE_LIMIT ? null : le;
}

/** What a UTF-8 scan of some bytes found. */
export interface Utf8Counts {
  /** Well-formed multi-byte sequences (characters above U+007F). */
  multibyte: number;
  /** Maximal invalid subparts: each becomes one U+FFFD. */
  invalidSequences: number;
  /** Bytes in those subparts. */
  invalidBytes: number;
}

/** Counts UTF-8 sequences over bytes given in pieces (a sequence may straddle two pieces). */
export interface Utf8Counter {
  push(bytes: Uint8Array): void;
  /** Ends the input (an unfinished sequence at the end is invalid) and returns the counts. */
  end(): Utf8Counts;
}

/** A counter that follows the WHATWG UTF-8 decoder byte by byte, so its counts match TextDecoder's U+FFFDs. */
export function createUtf8Counter(): Utf8Counter {
  const counts: Utf8Counts = { multibyte: 0, invalidSequences: 0, invalidBytes: 0 };
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  const fail = (bytes: number) => {
    counts.invalidSequences++;
    counts.invalidBytes += bytes;
    needed = 0;
    seen = 0;
    lower = 0x80;
    upper = 0xbf;
  };
  return {
    push(bytes) {
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i];
        if (needed === 0) {
          if (b < 0x80) continue;
          if (b >= 0xc2 && b <= 0xdf) needed = 1;
          else if (b >= 0xe0 && b <= 0xef) {
            if (b === 0xe0) lower = 0xa0;
            if (b === 0xed) upper = 0x9f;
            needed = 2;
          } else if (b >= 0xf0 && b <= 0xf4) {
            if (b === 0xf0) lower = 0x90;
            if (b === 0xf4) upper = 0x8f;
            needed = 3;
          } else {
            fail(1);
            continue;
          }
          seen = 1;
          continue;
        }
        if (b < lower || b > upper) {
          // The bytes so far are one invalid subpart; this byte starts over.
          fail(seen);
          i--;
          continue;
        }
        lower = 0x80;
        upper = 0xbf;
        seen++;
        if (--needed === 0) {
          counts.multibyte++;
          seen = 0;
        }
      }
    },
    end() {
      if (needed > 0) fail(seen);
      return { ...counts };
    },
  };
}

/** UTF-8 counts of a whole byte array. */
export function countUtf8(bytes: Uint8Array): Utf8Counts {
  const counter = createUtf8Counter();
  counter.push(bytes);
  return counter.end();
}

/**
 * True when bytes that are not valid UTF-8 are still best read as UTF-8: they hold well-formed
 * multi-byte characters, at least as many as invalid subparts (a UTF-8 file with a few damaged
 * bytes). A Latin-1 or windows-1252 file has no well-formed sequences, or far fewer than bad ones.
 */
export function mostlyUtf8(counts: Utf8Counts): boolean {
  return counts.multibyte > 0 && counts.invalidSequences <= counts.multibyte;
}

/**
 * Bytes of UTF-16 units the decoder replaces by U+FFFD: 2 for each unpaired surrogate, 1 for an odd
 * last byte. Only called when the strict decoder refused the units.
 */
function invalidUtf16Bytes(body: Uint8Array, littleEndian: boolean): number {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const units = body.length >> 1;
  let invalid = body.length & 1;
  for (let i = 0; i < units; i++) {
    const u = view.getUint16(2 * i, littleEndian);
    if (u < 0xd800 || u > 0xdfff) continue;
    const next = i + 1 < units ? view.getUint16(2 * i + 2, littleEndian) : 0;
    if (u <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else invalid += 2;
  }
  return invalid;
}

/**
 * Decodes UTF-16 (BOM removed); big-endian by swapping byte pairs (not every runtime ships a utf-16be
 * decoder). An unpaired surrogate or an odd last byte becomes U+FFFD, counted in `invalidBytes` (a
 * lossy decode), as damaged UTF-8 is.
 */
function decodeUtf16(body: Uint8Array, littleEndian: boolean): DecodeResult {
  let units = body;
  if (!littleEndian) {
    units = new Uint8Array(body.length);
    for (let i = 0; i + 1 < body.length; i += 2) {
      units[i] = body[i + 1];
      units[i + 1] = body[i];
    }
    // An odd last byte stays, so the decoder replaces it as it does in little-endian.
    if (body.length & 1) units[body.length - 1] = body[body.length - 1];
  }
  const encoding = littleEndian ? 'utf-16le' : 'utf-16be';
  try {
    return { ok: true, text: utf16Fatal.decode(units), encoding };
  } catch {
    return { ok: true, text: utf16le.decode(units), encoding, invalidBytes: invalidUtf16Bytes(body, littleEndian) };
  }
}

/** 'utf-32le' or 'utf-32be' when the bytes start with that byte order mark, else null. */
export function utf32Bom(bytes: Uint8Array): 'utf-32le' | 'utf-32be' | null {
  if (bytes.length < 4) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe && bytes[2] === 0 && bytes[3] === 0) return 'utf-32le';
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'utf-32be';
  return null;
}

/**
 * Decodes UTF-32 (no runtime ships a decoder): a unit that is no Unicode scalar value (past U+10FFFF,
 * a surrogate) and trailing bytes short of a unit become U+FFFD, counted in `invalidBytes` (a lossy decode).
 */
function decodeUtf32(body: Uint8Array, littleEndian: boolean): DecodeResult {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const units = body.length >> 2;
  const points = new Uint32Array(units);
  let invalid = body.length & 3;
  for (let i = 0; i < units; i++) {
    const cp = view.getUint32(4 * i, littleEndian);
    const valid = cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
    points[i] = valid ? cp : 0xfffd;
    if (!valid) invalid += 4;
  }
  let text = '';
  // String.fromCodePoint takes its arguments on the stack: a slice at a time.
  for (let at = 0; at < units; at += 8192) text += String.fromCodePoint(...points.subarray(at, Math.min(units, at + 8192)));
  if (invalid & 3) text += '\uFFFD';
  return { ok: true, text, encoding: littleEndian ? 'utf-32le' : 'utf-32be', ...(invalid > 0 ? { invalidBytes: invalid } : {}) };
}

/**
 * Decodes a file's bytes. UTF-32 with its BOM (00 00 FE FF or FF FE 00 00) is decoded as such, UTF-16
 * with its BOM (FF FE or FE FF) or without one when `utf16WithoutBom` recognizes it (its NUL bytes would
 * otherwise make it binary). Otherwise a NUL byte or mostly control bytes in the first
 * 8 KB mean binary; valid UTF-8 (BOM stripped) is UTF-8; UTF-8 with a few invalid bytes (see
 * `mostlyUtf8`) is UTF-8 with each invalid subpart replaced by U+FFFD, and says how many bytes
 * (`invalidBytes`); anything else is read as windows-1252, which maps every byte to a character, so
 * Latin-1 files come out right.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  // UTF-32's BOMs first: FF FE 00 00 also starts like UTF-16 LE's.
  const utf32 = utf32Bom(bytes);
  if (utf32 !== null) return decodeUtf32(bytes.subarray(4), utf32 === 'utf-32le');
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes.subarray(2), true);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes.subarray(2), false);
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const reason = binaryReason(body);
  if (reason !== null) {
    const littleEndian = bom ? null : utf16WithoutBom(body);
    if (littleEndian !== null) return decodeUtf16(body, littleEndian);
    return { ok: false, reason: 'binary', message: reason };
  }
  try {
    return { ok: true, text: utf8Fatal.decode(body), encoding: 'utf-8' };
  } catch {
    const counts = countUtf8(body);
    if (bom || mostlyUtf8(counts)) {
      return { ok: true, text: utf8Lenient.decode(body), encoding: 'utf-8', invalidBytes: counts.invalidBytes };
    }
    return { ok: true, text: decodeWindows1252(body), encoding: 'windows-1252' };
  }
}
