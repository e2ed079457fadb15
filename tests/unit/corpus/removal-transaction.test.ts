/**
 * Removing a document is one IndexedDB transaction: the documents, their contents, the class's new head
 * (an exact copy written anew with the class's fingerprint) and that head's entries in the stored
 * tables go together or not at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { removeFromCorpus, type ShownCorpus } from '../../../src/corpus/corpus-removal.ts';
import { storedDocumentOf } from '../../../src/corpus/stored-documents.ts';
import { buildIndex } from '../../../src/core/index/permuted-index.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';
import type { DocId, StorageIds } from '../../../src/core/ids.ts';
import { addBatch, getCorpusSummary } from '../../../src/storage/corpus-repository.ts';
import { getDocuments } from '../../../src/storage/corpus-reads.ts';
import { queryStoredTables, writePermutedIndex } from '../../../src/storage/index-shards.ts';
import { readTableLayout } from '../../../src/storage/permuted-shards.ts';
import { useFreshDatabase } from '../storage/storage-test-db.ts';

useFreshDatabase();

const K = 3;
const BLOCKS = 4;

/** a.txt and its exact copy b.txt (resolved, as shown: the copy carries the status and fingerprint), and c.txt; ids 0, 1, 2. */
function shown(): ShownCorpus {
  const paths = ['c/a.txt', 'c/b.txt', 'c/c.txt'];
  return {
    docs: {
      count: 3,
      paths,
      files: paths.map((p) => new File([], p)),
      sizes: Float64Array.of(10, 10, 12),
      status: Uint8Array.of(DocStatus.ok, DocStatus.ok, DocStatus.ok),
      flags: new Uint8Array(3),
      hi: Uint32Array.of(0x7000_0007, 0x7000_0007, 0x1234_5678),
      lo: Uint32Array.of(0x0800_0008, 0x0800_0008, 0x0abc_def0),
      words: Uint32Array.of(60, 60, 70),
      hashHi: Uint32Array.of(1, 1, 2),
      hashLo: Uint32Array.of(5, 5, 6),
    },
    storageIds: Uint32Array.of(0, 1, 2) as StorageIds,
  };
}

/** The corpus (b.txt stored as a copy, as a scan stores it) and tables over its two class heads. */
async function store(s: ShownCorpus) {
  const asStored = { ...s.docs, status: Uint8Array.of(DocStatus.ok, DocStatus.copy, DocStatus.ok) };
  await addBatch({ documents: [0, 1, 2].map((d) => storedDocumentOf(asStored, d, d)!) });
  const heads = [0, 2];
  const index = buildIndex(Uint32Array.from(heads, (d) => s.docs.hi[d]!), Uint32Array.from(heads, (d) => s.docs.lo[d]!), K, { blocks: BLOCKS });
  await writePermutedIndex(index, { ids: Uint32Array.from(heads) });
  return { k: K, blocks: BLOCKS, tableCount: index.tables.length };
}

/** The stored documents the tables find at the class's fingerprint. */
async function foundAtClass(s: ShownCorpus): Promise<number[]> {
  const corpus = { ids: Uint32Array.of(0, 1, 2), hi: s.docs.hi, lo: s.docs.lo };
  const found = await queryStoredTables({ k: K, blocks: BLOCKS }, s.docs.hi[0]!, s.docs.lo[0]!, { k: 0, corpus });
  return [...found.ids].sort();
}

const realPut = IDBObjectStore.prototype.put;
afterEach(() => {
  IDBObjectStore.prototype.put = realPut;
});

describe('removing a document', () => {
  it('writes the new head of its class with its table entries in the removal itself (nothing left for a later write)', async () => {
    const s = shown();
    const tables = await store(s);
    expect(await foundAtClass(s)).toEqual([0]);
    const outcome = await removeFromCorpus(s, [0 as DocId], undefined, tables);
    // A failure (or a closed tab) right after the removal: the copy is a class head in storage, and the tables find it.
    expect((await getDocuments([1]))[0]).toMatchObject({ status: 'ok', hi: s.docs.hi[0], lo: s.docs.lo[0] });
    expect(await foundAtClass(s)).toEqual([1]);
    expect(outcome).toMatchObject({ removed: 1, rewritten: 1, tables: 'kept', documentCount: 2 });
  });

  it('leaves nothing written when a failure is injected in the middle of its transaction', async () => {
    const s = shown();
    const tables = await store(s);
    const before = await getCorpusSummary();
    // The documents' chunk and tombstones are already issued when the shards' write throws.
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'shards') throw new DOMException('injected', 'QuotaExceededError');
      return realPut.apply(this, args);
    };
    await expect(removeFromCorpus(s, [0 as DocId], undefined, tables)).rejects.toThrow();
    IDBObjectStore.prototype.put = realPut;
    expect(await getCorpusSummary()).toEqual(before);
    expect((await getDocuments([0, 1])).map((d) => d?.status)).toEqual(['ok', 'skipped']);
    expect((await readTableLayout())?.tombstoneCount).toBe(0);
    expect(await foundAtClass(s)).toEqual([0]);
  });

  it('drops tables of another layout in the same transaction rather than leave them without the new head', async () => {
    const s = shown();
    const tables = await store(s);
    const outcome = await removeFromCorpus(s, [0 as DocId], undefined, { ...tables, k: K - 1 });
    expect(outcome?.tables).toBe('dropped');
    expect(await readTableLayout()).toBeNull();
  });
});
