import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_CAPACITY, addBatch, clearCorpus, compactChunks, getCorpusSummary, loadCorpus } from '../../../src/storage/corpus-repository.ts';
import { findDocumentsByContentHash, findStoredPaths, getContent, getDocuments, listDocuments } from '../../../src/storage/corpus-reads.ts';
import type { NewDocument } from '../../../src/storage/corpus-repository.ts';
import { removeDocuments } from '../../../src/storage/corpus-repository.ts';
import { getCorpusDb } from '../../../src/storage/database.ts';
import {
  DOC_FLAG_EXACT_DUPLICATE,
  DOC_FLAG_HAS_CONTENT_HASH,
  DOC_FLAG_SKIPPED,
  DOC_FLAG_TOO_SHORT,
} from '../../../src/storage/corpus-columns.ts';
import { beginScanSession, endScanSession, findUnfinishedScan } from '../../../src/storage/scan-sessions.ts';
import { putSettings } from '../../../src/storage/settings-repository.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { StorageError } from '../../../src/storage/storage-error.ts';
import { useFreshDatabase } from './storage-test-db.ts';
import type { ContentBatch } from '../../../src/storage/content-batches.ts';

useFreshDatabase();
afterEach(() => {
  vi.restoreAllMocks();
});

function doc(id: number, overrides: Partial<NewDocument> = {}): NewDocument {
  return {
    id,
    path: `dir/file-${id}.txt`,
    size: 100 + id,
    lastModified: 1_700_000_000_000 + id,
    contentHash: id.toString(16).padStart(16, '0'),
    status: 'ok',
    hi: (id * 2654435761) >>> 0,
    lo: (id * 40503 + 7) >>> 0,
    words: 50,
    features: 48,
    ...overrides,
  };
}

function docs(from: number, count: number): NewDocument[] {
  return Array.from({ length: count }, (_, i) => doc(from + i));
}

/** One batch's contents as a scan keeps them: the texts of `ids` in one Blob, each with its range. */
function kept(entries: Array<[number, string]>): ContentBatch {
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const [, text] of entries) {
    starts.push(at);
    at += new TextEncoder().encode(text).length;
    ends.push(at);
  }
  return { ids: Uint32Array.from(entries, ([id]) => id), starts: Uint32Array.from(starts), ends: Uint32Array.from(ends), blob: new Blob(entries.map(([, text]) => text)) };
}

