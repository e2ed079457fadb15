/**
 * What extracting a document's text gives, the limits that stop a malicious document (inflated
 * bytes, XML depth, pages, time), and the error an extractor throws to skip a document with a reason.
 * Shared by the extractors (loaded lazily) and their dispatcher; holds no library code.
 */

/** Why a document's text could not be extracted (each is a skip reason of document-status.ts). */
export type ExtractionSkip = 'encrypted' | 'damaged' | 'no-text' | 'over-limit';

/** A document's extracted text, or why it has none. */
export type Extraction = { ok: true; text: string; pages?: number } | { ok: false; reason: ExtractionSkip; message: string };

/** The limits of one document's extraction. */
export interface ExtractionLimits {
  /**
   * Bytes inflated from one document, all together: a zip's entries, a PDF's Flate streams, an EPUB's
   * spine (each chapter counted every time the spine names it). A zip bomb or a PDF bomb stops here.
   */
  maxInflatedBytes: number;
  /** Entries in a zip's directory. */
  maxZipEntries: number;
  /** Nesting depth of XML elements. */
  maxXmlDepth: number;
  /** Nesting depth of RTF groups. */
  maxRtfDepth: number;
  /** Pages of a PDF. */
  maxPages: number;
  /** Wall-clock time for one document, in milliseconds (checked between steps: pages, parts). */
  maxMillis: number;
}

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  maxInflatedBytes: 128 * 1024 * 1024,
  maxZipEntries: 20_000,
  maxXmlDepth: 512,
  maxRtfDepth: 512,
  maxPages: 10_000,
  maxMillis: 60_000,
};

/** Thrown inside an extractor to skip the document with `reason`. */
export class ExtractionError extends Error {
  constructor(
    readonly reason: ExtractionSkip,
    message: string,
  ) {
    super(message);
  }
}

/** The inflation budget of one document (limits.maxInflatedBytes): every byte decoded is counted, and the count throws 'over-limit' once past it. */
export function createInflationBudget(limits: ExtractionLimits, container: 'zip' | 'PDF'): { count(bytes: number): void } {
  let inflated = 0;
  return {
    count(bytes) {
      inflated += bytes;
      if (inflated > limits.maxInflatedBytes) {
        throw new ExtractionError('over-limit', `inflates to more than ${Math.round(limits.maxInflatedBytes / (1024 * 1024))} MB (a ${container} bomb?)`);
      }
    },
  };
}

/** A deadline checked between steps of an extraction; throws 'over-limit' once passed. */
export function createDeadline(limits: ExtractionLimits): { check(): void; remaining(): number } {
  const end = Date.now() + limits.maxMillis;
  return {
    check() {
      if (Date.now() > end) throw new ExtractionError('over-limit', `extraction took longer than ${limits.maxMillis / 1000} s`);
    },
    remaining: () => end - Date.now(),
  };
}

/**
 * The extracted text as SimSift compares it: control characters other than tab and line feed
 * become spaces (a form feed between PDF pages, a stray NUL), CR LF and CR become LF, and byte order
 * marks are dropped, so the text's UTF-8 decodes back to the same text (decode.ts would strip a
 * leading BOM and call NULs binary).
 */
export function cleanExtractedText(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .replace(/\uFEFF/g, '')
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
    .split('\n');
  // Blanks before a line end go, trimmed line by line: /[ \t]+\n/ retried every start of a long run of
  // spaces that no line end follows (quadratic: 300,000 spaces from a 463-byte ODT took 35 s).
  for (let i = 0; i < lines.length; i++) lines[i] = trimEndBlanks(lines[i]!);
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** `line` without the spaces and tabs that end it. */
function trimEndBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}
