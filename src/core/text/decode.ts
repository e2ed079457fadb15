/**
 * Bytes to text: detects the encoding of a file (UTF-8 with or without BOM, UTF-16 LE/BE with BOM,
 * windows-1252 as the fallback for bytes that are not valid UTF-8) and refuses binary files.
 */

/** The outcome of decoding one file. */
export type DecodeResult =
  | { ok: true; text: string; encoding: string }
  | { ok: false; reason: 'binary'; message: string };

/** How many leading bytes are inspected for binary content. */
export const BINARY_SNIFF_BYTES = 8192;
/** A file whose sniffed bytes are more than this share of control bytes is binary. */
export const CONTROL_BYTE_LIMIT = 0.3;

const utf8Fatal = new TextDecoder('utf-8', { fatal: true });
const utf16le = new TextDecoder('utf-16le');

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
function binaryReason(bytes: Uint8Array): string | null {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
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

/** Decodes UTF-16 big-endian by swapping byte pairs (not every runtime ships a utf-16be decoder). */
function decodeUtf16be(bytes: Uint8Array): string {
  const swapped = new Uint8Array(bytes.length & ~1);
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    swapped[i] = bytes[i + 1];
    swapped[i + 1] = bytes[i];
  }
  return utf16le.decode(swapped);
}

/**
 * Decodes a file's bytes. UTF-16 needs its BOM (FF FE or FE FF; UTF-16 without one is seen as
 * binary, since it is full of NUL bytes). Otherwise a NUL byte or mostly control bytes in the first
 * 8 KB mean binary; valid UTF-8 (BOM stripped) is UTF-8; anything else is read as windows-1252,
 * which maps every byte to a character, so Latin-1 files come out right.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { ok: true, text: utf16le.decode(bytes.subarray(2)), encoding: 'utf-16le' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { ok: true, text: decodeUtf16be(bytes.subarray(2)), encoding: 'utf-16be' };
  }
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const reason = binaryReason(body);
  if (reason !== null) return { ok: false, reason: 'binary', message: reason };
  try {
    return { ok: true, text: utf8Fatal.decode(body), encoding: 'utf-8' };
  } catch {
    return { ok: true, text: decodeWindows1252(body), encoding: 'windows-1252' };
  }
}
