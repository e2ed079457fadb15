/**
 * Reading one file into the text SimSift compares, for the benches' ground truth (bench/quality,
 * bench/real-text): core loadDocumentText behind a size check. Apart from cli-common.ts, so a command
 * that reads no documents (`pairs`) does not load the decoders and extractors.
 */
import { readFile, stat } from 'node:fs/promises';
import { MAX_DOCUMENT_BYTES } from '../core/documents/document-status.ts';
import { loadDocumentText } from '../core/text/document-text.ts';
import { errorCode } from './cli-common.ts';

/** A file's compared text (core loadDocumentText: documents extracted, text decoded, markup stripped from HTML), or why it has none. */
export type LoadedText = { ok: true; text: string; bytes: number } | { ok: false; kind: 'binary' | 'document' | 'too-large' | 'unreadable'; message: string; bytes: number };

/** Reads one file into its compared text; never throws. */
export async function loadText(path: string): Promise<LoadedText> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, kind: 'unreadable', message: 'not a regular file', bytes: 0 };
    if (info.size > MAX_DOCUMENT_BYTES) {
      return { ok: false, kind: 'too-large', message: `too large (${info.size} bytes; SimSift compares files up to ${MAX_DOCUMENT_BYTES} bytes whole)`, bytes: info.size };
    }
    const bytes = await readFile(path);
    const doc = await loadDocumentText(bytes, path);
    if (!doc.ok) return { ok: false, kind: doc.reason === 'binary' ? 'binary' : 'document', message: doc.message, bytes: bytes.length };
    return { ok: true, text: doc.text, bytes: bytes.length };
  } catch (error) {
    return { ok: false, kind: 'unreadable', message: `unreadable (${errorCode(error)})`, bytes: 0 };
  }
}
