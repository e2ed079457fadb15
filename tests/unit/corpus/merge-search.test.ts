/**
 * The merge searching only the pairs with a new member (what every merge does when the saved pairs were decided at its k) against a fresh
 * scan of the same files: the same pairs CSV and the same candidate histogram (the histogram is carried:
 * the saved one, less the pairs of documents that left, plus the new pairs), over seeded random changes.
 */
import type { StorageIds } from '../../../src/core/ids.ts';
import { describe, expect, it, vi } from 'vitest';
import { indexApi } from '../../../src/workers/index-api.ts';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import { plainScan, type ShownCorpus } from '../../../src/scan/scan-run.ts';
import { mergeCorpus, type CorpusPart } from '../../../src/corpus/merge-corpus.ts';
import { pairsCsvText } from '../../fixtures/pairs-csv.ts';
import type { ScanResult } from '../../../src/scan/scan-result.ts';
import { mulberry32Unit } from '../../fixtures/mulberry32.ts';
import { inFolder, inThreadWorkers } from '../scan/in-thread-workers.ts';
import { TEXTS } from './corpus-model.ts';

const K = 16;
const workers = inThreadWorkers();

/** Scans `files` (path -> text) and returns what the session's finish step is handed: the result and its search state. */
async function scan(files: ReadonlyMap<string, string>, containmentThreshold = 0.9): Promise<ShownCorpus> {
  let shown: ShownCorpus | null = null;
  const store = createScanStore({ k: K, containmentThreshold });
  const session = createScanSession(store, workers, async (run) => (shown = await plainScan(run)));
  await session.start({ kind: 'file-list', files: [...files].map(([path, text]) => inFolder(path, text)) });
  expect(store.getSnapshot().state).toBe('done');
  return shown!;
}

const csvOf = (r: ScanResult) => pairsCsvText(r.relation, r.docs.paths, r.contained);

/** One word of `text` replaced, so the copy is a near-duplicate at a small distance. */
function edit(text: string, at: number): string {
  const words = text.split(' ');
  words[at % words.length] = 'changed';
  return words.join(' ');
}

/** The middle half of a text's words. */
const excerptOf = (text: string) => {
  const words = text.split(' ');
  return words.slice(Math.floor(words.length / 4), Math.floor((3 * words.length) / 4)).join(' ');
};

