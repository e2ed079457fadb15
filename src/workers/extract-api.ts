/**
 * The document-extraction worker's API: one document's text extracted (core extractDocument) in a
 * worker of its own, so that a document that passes its time limit is stopped by terminating that
 * worker (extraction-worker.ts), whatever pdf.js or an extractor is busy with.
 */
import { extractDocument } from '../core/text/documents/extract-document.ts';
import type { ExtractedFormat } from '../core/text/document-format.ts';
import type { Extraction, ExtractionLimits } from '../core/text/documents/extraction.ts';

export const extractApi = {
  /** `extractDocument(bytes, format, limits)`; the bytes are this worker's own (transferred in). */
  extract(bytes: Uint8Array, format: ExtractedFormat, limits: ExtractionLimits): Promise<Extraction> {
    return extractDocument(bytes, format, limits);
  },
};

export type ExtractApi = typeof extractApi;
