/**
 * What SimSift knows about each document, as the app, the workers, storage and the CLI all read it:
 * its status code (one byte per document), its flags, why a file is not compared, and the messages
 * a person reads about it. Pure data; no I/O.
 */

import { DOCUMENT_FORMATS, type DocumentFormat } from '../text/document-format.ts';
import type { ExtractionSkip } from '../text/documents/extraction.ts';

/**
 * The largest file SimSift fingerprints. A document is always compared whole (a fingerprint of a
 * part would call two files that differ past the part identical), and memory grows faster than the
 * text past this size (README, "How it works"), so larger files are skipped with a message instead.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** Per-document outcome, stored in a `Uint8Array` (one byte per document). */
export const DocStatus = {
  /** Not processed (yet): the scan was cancelled or failed before this file's batch finished. */
  pending: 0,
  /** Fingerprinted; `hi`/`lo`, `words` and the content hash are meaningful. */
  ok: 1,
  /** Decoded, but too few words for a fingerprint. The content hash is still set. */
  tooShort: 2,
  /** The bytes do not look like text. */
  binary: 3,
  /** The browser could not read the file (moved, deleted, permission). */
  unreadable: 4,
  /** Zero bytes. */
  empty: 5,
  /**
   * Same normalized text as a file another batch fingerprints (it claimed the content hash first):
   * not fingerprinted again. The index worker gives it that file's status and fingerprint.
   */
  copy: 6,
  /** Larger than SimSift compares (MAX_DOCUMENT_BYTES): skipped, never fingerprinted in part. */
  tooLarge: 7,
  /**
   * Not a regular file (a FIFO, a device, a socket): never opened, since reading one can block forever
   * or never end; a browser shows such an entry of a chosen folder as a 0-byte file it cannot read.
   */
  notRegular: 8,
  // Documents whose text could not be extracted (core/text/documents). Codes from 16, clear of the
  // codes other changes add after 7.
  /** A password-protected (or DRM-encrypted) document. */
  encrypted: 16,
  /** A PDF, DOCX, ODT, EPUB or RTF file that its reader could not parse. */
  damaged: 17,
  /** A document with no text to extract: a PDF of scanned pages (no text layer), an empty document. */
  noText: 18,
  /** Stopped by an extraction limit: a zip bomb, XML or RTF nested too deep, too many pages, too slow. */
  overLimit: 19,
} as const;
export type DocStatusCode = (typeof DocStatus)[keyof typeof DocStatus];

/**
 * Each status's name: the one vocabulary derived from `DocStatus` that the skip reasons, the stored
 * skip reason and the Parquet `status` column all spell (a new code must be named here, or nothing compiles).
 */
export const DOC_STATUS_NAME = {
  [DocStatus.pending]: 'pending',
  [DocStatus.ok]: 'ok',
  [DocStatus.tooShort]: 'too-short',
  [DocStatus.binary]: 'binary',
  [DocStatus.unreadable]: 'unreadable',
  [DocStatus.empty]: 'empty',
  [DocStatus.copy]: 'copy',
  [DocStatus.tooLarge]: 'too-large',
  [DocStatus.notRegular]: 'not-regular',
  [DocStatus.encrypted]: 'encrypted',
  [DocStatus.damaged]: 'damaged',
  [DocStatus.noText]: 'no-text',
  [DocStatus.overLimit]: 'over-limit',
} as const satisfies Record<DocStatusCode, string>;
export type DocStatusName = (typeof DOC_STATUS_NAME)[DocStatusCode];

const CODE_OF_NAME = new Map<string, DocStatusCode>(Object.entries(DOC_STATUS_NAME).map(([code, name]) => [name, Number(code) as DocStatusCode]));

/** The status code of a name (e.g. a stored skip reason), or undefined for a name no status has. */
export function docStatusOfName(name: string): DocStatusCode | undefined {
  return CODE_OF_NAME.get(name);
}

/** Flag bits, one `Uint8Array` byte per document. (Bit 1 was 'truncated': no document is fingerprinted in part any more.) */
export const DocFlag = {
  /** HTML markup was stripped before fingerprinting. */
  html: 2,
  /** UTF-8 with invalid bytes, read as UTF-8 with U+FFFD for them (the batch's `notes` say how many). */
  invalidUtf8: 4,
  /**
   * Bits 3-5: the document's format, 1 + its index in DOCUMENT_FORMATS (core/text/document-format.ts):
   * 1 text, 2 HTML, 3 PDF, 4 DOCX, 5 ODT, 6 EPUB, 7 RTF; 0 when not recorded (a corpus restored from
   * storage, which does not keep it). Read with `formatOfFlags`.
   */
  formatShift: 3,
  formatMask: 0x38,
} as const;