describe('a merge that searches only the pairs with a new member', { timeout: 120_000 }, () => {
  it('groups exact copies once: the saved classes stand, only the new documents are placed by hash', async () => {
    const saved = new Map([['e/a.txt', TEXTS[0]!], ['e/b.txt', TEXTS[1]!], ['e/c-copy-of-a.txt', TEXTS[0]!]]);
    const before = await scan(saved);
    const beforePart: CorpusPart = { result: before.result, storageIds: Uint32Array.from(before.result.docs.paths, (_, i) => i) as StorageIds, search: before.corpus };
    // A new copy that comes first in path order (it becomes its class's representative), and a new text.
    const read = new Map([['e/0-copy-of-a.txt', TEXTS[0]!], ['e/d.txt', TEXTS[2]!]]);
    const own = await scan(read);
    const ownPart: CorpusPart = { result: own.result, storageIds: Uint32Array.from(own.result.docs.paths, (_, i) => 1000 + i) as StorageIds, search: own.corpus };
    const options = { settings: own.result.settings, k: K, similarityThreshold: own.result.similarityThreshold, grouping: own.result.grouping, containmentThreshold: 0.9 };
    const grouping = vi.spyOn(indexApi, 'groupExactDuplicates');
    const merged = (await mergeCorpus(workers, new AbortController().signal, beforePart, ownPart, options)).grouped.result;
    const classes = grouping.mock.calls.at(-1)![0].classes!;
    grouping.mockRestore();
    // Saved documents labelled by their class, the new ones placed by hash.
    expect(Array.from(classes.label, (l, d) => `${merged.docs.paths[d]} ${l < 0 ? 'placed' : 'known'}`)).toEqual(['e/0-copy-of-a.txt placed', 'e/a.txt known', 'e/b.txt known', 'e/c-copy-of-a.txt known', 'e/d.txt placed']);
    expect(Array.from(merged.representative)).toEqual([0, 0, 2, 0, 4]);
    expect(csvOf(merged)).toBe(csvOf((await scan(new Map([...saved, ...read]))).result));
  });

  it('finds a new excerpt inside a saved document and a new whole around a saved excerpt', async () => {
    const saved = new Map([['f/whole.txt', TEXTS[0]!], ['f/part.txt', excerptOf(TEXTS[1]!)], ['f/other.txt', TEXTS[2]!]]);
    const before = await scan(saved);
    const beforePart: CorpusPart = { result: before.result, storageIds: Uint32Array.from(before.result.docs.paths, (_, i) => i) as StorageIds, search: before.corpus };
    const read = new Map([['f/new-excerpt.txt', excerptOf(TEXTS[0]!)], ['f/new-whole.txt', TEXTS[1]!]]);
    const own = await scan(read);
    const ownPart: CorpusPart = { result: own.result, storageIds: Uint32Array.from(own.result.docs.paths, (_, i) => 1000 + i) as StorageIds, search: own.corpus };
    const options = { settings: own.result.settings, k: K, similarityThreshold: own.result.similarityThreshold, grouping: own.result.grouping, containmentThreshold: own.result.containmentThreshold };
    const merged = (await mergeCorpus(workers, new AbortController().signal, beforePart, ownPart, options)).grouped.result;
    const name = (d: number) => merged.docs.paths[d];
    const c = merged.contained!;
    expect(Array.from({ length: c.count }, (_, i) => `${name(c.inner[i])} in ${name(c.outer[i])}`).sort()).toEqual(['f/new-excerpt.txt in f/whole.txt', 'f/part.txt in f/new-whole.txt']);
    expect(csvOf(merged)).toBe(csvOf((await scan(new Map([...saved, ...read]))).result));
  });


  it('finds contained pairs when the same files are scanned again with containment over a corpus saved without it (the page turning it on)', async () => {
    const files = new Map([['g/whole.txt', TEXTS[3]!], ['g/part.txt', excerptOf(TEXTS[3]!)], ['g/other.txt', TEXTS[4]!]]);
    const before = await scan(files, 0);
    expect(before.corpus.passages).toBeUndefined();
    const beforePart: CorpusPart = { result: before.result, storageIds: Uint32Array.from(before.result.docs.paths, (_, i) => i) as StorageIds, search: before.corpus };
    const own = await scan(files);
    const ownPart: CorpusPart = { result: own.result, storageIds: Uint32Array.from(own.result.docs.paths, (_, i) => 1000 + i) as StorageIds, search: own.corpus };
    const options = { settings: own.result.settings, k: K, similarityThreshold: own.result.similarityThreshold, grouping: own.result.grouping, containmentThreshold: 0.9 };
    const merged = (await mergeCorpus(workers, new AbortController().signal, beforePart, ownPart, options)).grouped.result;
    const c = merged.contained!;
    expect(Array.from({ length: c.count }, (_, i) => `${merged.docs.paths[c.inner[i]]} in ${merged.docs.paths[c.outer[i]]}`)).toEqual(['g/part.txt in g/whole.txt']);
  });

  it('finds a new excerpt inside a saved document of a corpus saved without containment, the saved files not scanned again (their passages from their feature sets)', async () => {
    const saved = new Map([['h/whole.txt', TEXTS[5]!], ['h/part.txt', excerptOf(TEXTS[6]!)], ['h/other.txt', TEXTS[6]!]]);
    const before = await scan(saved, 0);
    expect(before.corpus.passages).toBeUndefined();
    const beforePart: CorpusPart = { result: before.result, storageIds: Uint32Array.from(before.result.docs.paths, (_, i) => i) as StorageIds, search: before.corpus };
    // Only the new file is read: the saved ones stand as they were saved.
    const read = new Map([['h/new-excerpt.txt', excerptOf(TEXTS[5]!)]]);
    const own = await scan(read);
    const ownPart: CorpusPart = { result: own.result, storageIds: Uint32Array.from(own.result.docs.paths, (_, i) => 1000 + i) as StorageIds, search: own.corpus };
    const options = { settings: own.result.settings, k: K, similarityThreshold: own.result.similarityThreshold, grouping: own.result.grouping, containmentThreshold: 0.9 };
    const merged = (await mergeCorpus(workers, new AbortController().signal, beforePart, ownPart, options)).grouped.result;
    const c = merged.contained!;
    expect(Array.from({ length: c.count }, (_, i) => `${merged.docs.paths[c.inner[i]]} in ${merged.docs.paths[c.outer[i]]}`).sort()).toEqual(['h/new-excerpt.txt in h/whole.txt', 'h/part.txt in h/other.txt']);
    expect(csvOf(merged)).toBe(csvOf((await scan(new Map([...saved, ...read]))).result));
    // Every text's passages are kept with the result, for the next merge.
    expect(merged.passages?.docs.length).toBe(4);
  });

  it('ends with the pairs and the candidate histogram of a fresh scan, over 12 seeded changes', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const rand = mulberry32Unit(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
      // The saved folder: texts, exact copies and near copies.
      const saved = new Map<string, string>();
      for (let i = 0; i < 14; i++) {
        const base = pick(TEXTS);
        saved.set(`f/d${String(i).padStart(2, '0')}.txt`, rand() < 0.3 ? edit(base, i * 7) : base);
      }
      const before = await scan(saved);
      const beforePart: CorpusPart = { result: before.result, storageIds: Uint32Array.from(before.result.docs.paths, (_, i) => i) as StorageIds, search: before.corpus };
      // Changes: edits (some of an exact copy), deletions, new copies and near copies.
      const now = new Map(saved);
      const read = new Map<string, string>();
      const paths = [...saved.keys()];
      for (let c = 0; c < 4; c++) {
        const path = pick(paths);
        const r = rand();
        if (r < 0.3 && now.has(path)) now.delete(path);
        else if (r < 0.6 && now.has(path)) read.set(path, edit(now.get(path)!, Math.floor(rand() * 50)));
        else if (r < 0.75) read.set(`f/new${c}-${seed}.txt`, rand() < 0.5 ? now.get(path) ?? pick(TEXTS) : edit(pick(TEXTS), c));
        // An excerpt of a saved text, or a saved text with another appended: contained documents.
        else if (r < 0.88) read.set(`f/excerpt${c}-${seed}.txt`, excerptOf(now.get(path) ?? pick(TEXTS)));
        else read.set(`f/longer${c}-${seed}.txt`, `${now.get(path) ?? pick(TEXTS)} ${pick(TEXTS)}`);
      }
      for (const [path, text] of read) now.set(path, text);
      const own = await scan(read);
      const ownPart: CorpusPart = { result: own.result, storageIds: Uint32Array.from(own.result.docs.paths, (_, i) => 1000 + i) as StorageIds, search: own.corpus };
      const options = { settings: own.result.settings, k: K, similarityThreshold: own.result.similarityThreshold, grouping: own.result.grouping, containmentThreshold: own.result.containmentThreshold };
      const sync = { whole: true as const, listed: [...now.keys()].sort() };
      const merged = await mergeCorpus(workers, new AbortController().signal, beforePart, ownPart, options, sync);
      const fresh = await scan(now);
      expect(csvOf(merged.grouped.result), `seed ${seed}`).toBe(csvOf(fresh.result));
      expect([...merged.grouped.result.histogram], `seed ${seed}`).toEqual([...fresh.result.histogram]);
    }
  });
});
