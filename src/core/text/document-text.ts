/**
 * The one rule that turns a file's bytes into the text SimSift compares: decode (the encoding
 * sniffed by decode.ts), then strip markup when the file's name says HTML. The scan, the check
 * against the corpus, verification and the pair view all read documents through it, so a pair is
 * measured the same way wherever it is shown.
 */
import { decodeText } from './decode.ts';
import { isHtmlName, stripHtml } from './html.ts';

/** A document's compared text, or why it has none (its bytes are not text). */
export type DocumentText = { ok: true; text: string; html: boolean; encoding: string } | { ok: false; message: string };

/** The compared text of the file `name` with these bytes. */
export function documentText(name: string, bytes: Uint8Array): DocumentText {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { ok: false, message: decoded.message };
  const html = isHtmlName(name);
  return { ok: true, text: html ? stripHtml(decoded.text) : decoded.text, html, encoding: decoded.encoding };
}
