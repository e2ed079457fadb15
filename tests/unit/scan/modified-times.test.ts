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
    expect([...loaded.lastModified!]).toEqual([1_700_000_000_123, 1_600_000_000_000.5, 0]);
    const restored = docsFromCorpus(loaded, [new Blob(), new Blob(), new Blob()]);
    expect([...restored.modified!]).toEqual([1_700_000_000_123, 1_600_000_000_000.5, 0]);
  });

  it('are 0 (not recorded) for docs built without them', () => {
    const { modified: _, ...docs } = scanDocs([5]);
    expect(storedDocumentOf(docs, 0, 0)!.lastModified).toBe(0);
  });
});

describe('modification times of files the page read', () => {
  it('come back from the ingest worker for files whose bytes the page read (the File travels along, for its time only)', async () => {
    const { feedFiles } = await import('../../../src/scan/batch-feeder.ts');
    const { ingestApi } = await import('../../../src/workers/ingest-api.ts');
    const { DEFAULT_SETTINGS } = await import('../../../src/core/simhash/settings.ts');
    const files = [new File(['one two three four'], 'a.txt', { lastModified: 1_650_000_000_000 }), new File(['five six seven'], 'b.txt', { lastModified: 1_660_000_000_000 })];
    const modified: number[] = [];
    await feedFiles(
      files,
      ['d/a.txt', 'd/b.txt'],
      {
        send: async ({ items }) => {
          const r = await ingestApi.ingestBatch(items, DEFAULT_SETTINGS);
          modified.push(...r.modified!);
        },
        unreadable: () => undefined,
        tooLarge: () => undefined,
      },
      { readLimit: 1 << 20, maxInFlight: 2, signal: new AbortController().signal, batchBytes: 1 << 20, batchFiles: 16, readConcurrency: 2 },
      () => undefined,
    );
    expect(modified).toEqual([1_650_000_000_000, 1_660_000_000_000]);
  });
});
