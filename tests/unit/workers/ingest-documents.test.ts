import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { ingestApi } from '../../../src/workers/ingest-api.ts';
import { DocStatus, formatOfFlags } from '../../../src/core/documents/document-status.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { loadDocumentText } from '../../../src/core/text/document-text.ts';
import { normalizeText } from '../../../src/core/text/normalize.ts';
import { hiOf, loOf } from '../../../src/core/simhash/fingerprint64.ts';

const DIR = join(import.meta.dirname, '../../fixtures/documents');
const NAMES = ['cc0.pdf', 'cc0.docx', 'cc0.odt', 'cc0.epub', 'cc0.rtf', 'cc0.txt', 'broken/cc0-scanned.pdf', 'broken/cc0-encrypted.pdf', 'broken/cc0-truncated.docx'];

describe('the ingest worker reads documents through the one rule', () => {
  it('fingerprints each format, records it in the flags, hashes the text the pair view shows, and skips the unreadable with reasons', async () => {
    const items = NAMES.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(DIR, name))) }));
    const r = await ingestApi.ingestBatch(items, DEFAULT_SETTINGS);
    expect(Array.from(r.flags.subarray(0, 6), formatOfFlags)).toEqual(['pdf', 'docx', 'odt', 'epub', 'rtf', 'text']);
    expect(Array.from(r.status.subarray(0, 6))).toEqual([1, 1, 1, 1, 1, 1].map(() => DocStatus.ok));
    expect(Array.from(r.status.subarray(6))).toEqual([DocStatus.noText, DocStatus.encrypted, DocStatus.damaged]);
    expect(r.skipped.map((s) => s.reason)).toEqual(['no-text', 'encrypted', 'damaged']);
    expect(r.skipped[0]!.message).toMatch(/^No text \(no text layer/);
    expect(formatOfFlags(r.flags[6]!)).toBe('pdf');
    // The content hash is XXH64 of the normalized text loadDocumentText gives (the string path).
    const xx = await xxhash();
    for (const i of [0, 1, 4]) {
      const doc = await loadDocumentText(new Uint8Array(readFileSync(join(DIR, NAMES[i]!))), NAMES[i]!);
      const h = xx.h64(normalizeText(doc.ok ? doc.text : ''));
      expect([r.hashHi[i], r.hashLo[i]]).toEqual([hiOf(h), loOf(h)]);
    }
  });
});
