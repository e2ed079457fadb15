/**
 * Extracting the text of a PDF, DOCX, ODT, EPUB or RTF file: picks the extractor for the format,
 * loading it (and its library: pdf.js, fflate) with a dynamic import the first time such a document
 * appears, so a scan of plain text never loads them; turns every failure into a skip with a reason.
 */
import type { ExtractedFormat } from '../document-format.ts';
import { cleanExtractedText, DEFAULT_EXTRACTION_LIMITS, ExtractionError, type Extraction, type ExtractionLimits } from './extraction.ts';

// The Compound File magic: Office wraps an encrypted DOCX in one (so does an old .doc).
const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** True for an OLE Compound File (a password-protected Office document, or a Word 97-2003 file). */
export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && CFB_MAGIC.every((b, i) => bytes[i] === b);
}

/** What extracts a document's text: `extractDocument` here, or the same run in a worker of its own (workers/extraction-worker.ts). */
export type Extractor = (bytes: Uint8Array, format: ExtractedFormat, limits: ExtractionLimits) => Promise<Extraction>;

/** The extractor of one format: the module is imported only when first needed. */
async function runExtractor(bytes: Uint8Array, format: ExtractedFormat, limits: ExtractionLimits): Promise<{ text: string; pages?: number }> {
  switch (format) {
    case 'pdf':
      return (await import('./pdf-text.ts')).pdfText(bytes, limits);
    case 'rtf':
      return { text: (await import('./rtf-text.ts')).rtfText(bytes, limits) };
    case 'docx':
      return { text: (await import('./office-text.ts')).docxText(bytes, limits) };
    case 'odt':
      return { text: (await import('./office-text.ts')).odtText(bytes, limits) };
    case 'epub':
      return { text: (await import('./office-text.ts')).epubText(bytes, limits) };
  }
}

/**
 * The text of a document of `format` (as sniffed from its bytes), cleaned as SimSift compares it
 * (`cleanExtractedText`), or why there is none: encrypted, damaged, no text (a PDF of scanned pages,
 * a document with no words), or over a limit (a zip bomb, XML nested too deep, too many pages, too
 * slow). Never throws.
 */
export async function extractDocument(bytes: Uint8Array, format: ExtractedFormat, limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS): Promise<Extraction> {
  try {
    const { text, pages } = await runExtractor(bytes, format, limits);
    const clean = cleanExtractedText(text);
    if (clean === '' && format !== 'pdf') return { ok: false, reason: 'no-text', message: 'the document holds no text' };
    return pages === undefined ? { ok: true, text: clean } : { ok: true, text: clean, pages };
  } catch (error) {
    if (error instanceof ExtractionError) return { ok: false, reason: error.reason, message: error.message };
    // A RangeError from a hostile file (a string or array too large) is a limit, anything else damage.
    const message = error instanceof Error ? error.message : String(error);
    return error instanceof RangeError ? { ok: false, reason: 'over-limit', message } : { ok: false, reason: 'damaged', message };
  }
}