describe('addBatch and loadCorpus', () => {
  it('round-trips documents, flags, paths and fingerprints', async () => {
    const batch = [
      doc(0),
      doc(1, { status: 'too-short', words: 2 }),
      doc(2, { status: 'skipped', skipReason: 'binary', skipMessage: 'Looks like a binary file.', contentHash: null }),
      doc(3, { duplicateOf: 0, contentHash: doc(0).contentHash, path: 'dir/😀 "odd"\nname,=1.txt' }),
    ];
    const summary = await addBatch({ documents: batch });
    expect(summary).toEqual({ documentCount: 4, nextId: 4, revision: 1 });

    const corpus = await loadCorpus();
    expect(corpus.count).toBe(4);
    expect([...corpus.ids]).toEqual([0, 1, 2, 3]);
    expect([...corpus.hi]).toEqual([doc(0).hi, 0, 0, doc(3).hi]);
    expect([...corpus.lo]).toEqual([doc(0).lo, 0, 0, doc(3).lo]);
    const H = DOC_FLAG_HAS_CONTENT_HASH;
    expect([...corpus.storedFlags]).toEqual([H, DOC_FLAG_TOO_SHORT | H, DOC_FLAG_SKIPPED, DOC_FLAG_EXACT_DUPLICATE | H]);
    expect(corpus.paths).toEqual(batch.map((d) => d.path));
    expect([corpus.hashHi[3], corpus.hashLo[3]]).toEqual([0, 0]);
    expect(corpus.hashLo[1]).toBe(1);

    // Every field comes back as given (hi/lo are 0 for documents without a fingerprint).
    const stored = await getDocuments([3, 0, 1, 2, 77]);
    expect(stored).toEqual([batch[3], batch[0], { ...batch[1], hi: 0, lo: 0 }, { ...batch[2], hi: 0, lo: 0 }, undefined]);
    expect((await findDocumentsByContentHash(doc(0).contentHash!)).map((d) => d.id)).toEqual([0, 3]);
  });

  it('fills chunks across many batches and restores them in id order', async () => {
    // 3 batches crossing the chunk capacity, ids with a gap between batches.
    await addBatch({ documents: docs(0, CHUNK_CAPACITY - 10) });
    await addBatch({ documents: docs(CHUNK_CAPACITY, 30) });
    await addBatch({ documents: docs(CHUNK_CAPACITY + 100, CHUNK_CAPACITY + 5) });
    const db = await getCorpusDb();
    // Append-only: every batch writes its own chunks (a big one cut at the capacity), none is rewritten.
    expect((await db.getAll('corpus-chunks')).map((c) => c.count)).toEqual([CHUNK_CAPACITY - 10, 30, CHUNK_CAPACITY, 5]);
    // Small chunks are joined only where they are neighbours (a full chunk stands between these two).
    expect(await compactChunks()).toBe(0);
    const corpus = await loadCorpus();
    const expected = [...docs(0, CHUNK_CAPACITY - 10), ...docs(CHUNK_CAPACITY, 30), ...docs(CHUNK_CAPACITY + 100, CHUNK_CAPACITY + 5)];
    expect(corpus.count).toBe(expected.length);
    expect(corpus.nextId).toBe(2 * CHUNK_CAPACITY + 105);
    expect([...corpus.ids]).toEqual(expected.map((d) => d.id));
    expect([...corpus.hi]).toEqual(expected.map((d) => d.hi));
    expect([...corpus.lo]).toEqual(expected.map((d) => d.lo));
    expect(corpus.paths).toEqual(expected.map((d) => d.path));
  });

  it('joins a scan\'s small batch chunks into one, from the given id on, without changing a document', async () => {
    await addBatch({ documents: docs(0, 5) });
    await addBatch({ documents: docs(5, 3) });
    // The scan starts at id 8: the chunks before it stay as they are.
    for (let id = 8; id < 8 + 40 * 7; id += 7) await addBatch({ documents: docs(id, 7) });
    const before = await loadCorpus();
    const db = await getCorpusDb();
    expect(await db.count('corpus-chunks')).toBe(42);
    expect(await compactChunks(8)).toBe(39);
    expect((await db.getAll('corpus-chunks')).map((c) => [c.chunk, c.count])).toEqual([[0, 5], [5, 3], [8, 280]]);
    expect(await loadCorpus()).toEqual(before);
    expect(await getDocuments([8, 100, 287])).toEqual([doc(8), doc(100), doc(287)]);
    // A new batch after the join appends its own chunk; the joined one is not rewritten.
    await addBatch({ documents: docs(288, 2) });
    expect((await db.getAll('corpus-chunks')).map((c) => c.count)).toEqual([5, 3, 280, 2]);
    expect(await compactChunks()).toBe(3);
    expect((await db.getAll('corpus-chunks')).map((c) => c.count)).toEqual([290]);
    expect((await loadCorpus()).ids).toEqual(Uint32Array.from({ length: 290 }, (_, i) => i));
  });

  it('rejects ids already used and bad input without storing anything', async () => {
    await addBatch({ documents: docs(0, 3) });
    await expect(addBatch({ documents: docs(2, 2) })).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(addBatch({ documents: [doc(5), doc(4)] })).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(addBatch({ documents: [doc(5, { path: 'a\0b' })] })).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(addBatch({ documents: [doc(5, { contentHash: 'XYZ' })] })).rejects.toMatchObject({ kind: 'invalid-input' });
    expect((await loadCorpus()).count).toBe(3);
    expect(await getCorpusSummary()).toEqual({ documentCount: 3, nextId: 3, revision: 1 });
  });

  it('keeps a batch\'s contents as one record and finds each document\'s bytes, unless the setting turns them off', async () => {
    await addBatch({ documents: docs(0, 3), contents: kept([[0, 'hello there'], [1, ''], [2, 'général']]) });
    await addBatch({ documents: docs(3, 2), contents: kept([[4, 'later']]) });
    const db = await getCorpusDb();
    expect(await db.count('content-batches')).toBe(2);
    expect(await (await getContent(0))!.text()).toBe('hello there');
    expect(await (await getContent(2))!.text()).toBe('général');
    expect((await getContent(1))!.size).toBe(0);
    expect(await getContent(3)).toBeNull();
    expect(await (await getContent(4))!.text()).toBe('later');

    await putSettings({ fingerprint: DEFAULT_SETTINGS, k: 3, keepContents: false });
    expect(await getContent(0)).toBeNull();
    await addBatch({ documents: docs(5, 1), contents: kept([[5, 'x']]) });
    expect(await getContent(5)).toBeNull();
  });

  it('removing documents keeps every other document\'s bytes, slicing each run of kept neighbours once', async () => {
    const texts: Array<[number, string]> = [[0, 'zero'], [1, ''], [2, 'two'], [3, 'three'], [4, 'four'], [5, 'five'], [6, 'six']];
    await addBatch({ documents: docs(0, 7), contents: kept(texts) });
    const slice = vi.spyOn(Blob.prototype, 'slice');
    await removeDocuments([3, 6]);
    // Two runs kept ([0, 1, 2] and [4, 5]): two slices, not one per document.
    expect(slice).toHaveBeenCalledTimes(2);
    slice.mockRestore();
    for (const [id, text] of texts) {
      const content = await getContent(id);
      if (id === 3 || id === 6) expect(content).toBeNull();
      else expect(await content!.text()).toBe(text);
    }
    await removeDocuments([0]);
    expect(await getContent(0)).toBeNull();
    expect(await (await getContent(2))!.text()).toBe('two');
    expect(await (await getContent(5))!.text()).toBe('five');
  });

  it('refuses contents whose ids do not ascend, lie outside the batch or whose ranges overrun the blob', async () => {
    await expect(addBatch({ documents: docs(0, 2), contents: kept([[1, 'a'], [0, 'b']]) })).rejects.toMatchObject({ kind: 'invalid-input' });
    await expect(addBatch({ documents: docs(0, 2), contents: kept([[0, 'a'], [7, 'b']]) })).rejects.toMatchObject({ kind: 'invalid-input' });
    const over = { ...kept([[0, 'ab']]), ends: Uint32Array.of(3) };
    await expect(addBatch({ documents: docs(0, 1), contents: over })).rejects.toMatchObject({ kind: 'invalid-input' });
    expect(await getCorpusSummary()).toEqual({ documentCount: 0, nextId: 0, revision: 0 });
  });

  it('leaves the previous state intact when a batch fails mid-way (value cannot be stored)', async () => {
    await addBatch({ documents: docs(0, 5), contents: kept([[0, 'a']]) });
    const before = await loadCorpus();
    // The contents' Blob is not cloneable: the put throws after the documents and chunks were queued.
    const poisoned = { ...kept([[5, 'x'], [6, 'y']]), blob: Object.assign(() => 1, { size: 2 }) as unknown as Blob };
    const error = await addBatch({ documents: docs(5, 5), contents: poisoned }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).kind).toBe('invalid-input');
    const after = await loadCorpus();
    expect(after).toEqual(before);
    expect(await getDocuments([5, 6])).toEqual([undefined, undefined]);
    expect(await getContent(5)).toBeNull();
    // The corpus still accepts the batch once it is valid.
    await addBatch({ documents: docs(5, 5) });
    expect((await loadCorpus()).count).toBe(10);
  });

  it('turns a quota failure into a typed error and keeps what was committed', async () => {
    await addBatch({ documents: docs(0, 4) });
    const before = await loadCorpus();
    // Fail the way some engines report a full disk: the last write of the batch (the counters) throws
    // QuotaExceededError after the contents and chunk writes were queued.
    const proto = IDBObjectStore.prototype;
    const realPut = proto.put;
    vi.spyOn(proto, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'meta') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return realPut.call(this, value, key);
    });
    const error = await addBatch({ documents: docs(4, 3), contents: kept([[4, 'z']]) }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'StorageError', kind: 'quota' });
    expect((error as StorageError).userMessage).toMatch(/no more storage space/);
    vi.restoreAllMocks();
    expect(await loadCorpus()).toEqual(before);
    expect(await listDocuments()).toHaveLength(4);
    expect(await getContent(4)).toBeNull();
  });

  it('reports damaged chunk records as corrupt', async () => {
    await addBatch({ documents: docs(0, 3) });
    const db = await getCorpusDb();
    const chunk = (await db.get('corpus-chunks', 0))!;
    await db.put('corpus-chunks', { ...chunk, fingerprints: new ArrayBuffer(5) });
    await expect(loadCorpus()).rejects.toMatchObject({ kind: 'corrupt' });
  });

  it('reports damaged detail columns as corrupt when details are read', async () => {
    await addBatch({ documents: docs(0, 3) });
    const db = await getCorpusDb();
    const chunk = (await db.get('corpus-chunks', 0))!;
    await db.put('corpus-chunks', { ...chunk, skips: '{not json' });
    await expect(getDocuments([1])).rejects.toMatchObject({ kind: 'corrupt' });
    await expect(listDocuments()).rejects.toMatchObject({ kind: 'corrupt' });
    await db.put('corpus-chunks', { ...chunk, sizes: new ArrayBuffer(8) });
    await expect(loadCorpus()).rejects.toMatchObject({ kind: 'corrupt' });
  });
});

