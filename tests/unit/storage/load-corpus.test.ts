import { describe, expect, it } from 'vitest';
import { CHUNK_CAPACITY, addBatch, loadCorpus } from '../../../src/storage/corpus-repository.ts';
import type { NewDocument } from '../../../src/storage/corpus-repository.ts';
import { getCorpusDb } from '../../../src/storage/database.ts';
import { useFreshDatabase } from './storage-test-db.ts';

useFreshDatabase();

function doc(id: number): NewDocument {
  const skipped = id % 5 === 3;
  return {
    id,
    path: `d/${id}.txt`,
    size: 1000 + id,
    lastModified: 1_700_000_000_000,
    contentHash: skipped ? null : (id + 1).toString(16).padStart(16, '0'),
    status: skipped ? 'skipped' : 'ok',
    hi: id,
    lo: id * 3,
    words: 10 + id,
    features: 0,
    ...(skipped ? { skipReason: id % 2 ? 'copy' : 'binary', skipMessage: 'm' } : {}),
  };
}

describe('loadCorpus columns for the app', () => {
  it('returns sizes, words and skip reasons by position across chunks, pausing after each chunk', async () => {
    const n = CHUNK_CAPACITY + 10;
    const all = Array.from({ length: n }, (_, i) => doc(i));
    await addBatch({ documents: all.slice(0, CHUNK_CAPACITY - 5) });
    await addBatch({ documents: all.slice(CHUNK_CAPACITY - 5) });
    let pauses = 0;
    const loaded = await loadCorpus({
      pause: async () => {
        pauses++;
      },
    });
    expect(pauses).toBe(2);
    expect(loaded.count).toBe(n);
    for (const p of [0, 3, 8, CHUNK_CAPACITY - 2, CHUNK_CAPACITY + 3, n - 1]) {
      expect(loaded.sizes[p]).toBe(1000 + p);
      expect(loaded.words[p]).toBe(10 + p);
      expect(loaded.skipReasons.get(p)).toBe(all[p]!.skipReason);
    }
    expect(loaded.skipReasons.size).toBe(all.filter((d) => d.status === 'skipped').length);
  });

  it('reports damaged skip notes as corrupt instead of throwing a SyntaxError', async () => {
    await addBatch({ documents: [doc(3)] });
    const db = await getCorpusDb();
    const chunk = (await db.get('corpus-chunks', 3))!;
    await db.put('corpus-chunks', { ...chunk, skips: '[[3, "binary"' });
    await expect(loadCorpus()).rejects.toMatchObject({ name: 'StorageError', kind: 'corrupt' });
  });
});
