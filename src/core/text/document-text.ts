/**
 * The one rule that turns a file's bytes into the text SimSift compares: the format is told by the
 * bytes (document-format.ts); a PDF, DOCX, ODT, EPUB or RTF file has its text extracted
 * (documents/extract-document.ts), anything else is decoded (the encoding sniffed by decode.ts) and
 * loses its markup when the file's name says HTML. The scan, the check against the corpus,
 * verification, the CLI and the pair view all read documents through it, so a pair is measured the
 * same way wherever it is shown.
 */
import { decodeText } from './decode.ts';
import { stripHtml } from './html.ts';
import { decodedFormat, isExtractedFormat, readAsTextInstead, sniffFormat, type DocumentFormat, type ExtractedFormat, type SniffedFormat } from './document-format.ts';
import { extractDocument, isCompoundFile, type Extractor } from './documents/extract-document.ts';
import { DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits, type ExtractionSkip } from './documents/extraction.ts';

/** The text of a document, or why it has none. */
export type DocumentText =
  | {
      ok: true;
      text: string;
      encoding: string;
      /** What the file is: its text was decoded (text, html) or extracted (the others). */
      format: DocumentFormat;
      /** True when the name marks an HTML page and its markup was stripped. */
      html: boolean;
      /** Bytes of invalid UTF-8 replaced by U+FFFD (0 when none). */
      invalidBytes: number;
    }
  | { ok: false; reason: 'binary' | ExtractionSkip; message: string; format?: DocumentFormat };

/**
 * The decoded text of a file that is not an extracted document (see `sniffFormat`): decodes `bytes`
 * (see `decodeText`) and, when `name` (a file name or path) is an HTML page's, strips its markup
 * (`stripHtml`), exactly as a scan does before fingerprinting. Synchronous; `loadDocumentText` is the
 * whole rule.
 */
export function documentText(bytes: Uint8Array, name: string, sniffed: SniffedFormat = sniffFormat(bytes, name)): DocumentText {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return sniffed.claimed ? damagedClaim(bytes, sniffed.claimed) : decoded;
  const html = sniffed.format === 'html';
  return {
    ok: true,
    text: html ? stripHtml(decoded.text) : decoded.text,
    encoding: decoded.encoding,
    format: html ? 'html' : 'text',
    html,
    invalidBytes: decoded.invalidBytes ?? 0,
  };
}

/** A file named like a document whose bytes are not that document and not text either. */
function damagedClaim(bytes: Uint8Array, claimed: ExtractedFormat): DocumentText {
  if ((claimed === 'docx' || claimed === 'odt') && isCompoundFile(bytes)) {
    return { ok: false, reason: 'encrypted', format: claimed, message: 'a password-protected Office document (or an old binary .doc, which SimSift does not read)' };
  }
  return { ok: false, reason: 'damaged', format: claimed, message: `named .${claimed} but its bytes are not a ${claimed.toUpperCase()} document` };
}

/** The text of an extracted document (PDF, DOCX, ODT, EPUB, RTF), or why there is none. */
export async function extractedDocumentText(
  bytes: Uint8Array,
  format: ExtractedFormat,
  limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS,
  extract: Extractor = extractDocument,
): Promise<DocumentText> {
  const extracted = await extract(bytes, format, limits);
  if (!extracted.ok) return { ...extracted, format };
  return { ok: true, text: extracted.text, encoding: 'utf-8', format, html: false, invalidBytes: 0 };
}

/**
 * The text SimSift compares for a file's bytes, whatever its format: extracted from a document,
 * else decoded (and HTML stripped) by `documentText`.
 */
export async function loadDocumentText(bytes: Uint8Array, name: string, limits?: ExtractionLimits): Promise<DocumentText> {
  const sniffed = sniffFormat(bytes, name);
  if (!isExtractedFormat(sniffed.format)) return documentText(bytes, name, sniffed);
  const doc = await extractedDocumentText(bytes, sniffed.format, limits);
  if (doc.ok || !readAsTextInstead(doc, sniffed.format, name)) return doc;
  const text = documentText(bytes, name, decodedFormat(name));
  return text.ok ? text : doc;
}