describe('listing, lookups, removal and clearing', () => {
  it('pages through documents and finds stored paths', async () => {
    await addBatch({ documents: docs(0, 10) });
    const page1 = await listDocuments({ limit: 4 });
    const page2 = await listDocuments({ afterId: page1.at(-1)!.id, limit: 4 });
    expect(page1.map((d) => d.id)).toEqual([0, 1, 2, 3]);
    expect(page2.map((d) => d.id)).toEqual([4, 5, 6, 7]);
    expect(await findStoredPaths(['dir/file-3.txt', 'dir/file-99.txt'])).toEqual(new Set(['dir/file-3.txt']));
  });

  it('removes documents from records, chunks and contents in one step', async () => {
    await addBatch({ documents: docs(0, CHUNK_CAPACITY + 3), contents: kept([[0, 'first'], [1, 'c'], [2, 'third']]) });
    const result = await removeDocuments([1, CHUNK_CAPACITY + 1, 999_999_999]);
    expect(result).toMatchObject({ removed: 2, documentCount: CHUNK_CAPACITY + 1, revision: 2 });
    const corpus = await loadCorpus();
    expect(corpus.count).toBe(CHUNK_CAPACITY + 1);
    expect(corpus.ids.includes(1)).toBe(false);
    expect(corpus.ids.includes(CHUNK_CAPACITY + 1)).toBe(false);
    expect(corpus.paths[1]).toBe('dir/file-2.txt');
    expect(corpus.hi[1]).toBe(doc(2).hi);
    expect(await getContent(1)).toBeNull();
    // The batch's record is written again without it; its neighbours keep their bytes.
    expect(await (await getContent(0))!.text()).toBe('first');
    expect(await (await getContent(2))!.text()).toBe('third');
    await removeDocuments([0, 2]);
    expect(await (await getCorpusDb()).count('content-batches')).toBe(0);
    // New ids continue after the highest id ever used.
    await expect(addBatch({ documents: [doc(1)] })).rejects.toMatchObject({ kind: 'invalid-input' });
    await addBatch({ documents: [doc(CHUNK_CAPACITY + 3)] });
    expect((await loadCorpus()).count).toBe(CHUNK_CAPACITY); // + 3 - 1 - 2 removed + 1
  });

  it('pages across chunk boundaries', async () => {
    await addBatch({ documents: docs(0, CHUNK_CAPACITY + 5) });
    const page = await listDocuments({ afterId: CHUNK_CAPACITY - 3, limit: 5 });
    expect(page.map((d) => d.id)).toEqual([CHUNK_CAPACITY - 2, CHUNK_CAPACITY - 1, CHUNK_CAPACITY, CHUNK_CAPACITY + 1, CHUNK_CAPACITY + 2]);
    expect(page[2]).toEqual(doc(CHUNK_CAPACITY));
  });

  it('stores nothing of a batch whose table entries cannot be merged', async () => {
    await addBatch({ documents: docs(0, 2) });
    const entries = [{ table: 0, hi: Uint32Array.of(1, 2), lo: null, ids: Uint32Array.of(2, 3) }];
    // No table set was written, so the merge step fails inside the batch's transaction.
    await expect(addBatch({ documents: docs(2, 2), tableEntries: entries })).rejects.toMatchObject({
      kind: 'invalid-input',
    });
    expect(await getCorpusSummary()).toEqual({ documentCount: 2, nextId: 2, revision: 1 });
    expect((await loadCorpus()).count).toBe(2);
  });

  it('removes a whole chunk when all its documents go', async () => {
    await addBatch({ documents: docs(0, 3) });
    await removeDocuments([0, 1, 2]);
    const db = await getCorpusDb();
    expect(await db.count('corpus-chunks')).toBe(0);
    expect((await loadCorpus()).count).toBe(0);
  });

  it('clears the corpus but keeps the settings', async () => {
    await putSettings({ fingerprint: DEFAULT_SETTINGS, k: 3, keepContents: true });
    await addBatch({ documents: docs(0, 5), contents: kept([[2, 'q']]) });
    const summary = await clearCorpus();
    expect(summary).toEqual({ documentCount: 0, nextId: 0, revision: 2 });
    expect((await loadCorpus()).count).toBe(0);
    expect(await getContent(2)).toBeNull();
    const db = await getCorpusDb();
    expect(await db.count('settings')).toBe(1);
    await addBatch({ documents: docs(0, 2) });
    expect((await loadCorpus()).count).toBe(2);
  });
});

