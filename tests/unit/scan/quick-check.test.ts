import { describe, expect, it } from 'vitest';
import { quickCheck, statsAlong, type UnchangedTest } from '../../../src/scan/quick-check.ts';
import type { CollectedFiles } from '../../../src/scan/collect-files.ts';
import type { ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { collectSource, type ScanSource } from '../../../src/scan/scan-source.ts';
import { openHandlesInWorkers } from '../../../src/scan/handle-source.ts';
import { ingestApi } from '../../../src/workers/ingest-api.ts';
import type { EntryHandle } from '../../../src/workers/directory-handles.ts';
import { fakeDirectory } from '../workers/fake-handles.ts';
import { inThreadWorkers } from './in-thread-workers.ts';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import type { ScanStage } from '../../../src/scan/scan-run.ts';
import { NO_EXCLUSIONS } from '../../../src/core/documents/exclusions.ts';

/** A folder-input listing of `n` files, each with its own time, and the saved corpus holding the even ones as they are. */
function listing(n: number): { collected: CollectedFiles; saved: UnchangedTest } {
  const files = Array.from({ length: n }, (_, i) => new File([`text ${i}`], `f${i}.txt`, { lastModified: 1_000 + i }));
  const paths = files.map((f) => `folder/${f.name}`);
  const at = new Map(paths.map((p, i) => [p, i]));
  return {
    collected: { files, paths, hidden: [] },
    saved: {
      saved: (path) => at.get(path)! % 2 === 0,
      unchanged: (path, size, modified) => at.get(path)! % 2 === 0 && size === files[at.get(path)!]!.size && modified === 1_000 + at.get(path)!,
    },
  };
}

// The Files the page holds: the workers are never asked (they are for handles).
const NO_WORKERS = null as unknown as ScanWorkers;

describe('quickCheck through Files the page holds', () => {
  it('leaves out the saved files at the same size and time, and reads the rest', async () => {
    const { collected, saved } = listing(10);
    const split = await quickCheck(NO_WORKERS, collected, null, saved, new AbortController().signal);
    expect(split.unchanged).toBe(5);
    expect(split.toRead.paths).toEqual(['folder/f1.txt', 'folder/f3.txt', 'folder/f5.txt', 'folder/f7.txt', 'folder/f9.txt']);
  });

  it('counts the saved files it has asked, from 0 to all of them, for the progress line', async () => {
    const { collected, saved } = listing(200);
    const told: Array<[number, number]> = [];
    await quickCheck(NO_WORKERS, collected, null, saved, new AbortController().signal, (done, total) => told.push([done, total]));
    expect(told[0]).toEqual([0, 100]);
    expect(told.at(-1)).toEqual([100, 100]);
    expect(told.length).toBeGreaterThan(2);
    for (let i = 1; i < told.length; i++) expect(told[i]![0]).toBeGreaterThan(told[i - 1]![0]);
  });

  it('says nothing when nothing is saved to check', async () => {
    const { collected } = listing(20);
    const told: number[] = [];
    await quickCheck(NO_WORKERS, collected, null, null, new AbortController().signal, (done) => told.push(done));
    expect(told).toEqual([]);
  });
});

/** Real ingest workers (comlink over MessageChannels) whose handles are fake trees, named across the channel by an id. */
/** A dropped folder whose handle names the fake root `name` (the fake workers look it up by name). */
function droppedFolder(name: string): ScanSource {
  const handle = { kind: 'directory', name } as unknown as FileSystemHandle;
  return { kind: 'drop', drop: { entries: [], looseFiles: [], handles: [Promise.resolve(handle)] } };
}

function handleWorkers(roots: Map<string, EntryHandle>, calls: string[] = []): ScanWorkers {
  const lookup = (ids: FileSystemHandle[]) => ids.map((id) => roots.get(id.name)!) as unknown as FileSystemHandle[];
  return inThreadWorkers({
    ...ingestApi,
    statHandles: (token: string, paths: string[]) => (calls.push('statHandles'), ingestApi.statHandles(token, paths)),
    listHandles: (ids: FileSystemHandle[], stat?: boolean, share?: { index: number; count: number }) => ingestApi.listHandles(lookup(ids), stat, share),
    openHandles: (ids: FileSystemHandle[], token: string) => ingestApi.openHandles(lookup(ids), token),
  });
}

describe('quickCheck through handles', () => {
  it('takes the sizes and times the walk took (each file opened once, each folder listed once, the root by each worker), splitting as the workers\' stats do', async () => {
    const folders = Object.fromEntries(Array.from({ length: 4 }, (_, f) => [`d${f}`, Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`${i}.txt`, 'x'.repeat(1 + f + i)]))]));
    const probe = { listings: 0, opens: 0, gone: new Set(['3.txt']) };
    const root = fakeDirectory('notes', folders, 0, probe);
    const workers = handleWorkers(new Map([['notes', root]]));
    const signal = new AbortController().signal;
    const source = droppedFolder('notes');
    // Saved: every file as the tree has it, except d1/0.txt (edited since); d*/3.txt are gone since they were listed.
    const saved: UnchangedTest = {
      saved: () => true,
      unchanged: (path, size, modified) => path !== 'notes/d1/0.txt' && size > 0 && modified === 1_000 + size,
    };
    const walked = await collectSource(workers, source, signal, true);
    expect(walked.stats).not.toBeNull();
    const token = await openHandlesInWorkers(workers, walked.collected.roots!, signal);
    const fromWalk = await quickCheck(workers, walked.collected, token, saved, signal, undefined, walked.stats);
    // The two workers each list the root and walk half of its folders.
    expect([probe.listings, probe.opens]).toEqual([6, 20]);
    // The same folder checked the way it was before: the workers open every path again.
    const asked = await quickCheck(workers, walked.collected, token, saved, signal);
    expect(fromWalk.toRead.paths).toEqual(asked.toRead.paths);
    expect(fromWalk.toRead.paths).toEqual(['notes/d0/3.txt', 'notes/d1/0.txt', 'notes/d1/3.txt', 'notes/d2/3.txt', 'notes/d3/3.txt']);
    expect([...fromWalk.stats!.sizes]).toEqual([...asked.stats!.sizes]);
    expect([...fromWalk.stats!.modified]).toEqual([...asked.stats!.modified]);
    expect(fromWalk.unchanged).toBe(15);
    workers.ingest.terminate();
    workers.index.terminate();
  });

  it('in a scan session with a saved corpus, takes the walk\'s stats: no worker opens the paths again for them', async () => {
    const prose = (i: number) => Array.from({ length: 80 }, (_, k) => `w${(i * 7919 + k * 104729) % 100003}`).join(' ');
    const root = fakeDirectory('notes', { a: { '1.txt': prose(1), '2.txt': prose(2) }, b: { '3.txt': prose(3) } });
    const calls: string[] = [];
    const workers = handleWorkers(new Map([['notes', root]]), calls);
    const store = createScanStore({ k: 6 });
    const checked: number[] = [];
    const unchangedTest = (): UnchangedTest => ({ saved: () => true, unchanged: (path, size, modified) => (checked.push(size), path !== 'notes/b/3.txt' && modified === 1_000 + size) });
    // The saved corpus's stage as corpus-scan-saving.ts calls it: listing with stats when a quick check follows.
    const stage = (withStats: boolean): ScanStage => async (scan) => {
      await scan.list(withStats);
      await scan.check(NO_EXCLUSIONS, unchangedTest());
      scan.begin();
      for await (const _ of scan.read(false));
      return scan.search();
    };
    const source = droppedFolder('notes');
    await createScanSession(store, workers, stage(true)).start(source);
    expect(store.getSnapshot().state).toBe('done');
    expect(calls).toEqual([]);
    expect(checked.sort()).toEqual([prose(1).length, prose(2).length, prose(3).length].sort());
    // Listed without stats, the quick check asks the workers.
    await createScanSession(store, workers, stage(false)).start(source);
    expect(calls).toEqual(['statHandles']);
    workers.ingest.terminate();
    workers.index.terminate();
  });

  it('asks the workers when the walk took no stats or lacks a path', async () => {
    const listed = { paths: ['a/1.txt', 'a/3.txt'], stats: { sizes: Float64Array.of(1, 3), modified: Float64Array.of(11, 13) } };
    expect(statsAlong(['a/1.txt', 'a/3.txt'], listed)).toEqual(listed.stats);
    expect(statsAlong(['a/3.txt'], listed)).toEqual({ sizes: Float64Array.of(3), modified: Float64Array.of(13) });
    expect(statsAlong(['a/1.txt', 'a/2.txt', 'a/3.txt'], listed)).toBeNull();
  });
});