/** The flag bits that record `format` (see DocFlag.formatShift). */
export function formatFlags(format: DocumentFormat): number {
  return (DOCUMENT_FORMATS.indexOf(format) + 1) << DocFlag.formatShift;
}

/** The format recorded in a document's flags, or null when none was recorded. */
export function formatOfFlags(flags: number): DocumentFormat | null {
  return DOCUMENT_FORMATS[((flags & DocFlag.formatMask) >> DocFlag.formatShift) - 1] ?? null;
}

/** The note for a UTF-8 file whose invalid bytes were replaced (how many, when known). */
export function invalidUtf8Message(bytes?: number): string {
  const what = bytes === undefined ? 'Invalid UTF-8 bytes' : `${bytes.toLocaleString('en')} invalid UTF-8 byte${bytes === 1 ? '' : 's'}`;
  return `${what} replaced with \uFFFD (U+FFFD); the rest was read as UTF-8.`;
}

/** Why a file is not part of the near-duplicate search. */
export type SkipReason = Exclude<DocStatusName, 'ok' | 'pending' | 'copy'> | 'hidden';

/** The status of a document skipped for an extraction reason. */
export const EXTRACTION_STATUS: Record<ExtractionSkip, DocStatusCode> = {
  encrypted: DocStatus.encrypted,
  damaged: DocStatus.damaged,
  'no-text': DocStatus.noText,
  'over-limit': DocStatus.overLimit,
};

/** The error names of a read refused for lack of permission: Node's codes and the browser's DOMException names. */
const PERMISSION_ERRORS = /\b(EACCES|EPERM|NotAllowedError|SecurityError)\b/;

/** The human message for each skip reason (shown in the Skipped panel). */
export function skipMessage(reason: SkipReason, detail?: string): string {
  switch (reason) {
    case 'binary': {
      const why = detail?.replace(/^binary file:\s*/i, '');
      return `Not text: the file looks binary${why ? ` (${why})` : ''}, like an image, archive or program, so it was not compared.`;
    }
    case 'too-short':
      return detail ?? 'Too short: the text has too few words for a meaningful fingerprint.';
    case 'too-large':
      return `Too large${detail ? ` (${detail})` : ''}: SimSift compares files up to ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MB whole and never a part of one, so it was not compared.`;
    case 'empty':
      // A browser shows a FIFO or a device in a chosen folder as a 0-byte file and never reads it: only a
      // reader that knows the file is regular (the CLI, detail 'regular') calls it an empty file.
      return detail === 'regular'
        ? 'Empty file: there is no text to compare.'
        : '0 bytes: an empty file, or a pipe or device (a browser shows those as 0-byte files and never reads them); there is no text to compare.';
    case 'unreadable':
      // A permission error is named as one: "moved, deleted or locked" would send a person looking for the wrong cause.
      if (detail !== undefined && PERMISSION_ERRORS.test(detail)) return `Permission denied (${detail}): SimSift is not allowed to read this file, so it was not compared.`;
      return `Could not be read${detail ? ` (${detail})` : ''}: it may have been moved, deleted or locked while scanning.`;
    case 'not-regular':
      return `Not a regular file${detail ? ` (${detail})` : ''}: a pipe, device or socket is never opened, so it was not compared.`;
    case 'hidden':
      return detail ?? 'Hidden: hidden files and folders (names starting with a dot, node_modules) are skipped.';
    case 'encrypted':
      return `Encrypted${detail ? ` (${detail})` : ''}: SimSift cannot read a password-protected document, so it was not compared.`;
    case 'damaged':
      return `Damaged document${detail ? ` (${detail})` : ''}: its text could not be read, so it was not compared.`;
    case 'no-text':
      return `No text${detail ? ` (${detail})` : ''}: there is no text to compare.`;
    case 'over-limit':
      return `Stopped at a safety limit${detail ? ` (${detail})` : ''}: the document was not compared.`;
  }
}

/** The too-large message with the file's size (the page and the workers skip such files; a reload says the same). */
export function tooLargeMessage(bytes: number): string {
  return skipMessage('too-large', `${(bytes / (1024 * 1024)).toFixed(1)} MB`);
}

/** The too-short message with the file's word count. */
export function tooShortMessage(words: number): string {
  return skipMessage('too-short', `Too short: ${words} word${words === 1 ? '' : 's'} is too few for a meaningful fingerprint.`);
}