describe('scan sessions', () => {
  it('counts committed documents per batch and finds an interrupted scan', async () => {
    const id = await beginScanSession({ label: 'folder "notes"', total: 7 });
    await addBatch({ documents: docs(0, 3), sessionId: id });
    await addBatch({ documents: docs(3, 2), sessionId: id });
    // The tab "dies" here: the session is still running.
    const unfinished = await findUnfinishedScan();
    expect(unfinished).toMatchObject({ id, state: 'running', committed: 5, total: 7, label: 'folder "notes"' });
    expect(await findStoredPaths(docs(0, 7).map((d) => d.path))).toEqual(new Set(docs(0, 5).map((d) => d.path)));
    const ended = await endScanSession(id, 'finished');
    expect(ended.state).toBe('finished');
    expect(ended.finishedAt).not.toBeNull();
    expect(await findUnfinishedScan()).toBeNull();
  });

  it('does not advance the session when the batch fails', async () => {
    const id = await beginScanSession({ label: 'x', total: 4 });
    await addBatch({ documents: docs(0, 2), sessionId: id });
    await expect(addBatch({ documents: docs(0, 2), sessionId: id })).rejects.toBeInstanceOf(StorageError);
    expect((await findUnfinishedScan())!.committed).toBe(2);
  });
});
