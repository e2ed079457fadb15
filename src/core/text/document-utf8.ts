/**
 * The workers' entry to the one bytes -> compared-text rule (document-text.ts): the UTF-8 of a
 * file's normalized compared text, for any format. Plain text and HTML take the fast byte path
 * (normalized-utf8.ts); an extracted document (PDF, DOCX, ODT, EPUB, RTF) has its text extracted
 * and normalized through the strings, which gives the same bytes the string path gives
 * (normalizeText, then UTF-8).
 */
import { isExtractedFormat, readAsTextInstead, sniffFormat, type DocumentFormat } from './document-format.ts';
import { documentText, extractedDocumentText } from './document-text.ts';
import { normalizeText } from './normalize.ts';
import { normalizedUtf8, type Utf8Buffer } from './normalized-utf8.ts';
import type { ExtractionLimits, ExtractionSkip } from './documents/extraction.ts';
import type { Extractor } from './documents/extract-document.ts';

/** A document's normalized text in the buffer (see `normalizedUtf8`), with its format; or why it has none. */
export type DocumentUtf8 =
  | { ok: true; utf8: Uint8Array; ascii: boolean; html: boolean; invalidBytes: number; format: DocumentFormat }
  | { ok: false; reason: 'binary' | ExtractionSkip; message: string; format?: DocumentFormat };

const encoder = new TextEncoder();

/**
 * Writes UTF-8(normalizeText(loadDocumentText(bytes, name).text)) into `out`: the exact bytes whose
 * XXH64 is the content hash and whose tokens are the fingerprint's features. `extract` runs a
 * document's extraction (the workers run it in a worker of their own, stopped when it takes too long).
 */
export async function documentUtf8(bytes: Uint8Array, name: string, out: Utf8Buffer, limits?: ExtractionLimits, extract?: Extractor): Promise<DocumentUtf8> {
  const sniffed = sniffFormat(bytes, name);
  if (isExtractedFormat(sniffed.format)) {
    const doc = await extractedDocumentText(bytes, sniffed.format, limits, extract);
    if (!doc.ok) {
      if (!readAsTextInstead(doc, sniffed.format, name)) return doc;
      const text = normalizedUtf8(bytes, name, out);
      return text.ok ? { ...text, format: text.html ? 'html' : 'text' } : doc;
    }
    const text = normalizeText(doc.text);
    if (out.bytes.length < 3 * text.length) out.bytes = new Uint8Array(3 * text.length + 64);
    const { written } = encoder.encodeInto(text, out.bytes);
    return { ok: true, utf8: out.bytes.subarray(0, written), ascii: written === text.length, html: false, invalidBytes: 0, format: sniffed.format };
  }
  const doc = normalizedUtf8(bytes, name, out);
  // A file named .docx (say) that is not text either is a damaged or encrypted document, not "binary".
  if (!doc.ok) return sniffed.claimed ? documentText(bytes, name, sniffed) as Exclude<DocumentUtf8, { ok: true }> : doc;
  return { ...doc, format: doc.html ? 'html' : 'text' };
}
