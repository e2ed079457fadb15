import { SKETCH_BINS } from '../../../src/core/groups/minhash-sketch.ts';
import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { addBatch, loadCorpus } from '../../../src/storage/corpus-repository.ts';
import { closeCorpusDb, configureStorage } from '../../../src/storage/database.ts';
import { docsFromCorpus, INVALID_UTF8_NOTE, restoredPositions, storedDocumentOf } from '../../../src/corpus/stored-documents.ts';
import type { LoadedCorpus } from '../../../src/storage/corpus-repository.ts';
import { concatDocs } from '../../../src/scan/scan-docs.ts';
import type { ScanDocs } from '../../../src/scan/scan-result.ts';
import { DocFlag, DocStatus, invalidUtf8Message, skipMessage } from '../../../src/core/documents/document-status.ts';
import type { StorageIds } from '../../../src/core/ids.ts';

function scanDocs(): ScanDocs {
  // Too large and unreadable: skips the page itself finds; a reload must give the same status back.
  const status = [DocStatus.ok, DocStatus.tooShort, DocStatus.copy, DocStatus.binary, DocStatus.empty, DocStatus.pending, DocStatus.ok, DocStatus.tooLarge, DocStatus.unreadable];
  const n = status.length;
  const paths = status.map((_, i) => `folder/${i}.txt`);
  return {
    count: n,
    paths,
    files: paths.map((p, i) => new File(['x'.repeat(i)], p, { lastModified: 1_700_000_000_000 + i })),
    sizes: Float64Array.from(status, (_, i) => i * 10),
    status: Uint8Array.from(status),
    flags: new Uint8Array(n),
    hi: Uint32Array.from(status, (s, i) => (s === DocStatus.ok ? 0x80000000 + i : 0)),
    lo: Uint32Array.from(status, (s, i) => (s === DocStatus.ok ? 0xfffffff0 - i : 0)),
    words: Uint32Array.from(status, (_, i) => 60 + i),
    hashHi: Uint32Array.from(status, (s, i) => (s === DocStatus.binary || s === DocStatus.empty || s === DocStatus.pending || s === DocStatus.tooLarge || s === DocStatus.unreadable ? 0 : 0xabc00000 + i)),
    hashLo: Uint32Array.from(status, (s, i) => (s === DocStatus.binary || s === DocStatus.empty || s === DocStatus.pending || s === DocStatus.tooLarge || s === DocStatus.unreadable ? 0 : i + 1)),
  };
}

