/**
 * A verification chunk's documents (verify-candidates.ts loadChunk): a file the ingest threads read
 * themselves (the CLI's files on disk, ScanWorkers.diskRef) goes as its path, not read on this thread;
 * any other file is read here and goes as bytes (#34: a cached scan's unchanged files read again for
 * an exact Jaccard were read on the main thread through streams).
 */
import { describe, expect, it } from 'vitest';
import { loadChunk } from '../../../src/scan/verify-candidates.ts';
import type { SearchCorpus } from '../../../src/scan/search-corpus.ts';
import type { DiskRef } from '../../../src/workers/ingest-protocol.ts';

describe('loadChunk', () => {
  it('sends a file the threads read as its disk reference, never reading it, and reads the others', async () => {
    let streamed = 0;
    /** A Blob that counts its reads. */
    const counted = (text: string): Blob => {
      const blob = new Blob([text]);
      return { size: blob.size, type: '', stream: () => (streamed++, blob.stream()) } as unknown as Blob;
    };
    const onDisk = counted('on disk');
    const other = counted('in memory');
    const ref: DiskRef = { path: '/x/a.txt', size: 7, mtimeMs: 1 };
    const corpus = { docs: { paths: ['a.txt', 'b.txt'], files: [onDisk, other] } } as unknown as SearchCorpus;
    const loaded = await loadChunk(corpus, [0, 1], { readLimit: 1 << 20, diskRef: (file) => (file === onDisk ? ref : null) });
    expect(loaded.items[0]).toEqual({ name: 'a.txt', disk: ref });
    expect(new TextDecoder().decode(loaded.items[1].bytes)).toBe('in memory');
    expect(streamed).toBe(1);
    expect(loaded.read).toBe(2);
    // Over the read limit a file keeps the way it went before (read here, or posted when large).
    const small = await loadChunk(corpus, [0], { readLimit: 3, diskRef: () => ref });
    expect(small.items[0].disk).toBeUndefined();
  });
});
