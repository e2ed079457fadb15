import { openDB } from 'idb';
import type { IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import {
  closeCorpusDb,
  configureStorage,
  deleteCorpusDatabase,
  getCorpusDb,
} from '../../../src/storage/database.ts';
import { addBatch, compactChunks, loadCorpus, removeDocuments, type NewDocument } from '../../../src/storage/corpus-repository.ts';
import { chunkFromColumns, columnsFromDocuments } from '../../../src/storage/corpus-columns.ts';
import { SKETCH_BINS } from '../../../src/core/groups/minhash-sketch.ts';
import { findDocumentsByContentHash, findStoredPaths, getContent, getDocuments } from '../../../src/storage/corpus-reads.ts';
import { halvesToKey } from '../../../src/storage/key-codec.ts';
import { DB_VERSION, migrate } from '../../../src/storage/schema.ts';
import type { ContentRecordV2, CorpusDB, DocumentRecordV1 } from '../../../src/storage/schema.ts';
import { StorageError } from '../../../src/storage/storage-error.ts';
import { TEST_DB, useFreshDatabase } from './storage-test-db.ts';

useFreshDatabase();

/** v1 per-document records: a fingerprinted file, a skipped one, an exact duplicate. */
const V1_DOCS: DocumentRecordV1[] = [
  {
    id: 0,
    path: 'old/a.txt',
    size: 10,
    lastModified: 1,
    contentHash: '00000000000000aa',
    fingerprint: halvesToKey(1, 2),
    words: 5,
    features: 3,
    status: 'ok',
    addedAt: 1,
  },
  {
    id: 2,
    path: 'old/b.bin',
    size: 99,
    lastModified: 2,
    contentHash: null,
    fingerprint: null,
    words: 0,
    features: 0,
    status: 'skipped',
    skipReason: 'binary',
    skipMessage: 'Looks like a binary file.',
    addedAt: 1,
  },
  {
    id: 3,
    path: 'old/c.txt',
    size: 10,
    lastModified: 3,
    contentHash: '00000000000000aa',
    fingerprint: halvesToKey(1, 2),
    words: 5,
    features: 3,
    status: 'ok',
    duplicateOf: 0,
    addedAt: 1,
  },
];

/** Creates the database as schema version 1 wrote it: per-document records plus thin chunks. */
async function createVersion1(docs: unknown[] = V1_DOCS): Promise<void> {
  const db = await openDB(TEST_DB, 1, {
    upgrade(database, oldVersion, _newVersion, tx) {
      migrate(database as unknown as IDBPDatabase<CorpusDB>, oldVersion, 1, tx as never);
    },
  });
  const tx = db.transaction(['documents', 'corpus-chunks', 'meta'], 'readwrite');
  await Promise.all([
    ...docs.map((d) => tx.objectStore('documents').put(d)),
    // v1's thin chunk (ids, fingerprints, flags, paths): the upgrade rebuilds chunks from the records.
    tx.objectStore('corpus-chunks').put({
      chunk: 0,
      count: 1,
      ids: Uint32Array.of(0).buffer,
      fingerprints: halvesToKey(1, 2),
      flags: new ArrayBuffer(1),
      paths: 'old/a.txt',
    }),
    tx.objectStore('meta').put({ key: 'corpus', nextId: 4, documentCount: docs.length, revision: 1 }),
    tx.done,
  ]);
  expect(db.objectStoreNames.contains('documents')).toBe(true);
  db.close();
}

/** Creates the database as schema version 2 wrote it, with one content record (a Blob) per document. */
async function createVersion2(contents: ContentRecordV2[]): Promise<void> {
  const db = await openDB(TEST_DB, 2, {
    upgrade(database, oldVersion, _newVersion, tx) {
      migrate(database as unknown as IDBPDatabase<CorpusDB>, oldVersion, 2, tx as never);
    },
  });
  const tx = db.transaction('contents', 'readwrite');
  await Promise.all([...contents.map((c) => tx.store.put(c)), tx.done]);
  expect(db.objectStoreNames.contains('content-batches')).toBe(false);
  db.close();
}

/** A fingerprinted document; with `known`, its feature-set size and sketch (the sketch's bins all `id + 1`). */
function v4Doc(id: number, known: boolean): NewDocument {
  const doc: NewDocument = { id, path: `d/${id}.txt`, size: 10 + id, lastModified: id, contentHash: id.toString(16).padStart(16, '0'), status: 'ok', hi: id, lo: 7, words: 60, features: 0 };
  return known ? { ...doc, setSize: 40 + id, sketch: new Uint16Array(SKETCH_BINS).fill(id + 1) } : doc;
}

/** Creates the database as schema version 3 wrote it: chunks without set sizes or sketches. */
async function createVersion3(docs: NewDocument[]): Promise<void> {
  const db = await openDB(TEST_DB, 3, {
    upgrade(database, oldVersion, _newVersion, tx) {
      migrate(database as unknown as IDBPDatabase<CorpusDB>, oldVersion, 3, tx as never);
    },
  });
  const { setSizes: _s, sketches: _k, ...v3Chunk } = chunkFromColumns(docs[0]!.id, columnsFromDocuments(docs));
  const tx = db.transaction(['corpus-chunks', 'meta'], 'readwrite');
  await Promise.all([
    tx.objectStore('corpus-chunks').put(v3Chunk),
    tx.objectStore('meta').put({ key: 'corpus', nextId: docs.at(-1)!.id + 1, documentCount: docs.length, revision: 1 }),
    tx.done,
  ]);
  db.close();
}

describe('opening the corpus database', () => {
  it('creates every store at the current version', async () => {
    const db = await getCorpusDb();
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(
      ['content-batches', 'corpus-chunks', 'meta', 'scan-sessions', 'settings', 'shards'].sort(),
    );
  });

  it('upgrades a version 1 database: per-document records become column chunks', async () => {
    await createVersion1();
    const db = await getCorpusDb();
    expect(db.version).toBe(DB_VERSION);
    expect(db.objectStoreNames.contains('documents' as never)).toBe(false);
    const corpus = await loadCorpus();
    expect(corpus.paths).toEqual(['old/a.txt', 'old/b.bin', 'old/c.txt']);
    expect([...corpus.ids]).toEqual([0, 2, 3]);
    expect([...corpus.hi]).toEqual([1, 0, 1]);
    expect([...corpus.lo]).toEqual([2, 0, 2]);
    expect(corpus.nextId).toBe(4);
    const [a, b, c] = await getDocuments([0, 2, 3]);
    expect(a).toEqual({ id: 0, path: 'old/a.txt', size: 10, lastModified: 1, contentHash: '00000000000000aa', status: 'ok', hi: 1, lo: 2, words: 5, features: 3 });
    expect(b).toMatchObject({ status: 'skipped', skipReason: 'binary', skipMessage: 'Looks like a binary file.', contentHash: null });
    expect(c!.duplicateOf).toBe(0);
    expect(await findStoredPaths(['old/a.txt', 'new/b.txt'])).toEqual(new Set(['old/a.txt']));
    expect((await findDocumentsByContentHash('00000000000000aa')).map((d) => d.id)).toEqual([0, 3]);
  });

  // A record each conversion refuses: v1 ids must ascend as uint32; a v2 content must be a Blob.
  const refused = [
    { version: 1, store: 'documents', create: () => createVersion1([{ ...V1_DOCS[0], id: -5 }]), records: 1 },
    { version: 2, store: 'contents', create: () => createVersion2([{ id: 0, blob: new Blob(['fine']) }, { id: 1, blob: 'not a blob' as unknown as Blob }]), records: 2 },
  ];
  for (const { version, store, create, records } of refused) {
    it(`leaves a version ${version} database untouched when its upgrade fails`, async () => {
      await create();
      const error = await getCorpusDb().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      const old = await openDB(TEST_DB);
      expect(old.version).toBe(version);
      expect(await old.count(store)).toBe(records);
      old.close();
    });
  }

  it('upgrades a version 2 database: per-document contents become one record per 256 documents', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `text of document ${i * 2}`);
    await createVersion2(texts.map((text, i) => ({ id: i * 2, blob: new Blob([text]) })).reverse());
    const db = await getCorpusDb();
    expect(db.version).toBe(DB_VERSION);
    expect(db.objectStoreNames.contains('contents' as never)).toBe(false);
    expect(await db.count('content-batches')).toBe(2);
    for (const i of [0, 1, 127, 255, 256, 299]) expect(await (await getContent(i * 2))!.text()).toBe(texts[i]);
    expect(await getContent(3)).toBeNull();
    expect(await getContent(600)).toBeNull();
  });

  it('upgrades a version 3 database: every document stays, its set size and sketch not known until written; joined, removed and rewritten chunks keep both', async () => {
    await createVersion3([v4Doc(0, false), v4Doc(1, false), v4Doc(2, false)]);
    const db = await getCorpusDb();
    expect(db.version).toBe(DB_VERSION);
    let corpus = await loadCorpus();
    expect(corpus.paths).toEqual(['d/0.txt', 'd/1.txt', 'd/2.txt']);
    expect([...corpus.hi]).toEqual([0, 1, 2]);
    expect([...corpus.setSizes]).toEqual([0, 0, 0]);
    expect(corpus.sketches.every((v) => v === 0)).toBe(true);
    // A v4 batch beside the v3 chunk, then both joined into one chunk (a scan's end).
    await addBatch({ documents: [v4Doc(3, true), v4Doc(4, true)] });
    expect(await compactChunks(0)).toBe(1);
    // Document 4 removed, document 1 written anew with a size and a sketch (a class's new head).
    await removeDocuments([4], [v4Doc(1, true)]);
    corpus = await loadCorpus();
    expect([...corpus.ids]).toEqual([0, 1, 2, 3]);
    expect([...corpus.setSizes]).toEqual([0, 41, 0, 43]);
    expect([0, 1, 2, 3].map((p) => [...new Set(corpus.sketches.subarray(p * SKETCH_BINS, (p + 1) * SKETCH_BINS))])).toEqual([[0], [2], [0], [4]]);
  });

  it('refuses a database from a newer version with a typed error', async () => {
    const newer = await openDB(TEST_DB, DB_VERSION + 1, {
      upgrade(database) {
        database.createObjectStore('documents', { keyPath: 'id' });
      },
    });
    newer.close();
    const error = await getCorpusDb().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).kind).toBe('newer-version');
    expect((error as StorageError).userMessage).toMatch(/newer version of SimSift/);
    // "Reset local data" then gives a working, empty corpus.
    await deleteCorpusDatabase();
    expect((await loadCorpus()).count).toBe(0);
  });

  it('reports a database at the current version with missing stores as corrupt', async () => {
    const damaged = await openDB(TEST_DB, DB_VERSION, {
      upgrade(database) {
        database.createObjectStore('documents', { keyPath: 'id' });
      },
    });
    damaged.close();
    await expect(getCorpusDb()).rejects.toMatchObject({ name: 'StorageError', kind: 'corrupt' });
  });

  it('closes on versionchange so another tab can upgrade, reports blocked, and reopens after', async () => {
    const events: string[] = [];
    configureStorage({
      events: {
        onVersionChange: (info) => events.push(`versionchange ${info.currentVersion}->${info.requestedVersion}`),
      },
    });
    await getCorpusDb();
    // Another "tab" upgrades: our connection must close so the upgrade is not blocked.
    const other = await openDB(TEST_DB, DB_VERSION + 1);
    expect(events).toEqual([`versionchange ${DB_VERSION}->${DB_VERSION + 1}`]);
    other.close();
    // The shared promise was reset: the next open sees the newer version and says so.
    await expect(getCorpusDb()).rejects.toMatchObject({ kind: 'newer-version' });
  });

  it('reports blocked while an old tab keeps a version 1 connection open, then upgrades', async () => {
    // An old tab's connection without a versionchange handler (it never closes on its own).
    const old = await openDB<CorpusDB>(TEST_DB, 1, {
      upgrade(database, oldVersion, _newVersion, tx) {
        migrate(database, oldVersion, 1, tx);
      },
    });
    const reported: string[] = [];
    configureStorage({
      events: { onBlocked: (info) => reported.push(`${info.currentVersion}->${info.requestedVersion}`) },
    });
    let opened = false;
    const opening = getCorpusDb().then((db) => {
      opened = true;
      return db;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reported).toEqual([`1->${DB_VERSION}`]);
    expect(opened).toBe(false);
    old.close();
    expect((await opening).version).toBe(DB_VERSION);
  });

  it('calls onBlocked when deleting while another connection stays open', async () => {
    const reported: number[] = [];
    configureStorage({ events: { onBlocked: (info) => reported.push(info.currentVersion) } });
    const raw = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(TEST_DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('x');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    // This connection ignores versionchange (no handler): the delete waits and reports blocked.
    const deleting = deleteCorpusDatabase();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reported).toEqual([1]);
    raw.close();
    await deleting;
  });

  it('reopens after closeCorpusDb', async () => {
    const first = await getCorpusDb();
    closeCorpusDb();
    const second = await getCorpusDb();
    expect(second).not.toBe(first);
  });
});
