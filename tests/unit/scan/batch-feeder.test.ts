import { describe, expect, it } from 'vitest';
import { BatchBufferPool, feedFiles, type FeedBatch } from '../../../src/scan/batch-feeder.ts';
import { readScratch, readUpToInto } from '../../../src/scan/read-file-bytes.ts';
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

/** A file of `size` bytes, each byte a function of the file and its position (so a stale byte shows). */
function fileOf(n: number, size: number): File {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (n * 31 + i * 7) & 0xff;
  return new File([bytes], `f${n}.txt`);
}

describe('feedFiles with a buffer pool', () => {
  it("reads every file's bytes into its batch's one buffer, reusing the buffers given back, with nothing of a larger earlier batch left in a smaller one", async () => {
    // Sizes across the lane buffer's first size (64 kB) and a batch buffer's (1 MB): both grow.
    const sizes = [300_000, 5, 0, 70_000, 1_200_000, 17, 90_000, 3, 40_000, 2, 1];
    const files = sizes.map((size, n) => fileOf(n, size));
    const pool = new BatchBufferPool(2);
    const seen = new Map<number, Uint8Array>();
    const buffers = new Set<ArrayBuffer>();
    let batches = 0;
    await feedFiles(
      files,
      files.map((f) => f.name),
      {
        send: async (batch: FeedBatch) => {
          batches++;
          expect(batch.buffers).toHaveLength(1);
          batch.items.forEach((item, j) => {
            expect(item.bytes!.buffer).toBe(batch.buffers[0]);
            seen.set(batch.ids[j]!, item.bytes!.slice());
          });
          buffers.add(batch.buffers[0]!);
          // As a worker's result would: the buffer comes back once its bytes are fingerprinted.
          pool.give(batch.buffers[0]);
        },
        unreadable: () => expect.unreachable(),
        tooLarge: () => expect.unreachable(),
      },
      { readLimit: 2_000_000, maxInFlight: 1, signal: new AbortController().signal, batchFiles: 3, batchBytes: 1 << 30, readConcurrency: 1, pool },
    );
    expect(batches).toBe(4);
    // (Compared as Buffers: a deep equal of megabyte arrays takes seconds.)
    for (let d = 0; d < files.length; d++) expect(Buffer.from(seen.get(d)!).equals(Buffer.from(await files[d]!.arrayBuffer())), `file ${d}`).toBe(true);
    // Four batches, read into fewer buffers: given back, they were read into again.
    expect(buffers.size).toBeLessThan(batches);
  });
});

describe('feedFiles with a buffer pool and batches that come back out of order', () => {
  it('sends every file once, the last partial batch included, whatever order the workers give the buffers back in', async () => {
    // 101 files in batches of 8 (the last one of 5), four lanes, three batches in flight.
    const files = Array.from({ length: 101 }, (_, n) => fileOf(n, 1 + ((n * 977) % 5000)));
    const pool = new BatchBufferPool(4);
    const seen = new Map<number, Uint8Array>();
    const waiting: Array<() => void> = [];
    let sent = 0;
    // Settles the batch waiting longest when three are waiting, else the newest: returns out of order.
    const settleOne = () => void (waiting.length >= 3 ? waiting.shift() : waiting.pop())?.();
    const ticker = setInterval(settleOne, 1);
    try {
      await feedFiles(
        files,
        files.map((f) => f.name),
        {
          send: (batch: FeedBatch) => {
            sent++;
            batch.items.forEach((item, j) => {
              expect(seen.has(batch.ids[j]!), `file ${batch.ids[j]} sent once`).toBe(false);
              seen.set(batch.ids[j]!, item.bytes!.slice());
            });
            return new Promise<void>((done) =>
              waiting.push(() => {
                pool.give(batch.buffers[0]);
                done();
              }),
            );
          },
          unreadable: () => expect.unreachable(),
          tooLarge: () => expect.unreachable(),
        },
        { readLimit: 1_000_000, maxInFlight: 3, signal: new AbortController().signal, batchFiles: 8, batchBytes: 1 << 30, readConcurrency: 4, pool },
      );
    } finally {
      clearInterval(ticker);
    }
    expect(sent).toBe(13);
    expect(seen.size).toBe(files.length);
    for (let d = 0; d < files.length; d++) expect(Buffer.from(seen.get(d)!).equals(Buffer.from(await files[d]!.arrayBuffer())), `file ${d}`).toBe(true);
  });
});

describe('readUpToInto', () => {
  it("reads into the lane's buffer (grown past its first size), says 'large' past the limit, and reuses the buffer", async () => {
    const scratch = readScratch();
    const big = fileOf(1, 150_000);
    const read = await readUpToInto(big, 150_000, scratch);
    expect(read.kind).toBe('bytes');
    if (read.kind === 'bytes') {
      expect(read.bytes.buffer).toBe(scratch.buffer);
      expect(Buffer.from(read.bytes).equals(Buffer.from(await big.arrayBuffer()))).toBe(true);
    }
    expect(await readUpToInto(fileOf(2, 150_001), 150_000, scratch)).toEqual({ kind: 'large' });
    const small = await readUpToInto(fileOf(3, 10), 150_000, scratch);
    expect(small.kind === 'bytes' && Array.from(small.bytes)).toEqual(Array.from(new Uint8Array(await fileOf(3, 10).arrayBuffer())));
  });
});