describe('storedDocumentOf and docsFromCorpus', () => {
  it('round-trip a scan through storage: statuses (copies included), fingerprints, hashes, sizes, words; pending docs are not stored', async () => {
    globalThis.indexedDB = new IDBFactory();
    configureStorage({ name: 'restore-test', events: {} });
    try {
      const docs = scanDocs();
      const kept: number[] = [];
      const stored = [];
      for (let d = 0; d < docs.count; d++) {
        const doc = storedDocumentOf(docs, d, 100 + stored.length);
        if (doc) {
          stored.push(doc);
          kept.push(d);
        }
      }
      expect(kept).not.toContain(5); // pending
      await addBatch({ documents: stored });
      const loaded = await loadCorpus();
      const back = docsFromCorpus(loaded, loaded.paths.map((p) => new File([], p)));
      expect(back.count).toBe(kept.length);
      kept.forEach((d, p) => {
        expect(back.paths[p]).toBe(docs.paths[d]);
        expect(back.status[p]).toBe(docs.status[d]);
        expect(back.hi[p]).toBe(docs.status[d] === DocStatus.ok ? docs.hi[d] : 0);
        expect(back.lo[p]).toBe(docs.status[d] === DocStatus.ok ? docs.lo[d] : 0);
        expect(back.hashHi[p]).toBe(docs.hashHi[d]);
        expect(back.hashLo[p]).toBe(docs.hashLo[d]);
        expect(back.sizes[p]).toBe(docs.sizes[d]);
        expect(back.words[p]).toBe(docs.words[d]);
      });
    } finally {
      closeCorpusDb();
    }
  });

  it('keeps the invalid-UTF-8 note of a compared document through storage: still ok, flagged again', async () => {
    globalThis.indexedDB = new IDBFactory();
    configureStorage({ name: 'restore-note-test', events: {} });
    try {
      const docs = scanDocs();
      docs.flags[6] = DocFlag.invalidUtf8;
      const stored = [storedDocumentOf(docs, 0, 1)!, storedDocumentOf(docs, 6, 2)!];
      expect(stored[1]).toMatchObject({ status: 'ok', skipReason: INVALID_UTF8_NOTE });
      await addBatch({ documents: stored });
      const loaded = await loadCorpus();
      const back = docsFromCorpus(loaded, loaded.paths.map((p) => new File([], p)));
      expect(Array.from(back.status)).toEqual([DocStatus.ok, DocStatus.ok]);
      expect(Array.from(back.flags)).toEqual([0, DocFlag.invalidUtf8]);
      expect(invalidUtf8Message()).toBe('Invalid UTF-8 bytes replaced with � (U+FFFD); the rest was read as UTF-8.');
    } finally {
      closeCorpusDb();
    }
  });

  it('keeps the message a scan gave a skipped file through a reload (a scanned PDF, a binary file), and the generic one for a corpus saved without', async () => {
    globalThis.indexedDB = new IDBFactory();
    configureStorage({ name: 'restore-message-test', events: {} });
    try {
      // A person saw "No text (no text layer on its page (a scan? ...))" after the scan and "No text: there is no text to compare." after a reload.
      const docs = scanDocs();
      docs.status[6] = DocStatus.noText;
      const noText = skipMessage('no-text', 'no text layer on its page (a scan? SimSift does not read text from images)');
      const binary = skipMessage('binary', 'binary file: NUL byte at offset 3');
      await addBatch({ documents: [storedDocumentOf(docs, 0, 1)!, storedDocumentOf(docs, 3, 2, binary)!, storedDocumentOf(docs, 4, 3)!, storedDocumentOf(docs, 6, 4, noText)!] });
      const r = restoredPositions(await loadCorpus(), { files: [1, 2, 3, 4].map(() => new Blob()) }, [], undefined);
      expect(r.skipped.map((s) => [s.path, s.message])).toEqual([
        ['folder/3.txt', binary],
        ['folder/4.txt', skipMessage('empty')],
        ['folder/6.txt', noText],
      ]);
    } finally {
      closeCorpusDb();
    }
  });

  it('concatDocs puts b after a in every column', () => {
    const a = scanDocs();
    const both = concatDocs(a, a);
    expect(both.count).toBe(2 * a.count);
    expect(both.paths[a.count]).toBe(a.paths[0]);
    expect(both.hi[a.count + 6]).toBe(a.hi[6]);
    expect(both.files[a.count + 3]).toBe(a.files[3]);
  });
});

describe('restoredPositions', () => {
  const corpus = (paths: string[], ids: number[]): LoadedCorpus => {
    const n = paths.length;
    return {
      count: n, ids: Uint32Array.from(ids), hi: new Uint32Array(n), lo: new Uint32Array(n), storedFlags: new Uint8Array(n), paths,
      hashHi: new Uint32Array(n), hashLo: new Uint32Array(n), sizes: new Float64Array(n), words: new Uint32Array(n), skipReasons: new Map(),
      // Each document's size is its id, its sketch's first bin the id + 1: where they land is seen.
      setSizes: Uint32Array.from(ids), sketches: Uint16Array.from({ length: n * SKETCH_BINS }, (_, i) => (i % SKETCH_BINS === 0 ? ids[i / SKETCH_BINS]! + 1 : 0)),
      documentCount: n, nextId: Math.max(0, ...ids) + 1, revision: 0,
    };
  };
  const files = (n: number) => ({ files: new Array<Blob>(n).fill(new Blob()) });

  it('maps the pinned ids to positions in path order and lists files never stored once, none that is stored', () => {
    const r = restoredPositions(corpus(['b.txt', 'a.txt', 'c.txt'], [7, 3, 9]), files(3), [['a.txt', 'hidden', 'm'], ['x/.h', 'hidden', 'm'], ['x/.h', 'hidden', 'm']], Uint32Array.of(9, 3, 42) as StorageIds);
    expect(r.docs.paths).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(Array.from(r.storageIds)).toEqual([3, 7, 9]);
    expect(r.pinned).toEqual([2, 0]);
    expect(r.skipped.map((s) => s.path)).toEqual(['x/.h']);
    // The saved set sizes and sketches follow their documents to the positions in path order.
    expect(Array.from(r.setSizes)).toEqual([3, 7, 9]);
    expect([0, 1, 2].map((p) => r.sketches[p * SKETCH_BINS])).toEqual([4, 8, 10]);
  });

  it('without pins or unsaved files, restores in path order with none', () => {
    const r = restoredPositions(corpus(['a.txt', 'b.txt'], [0, 1]), files(2), [], undefined);
    expect(r.pinned).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(Array.from(r.storageIds)).toEqual([0, 1]);
  });
});
