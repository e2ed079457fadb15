/**
 * The exclusions at a scan's listing (scan-exclusions.ts): path rules without asking any file anything,
 * size rules through the sizes the real ingest API gives for paths under directory handles (a plain
 * object tree standing in for the browser's), and every per-file column picked alike.
 */
import { describe, expect, it } from 'vitest';
import { leaveOutExcluded } from '../../../src/scan/scan-exclusions.ts';
import { ingestApi } from '../../../src/workers/ingest-api.ts';
import { NO_EXCLUSIONS } from '../../../src/core/documents/exclusions.ts';
import type { ScanWorkers } from '../../../src/workers/scan-workers.ts';
import type { CollectedFiles } from '../../../src/scan/collect-files.ts';
import { fakeDirectory } from '../workers/fake-handles.ts';

/** The ingest API called in this thread, as the worker pool would call it in a worker. */
const workers = { ingest: { run: (_signal: AbortSignal, call: (api: typeof ingestApi) => unknown) => call(ingestApi) } } as unknown as ScanWorkers;
const signal = new AbortController().signal;

describe('exclusions at the listing', () => {
  it('through directory handles: a size rule asks the sizes of the files the path rules left', async () => {
    const root = fakeDirectory('f', { 'a.txt': 'short', 'big.txt': 'x'.repeat(2000), 'notes.log': 'log', sub: { 'x.txt': 'also short' } });
    ingestApi.openHandles([root as unknown as FileSystemHandle], 'exclusions-test');
    const paths = ['f/a.txt', 'f/big.txt', 'f/notes.log', 'f/sub/x.txt'];
    const listing: CollectedFiles = { files: paths.map(() => new File([], '')), paths, hidden: [], roots: [root as unknown as FileSystemHandle] };
    const { listing: left, excluded } = await leaveOutExcluded(workers, listing, { ...NO_EXCLUSIONS, extensions: ['log'], maxSize: 1000 }, 'exclusions-test', signal);
    expect(left.paths).toEqual(['f/a.txt', 'f/sub/x.txt']);
    expect(excluded).toBe(2);
    expect(left.roots).toBe(listing.roots);
  });

  it('keeps times and byte ranges with their paths; no exclusions leave the listing as it is', async () => {
    const paths = ['c/a.txt', 'c/drafts/b.txt', 'c/d.txt'];
    const listing: CollectedFiles = {
      files: paths.map((p) => new File([p], p)),
      paths,
      hidden: [],
      modified: Float64Array.of(1, 2, 3),
      ranges: Float64Array.of(0, 10, 10, 20, 20, 30),
    };
    expect((await leaveOutExcluded(workers, listing, NO_EXCLUSIONS, null, signal)).listing).toBe(listing);
    const { listing: left, excluded } = await leaveOutExcluded(workers, listing, { ...NO_EXCLUSIONS, patterns: ['drafts/**'] }, null, signal);
    expect(excluded).toBe(1);
    expect(left.paths).toEqual(['c/a.txt', 'c/d.txt']);
    expect(left.files.map((f) => f.name)).toEqual(['c/a.txt', 'c/d.txt']);
    expect([...left.modified!]).toEqual([1, 3]);
    expect([...left.ranges!]).toEqual([0, 10, 20, 30]);
  });
});
