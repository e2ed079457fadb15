/**
 * The one rule that turns a file's bytes into the text SimSift compares: decode (the encoding
 * sniffed by decode.ts), then strip markup when the file's name says HTML. The scan, the check
 * against the corpus, verification, the CLI and the pair view all read documents through it, so a
 * pair is measured the same way wherever it is shown.
 */
import { decodeText } from './decode.ts';
import { isHtmlName, stripHtml } from './html.ts';

/** The text of a document, or why it has none. */
export type DocumentText =
  | {
      ok: true;
      text: string;
      encoding: string;
      /** True when the name marks an HTML page and its markup was stripped. */
      html: boolean;
      /** Bytes of invalid UTF-8 replaced by U+FFFD (0 when none). */
      invalidBytes: number;
    }
  | { ok: false; reason: 'binary'; message: string };

/**
 * Decodes `bytes` (see `decodeText`) and, when `name` (a file name or path) is an HTML page's,
 * strips its markup (`stripHtml`), exactly as a scan does before fingerprinting.
 */
export function documentText(bytes: Uint8Array, name: string): DocumentText {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return decoded;
  const html = isHtmlName(name);
  return {
    ok: true,
    text: html ? stripHtml(decoded.text) : decoded.text,
    encoding: decoded.encoding,
    html,
    invalidBytes: decoded.invalidBytes ?? 0,
  };
}
