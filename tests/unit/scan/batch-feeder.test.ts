import { describe, expect, it } from 'vitest';
import { feedFiles, type FeedBatch } from '../../../src/scan/batch-feeder.ts';
import { MAX_DOCUMENT_BYTES } from '../../../src/core/documents/document-status.ts';
import type { DiskRef } from '../../../src/workers/ingest-protocol.ts';

describe('feedFiles with diskRef (the CLI: its threads read the files)', () => {
  it('sends files on disk as their paths without reading them here, and reads the others', async () => {
    const refs = new Map<Blob, DiskRef>();
    const unreadable = (size: number) => ({ size, stream: () => { throw new Error('read on the main thread'); } }) as unknown as Blob;
    const files = [unreadable(10), new Blob(['kept range']), unreadable(MAX_DOCUMENT_BYTES + 1), unreadable(0)];
    refs.set(files[0], { path: '/d/a.txt', size: 10, mtimeMs: 1 });
    refs.set(files[2], { path: '/d/big.txt', size: MAX_DOCUMENT_BYTES + 1, mtimeMs: 1 });
    refs.set(files[3], { path: '/d/empty.txt', size: 0, mtimeMs: 1 });
    const sent: FeedBatch[] = [];
    const read: number[][] = [];
    const tooLarge: number[] = [];
    await feedFiles(files, ['a.txt', 'b.txt', 'big.txt', 'empty.txt'], {
      send: async (batch) => void sent.push(batch),
      read: (d, bytes) => void read.push([d, bytes]),
      unreadable: (d, message) => { throw new Error(`${d}: ${message}`); },
      tooLarge: (d) => void tooLarge.push(d),
    }, { readLimit: MAX_DOCUMENT_BYTES, maxInFlight: 2, signal: new AbortController().signal, readConcurrency: 1, diskRef: (f) => refs.get(f) ?? null });
    expect(tooLarge).toEqual([2]);
    expect(read).toEqual([[0, 10], [1, 10], [3, 0]]);
    const items = sent.flatMap((b) => b.items);
    expect(items.map((i) => [i.name, i.disk?.path, i.bytes?.byteLength])).toEqual([['a.txt', '/d/a.txt', undefined], ['b.txt', undefined, 10], ['empty.txt', '/d/empty.txt', undefined]]);
    expect(sent.flatMap((b) => b.buffers)).toHaveLength(1);
  });
});
