import { describe, expect, it } from 'vitest';
import { quickCheck, type UnchangedTest } from '../../../src/scan/quick-check.ts';
import type { CollectedFiles } from '../../../src/scan/collect-files.ts';
import type { ScanWorkers } from '../../../src/workers/scan-workers.ts';

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
