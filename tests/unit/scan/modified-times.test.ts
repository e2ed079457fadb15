// The files' modification times travel from ingest to the saved corpus and back (#22: newest/oldest keep rules).
import { describe, expect, it } from 'vitest';
import { addBatch, loadCorpus } from '../../../src/storage/corpus-repository.ts';
import { docsFromCorpus, storedDocumentOf } from '../../../src/corpus/stored-documents.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';
import type { ScanDocs } from '../../../src/scan/scan-result.ts';
import { useFreshDatabase } from '../storage/storage-test-db.ts';

useFreshDatabase();

function scanDocs(modified: number[]): ScanDocs {
  const n = modified.length;
  return {
    count: n,
    paths: modified.map((_, i) => `dir/f${i}.txt`),
    files: modified.map(() => new Blob(['x'])),
    sizes: new Float64Array(n).fill(1),
    modified: Float64Array.from(modified),
    status: new Uint8Array(n).fill(DocStatus.ok),
    flags: new Uint8Array(n),
    hi: new Uint32Array(n),
    lo: new Uint32Array(n),
    words: new Uint32Array(n).fill(60),
    hashHi: new Uint32Array(n).fill(1),
    hashLo: Uint32Array.from(modified, (_, i) => i + 1),
  };
}

describe('modification times', () => {
  it('are stored with each document and come back in the restored docs', async () => {
    const docs = scanDocs([1_700_000_000_123, 1_600_000_000_000.5, 0]);
    const stored = [0, 1, 2].map((d) => storedDocumentOf(docs, d, d)!);
    expect(stored.map((s) => s.lastModified)).toEqual([1_700_000_000_123, 1_600_000_000_000.5, 0]);
    await addBatch({ documents: stored });
    const loaded = await loadCorpus();
    expect([...loaded.modified!]).toEqual([1_700_000_000_123, 1_600_000_000_000.5, 0]);
    const restored = docsFromCorpus(loaded, [new Blob(), new Blob(), new Blob()]);
    expect([...restored.modified!]).toEqual([1_700_000_000_123, 1_600_000_000_000.5, 0]);
  });

  it('are 0 (not recorded) for docs built without them', () => {
    const { modified: _, ...docs } = scanDocs([5]);
    expect(storedDocumentOf(docs, 0, 0)!.lastModified).toBe(0);
  });
});
