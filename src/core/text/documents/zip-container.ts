/**
 * Reading a zip's central directory (the entries of DOCX, ODT and EPUB files) without inflating
 * anything: names, methods, sizes and where each entry's data starts. Pure and synchronous, so the
 * format sniffer can use it on every zip; inflating (with its limits) is in office-text.ts, loaded
 * only when a document needs it.
 */

/** One entry of a zip's central directory. */
export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; others are not read. */
  method: number;
  /** Bit 0 of the general-purpose flags: the entry is encrypted. */
  encrypted: boolean;
  compressedSize: number;
  /** As the directory declares it (a zip bomb may lie: inflating checks the real size). */
  size: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
}

export type ZipListing = { ok: true; entries: ZipEntry[] } | { ok: false; message: string };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const utf8 = new TextDecoder('utf-8');

/** Lists a zip's entries from its central directory (at most `maxEntries`); never throws. */
export function listZipEntries(bytes: Uint8Array, maxEntries: number): ZipListing {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record is the last 22 bytes plus a comment of up to 65,535 bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return { ok: false, message: 'no zip directory (the file is cut short or not a zip)' };
  const count = view.getUint16(eocd + 10, true);
  const dirOffset = view.getUint32(eocd + 16, true);
  if (count > maxEntries) return { ok: false, message: `${count} entries in the zip, more than ${maxEntries}` };
  const entries: ZipEntry[] = [];
  let at = dirOffset;
  for (let e = 0; e < count; e++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) return { ok: false, message: 'damaged zip directory' };
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > bytes.length) return { ok: false, message: 'damaged zip directory' };
    entries.push({
      name: utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      encrypted: (view.getUint16(at + 8, true) & 1) !== 0,
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      headerOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { ok: true, entries };
}

/** The bytes of an entry's (still compressed) data, or null when its local header is damaged or points outside the file. */
export function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array | null {
  const at = entry.headerOffset;
  if (at + 30 > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(at, true) !== LOCAL_SIGNATURE) return null;
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  return end <= bytes.length ? bytes.subarray(start, end) : null;
}

/** A small stored (uncompressed) entry as text, such as ODF's and EPUB's `mimetype`; null otherwise. */
export function readStoredEntry(bytes: Uint8Array, entry: ZipEntry, maxBytes: number): string | null {
  if (entry.method !== 0 || entry.encrypted || entry.compressedSize > maxBytes) return null;
  const data = entryData(bytes, entry);
  return data ? utf8.decode(data).trim() : null;
}
