/**
 * Which kind of document a file is, told by its bytes (magic numbers, a zip's `mimetype` entry and
 * content types), so a renamed file is read the same way and a plain-text file called `x.pdf` stays
 * text. Plain text and HTML are decoded as text (decode.ts, html.ts); the other formats have their
 * text extracted (documents/extract-document.ts). Pure, synchronous and cheap: the workers call it
 * on every file before the byte path.
 */
import { isHtmlName } from './html.ts';
import { listZipEntries, readStoredEntry } from './documents/zip-container.ts';

/** The formats SimSift reads. `text` and `html` are decoded; the others are extracted. */
export type DocumentFormat = 'text' | 'html' | 'pdf' | 'docx' | 'odt' | 'epub' | 'rtf';
/** A format whose text is extracted from a container, not decoded. */
export type ExtractedFormat = Exclude<DocumentFormat, 'text' | 'html'>;

/** Every format, in the order of their codes in a document's flags byte (DocFlag.formatShift). */
export const DOCUMENT_FORMATS: readonly DocumentFormat[] = ['text', 'html', 'pdf', 'docx', 'odt', 'epub', 'rtf'];

/** The names people know the formats by (pair view, exports). */
export const FORMAT_LABELS: Record<DocumentFormat, string> = {
  text: 'plain text',
  html: 'HTML',
  pdf: 'PDF',
  docx: 'Word (DOCX)',
  odt: 'OpenDocument (ODT)',
  epub: 'EPUB',
  rtf: 'RTF',
};

/** What the bytes say a file is; `claimed` is the format its name claims when the bytes do not match it (a damaged document). */
export type SniffedFormat = { format: DocumentFormat; claimed?: undefined } | { format: 'text'; claimed: ExtractedFormat };

const EXTENSION_FORMATS: Record<string, ExtractedFormat> = { pdf: 'pdf', docx: 'docx', odt: 'odt', epub: 'epub', rtf: 'rtf' };

/** True for a format whose text is extracted (not decoded as text). */
export function isExtractedFormat(format: DocumentFormat): format is ExtractedFormat {
  return format !== 'text' && format !== 'html';
}

/** The format a file name's extension claims, if it is an extracted one. */
export function formatOfName(name: string): ExtractedFormat | null {
  const m = /\.([a-z]+)$/i.exec(name);
  return m ? (EXTENSION_FORMATS[m[1]!.toLowerCase()] ?? null) : null;
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const RTF_MAGIC = [0x7b, 0x5c, 0x72, 0x74, 0x66]; // {\rtf

function startsWith(bytes: Uint8Array, at: number, magic: readonly number[]): boolean {
  if (at + magic.length > bytes.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[at + i] !== magic[i]) return false;
  return true;
}

/**
 * Where `%PDF-` starts, or -1. Readers accept it anywhere in the first 1,024 bytes, but a text about
 * PDF may quote it: past offset 0 it counts only in a file named .pdf.
 */
function pdfHeaderAt(bytes: Uint8Array, name: string): number {
  if (startsWith(bytes, 0, PDF_MAGIC)) return 0;
  if (formatOfName(name) !== 'pdf') return -1;
  const n = Math.min(bytes.length - PDF_MAGIC.length, 1024);
  for (let i = 0; i <= n; i++) if (bytes[i] === 0x25 && startsWith(bytes, i, PDF_MAGIC)) return i;
  return -1;
}

/** The format of a zip: ODT and EPUB by their stored `mimetype` entry, DOCX by its content types and main part; null for any other zip. */
function zipFormat(bytes: Uint8Array): ExtractedFormat | null {
  const entries = listZipEntries(bytes, 100_000);
  if (!entries.ok) return null;
  const byName = new Map(entries.entries.map((e) => [e.name, e]));
  const mimetype = byName.get('mimetype');
  if (mimetype) {
    const type = readStoredEntry(bytes, mimetype, 200);
    if (type === 'application/vnd.oasis.opendocument.text') return 'odt';
    if (type === 'application/epub+zip') return 'epub';
  }
  if (byName.has('[Content_Types].xml') && byName.has('word/document.xml')) return 'docx';
  return null;
}

/**
 * The format of a file, from its bytes first: `%PDF-`, `{\rtf`, a zip holding an OpenDocument text,
 * an EPUB or a Word document. Otherwise text, or HTML when the name says so (as before). A file whose
 * name claims a document format its bytes do not have is text with `claimed` set: if it does not
 * decode as text either, it is a damaged document, not "binary".
 */
export function sniffFormat(bytes: Uint8Array, name: string): SniffedFormat {
  if (bytes.length >= 4) {
    if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
      const format = zipFormat(bytes);
      if (format) return { format };
    } else if (startsWith(bytes, 0, RTF_MAGIC) || (bytes[0] === 0xef && startsWith(bytes, 3, RTF_MAGIC))) {
      return { format: 'rtf' };
    } else if (pdfHeaderAt(bytes, name) >= 0) {
      return { format: 'pdf' };
    }
  }
  const claimed = formatOfName(name);
  if (claimed) return { format: 'text', claimed };
  return decodedFormat(name);
}

/** The format of a file read as text: HTML when its name says so, else plain text. */
export function decodedFormat(name: string): SniffedFormat {
  return { format: isHtmlName(name) ? 'html' : 'text' };
}

/**
 * True when a document's extraction found it damaged though its name does not claim the format: its
 * bytes only began like one (a note about PDF that starts with `%PDF-`), so it is read as text instead
 * when it decodes as text, and stays a damaged document when it does not.
 */
export function readAsTextInstead(failed: { reason: string }, format: ExtractedFormat, name: string): boolean {
  return failed.reason === 'damaged' && formatOfName(name) !== format;
}
