/**
 * New files' modification times are stored a slice per transaction (file-times.ts): a page reloaded
 * (here: the asking aborted) before the last slice keeps the times stored so far.
 */
import { describe, expect, it } from 'vitest';
import { TIMES_PER_TRANSACTION, saveFileTimes } from '../../../src/corpus/file-times.ts';
import type { ScanDocs } from '../../../src/scan/scan-result.ts';
import type { StorageIds } from '../../../src/core/ids.ts';
import { addBatch, loadCorpus, type NewDocument } from '../../../src/storage/corpus-repository.ts';
import { useFreshDatabase } from '../storage/storage-test-db.ts';

useFreshDatabase();

const T0 = 1_700_000_000_000;

describe('saveFileTimes', () => {
  it('keeps the slices stored before it is aborted', async () => {
    const n = 2 * TIMES_PER_TRANSACTION + 10;
    const stored: NewDocument[] = Array.from({ length: n }, (_, id) => ({
      id,
      path: `f/${id}.txt`,
      size: 1,
      lastModified: 0,
      contentHash: (id + 1).toString(16).padStart(16, '0'),
      status: 'ok',
      hi: id,
      lo: 0,
      words: 1,
      features: 0,
    }));
    await addBatch({ documents: stored });
    const reload = new AbortController();
    const stopAt = TIMES_PER_TRANSACTION + 100;
    const files = stored.map((d, i) => {
      const file = new File(['x'], `${d.id}.txt`, { lastModified: T0 + i });
      // The page goes away while the second slice is being asked.
      if (i === stopAt) Object.defineProperty(file, 'lastModified', { get: () => (reload.abort(), T0 + i) });
      return file;
    });
    const docs = { count: n, files } as unknown as ScanDocs;
    const ids = Uint32Array.from(stored, (d) => d.id) as StorageIds;
    await expect(saveFileTimes(docs, ids, new Set(), reload.signal)).rejects.toThrow();
    const times = (await loadCorpus()).modified!;
    expect(Array.from(times.subarray(0, TIMES_PER_TRANSACTION))).toEqual(Array.from({ length: TIMES_PER_TRANSACTION }, (_, i) => T0 + i));
    expect(Array.from(times.subarray(TIMES_PER_TRANSACTION)).every((t) => t === 0)).toBe(true);
  });
});
