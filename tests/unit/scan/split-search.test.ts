/**
 * The scan's candidate search split by tables over the index worker and the ingest workers
 * (scan/split-search.ts, workers/table-search.ts): on seeded fingerprints with planted near pairs and
 * duplicates it finds exactly the single-thread search's candidates, in the same order, for 1..4
 * parts, with queries and known Jaccards too; the ingest workers do take ranges; the pair limit
 * holds for the parts' sum (one shared counter) or per part (its share) where memory is not shared;
 * a whole scan verifies the same pairs (near, exact copies, rejected by size) with 1 part as with 3;
 * and with containment on, containment's candidate search starts on the index worker as soon as the
 * exact groups are known, the table search (its parts and their merge) kept off it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allPairs } from '../../../src/core/index/all-pairs.ts';
import { blockLayout } from '../../../src/core/index/block-layout.ts';
import { chooseBlocks } from '../../../src/core/index/search-cost.ts';
import { PairLimitError, concatPairLists, sortPairs } from '../../../src/core/index/pair-list.ts';
import { pairsCsvText } from '../../fixtures/pairs-csv.ts';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import type { ScanResult } from '../../../src/scan/scan-result.ts';
import { searchCandidatesSplit } from '../../../src/scan/split-search.ts';
import { indexApi, type IndexApi } from '../../../src/workers/index-api.ts';
import { searchCandidates, type CandidateSearchInput } from '../../../src/core/index/candidate-search.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { pairsApi, type TableRangeRequest } from '../../../src/workers/pairs-api.ts';
import { BROWSER_READ_LIMIT, type ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { searchTableRanges } from '../../../src/workers/table-search.ts';
import { createWorkerBridge } from '../../../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../../../src/workers/worker-pool.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';
import { plantedSet } from '../core/index/test-fingerprints.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';
import { inFolder } from './in-thread-workers.ts';
import type { KnownPairs } from '../../../src/core/index/pair-list.ts';

/** Which worker searched which tables. */
type Range = { worker: 'index' | 'ingest'; first: number; end: number };

/** The real APIs over comlink channels (two ingest workers), recording each table range they search. */
function recordingWorkers(ranges: Range[]): ScanWorkers {
  const recording = <T extends { pairsForTables: (r: TableRangeRequest) => unknown }>(api: T, worker: Range['worker']): T => ({
    ...api,
    pairsForTables(request: TableRangeRequest) {
      ranges.push({ worker, first: request.firstTable, end: request.endTable });
      return api.pairsForTables(request);
    },
  });
  return {
    ingest: createWorkerPool<IngestApi>(channelSpawner(recording(ingestApi, 'ingest')).spawn, 2),
    index: createWorkerBridge<IndexApi>(channelSpawner(recording(indexApi, 'index')).spawn),
    readLimit: BROWSER_READ_LIMIT,
  };
}

/** Representatives: every doc id but every fifth, ascending, with their fingerprints. */
function repsOf(fp: { hi: Uint32Array; lo: Uint32Array }): { reps: Uint32Array; hi: Uint32Array; lo: Uint32Array } {
  const ids = [...fp.hi.keys()].filter((d) => d % 5 !== 3);
  const reps = Uint32Array.from(ids);
  return { reps, hi: Uint32Array.from(ids, (d) => fp.hi[d]), lo: Uint32Array.from(ids, (d) => fp.lo[d]) };
}

function rows(list: { a: Uint32Array; b: Uint32Array; distance: Uint8Array; count: number }): [Uint32Array, Uint32Array, Uint8Array] {
  return [list.a.slice(0, list.count), list.b.slice(0, list.count), list.distance.slice(0, list.count)];
}

const signal = new AbortController().signal;

describe('the candidate search split by tables over the scan workers', { timeout: 120_000 }, () => {
  const cases = [
    { name: 'k = 6', fp: plantedSet(3000, 1200, 6, 38), k: 6 },
    // k = 16: tables share prefix blocks and the prefix groups are large (re-sorted on the last block).
    { name: 'k = 16', fp: plantedSet(1500, 700, 16, 3816), k: 16 },
  ];
  for (const { name, fp, k } of cases) {
    it(`finds allPairs' pairs in the same order for 1..4 parts (${name})`, async () => {
      const { reps, hi, lo } = repsOf(fp);
      const truth = sortPairs(allPairs(hi, lo, k));
      expect(truth.count).toBeGreaterThan(300);
      const expected = rows({ a: Uint32Array.from(truth.a.subarray(0, truth.count), (r) => reps[r]), b: Uint32Array.from(truth.b.subarray(0, truth.count), (r) => reps[r]), distance: truth.distance, count: truth.count });
      const tables = blockLayout(k, chooseBlocks(reps.length, k)).tables.length;
      for (const parts of [1, 2, 3, 4]) {
        const ranges: Range[] = [];
        const found = await searchCandidatesSplit(recordingWorkers(ranges), signal, { reps, hi, lo, k }, parts);
        expect(rows(found.candidates)).toEqual(expected);
        expect(Array.from(found.histogram).reduce((s, c) => s + c, 0)).toBe(truth.count);
        // One range a part, covering the tables in order; the first on the index worker, the rest on ingest workers.
        if (parts === 1) {
          expect(ranges).toEqual([]);
          continue;
        }
        expect(ranges).toHaveLength(parts);
        const sorted = [...ranges].sort((x, y) => x.first - y.first);
        expect(sorted[0]).toMatchObject({ worker: 'index', first: 0 });
        expect(sorted.at(-1)!.end).toBe(tables);
        for (let p = 1; p < parts; p++) expect(sorted[p]).toMatchObject({ worker: 'ingest', first: sorted[p - 1].end });
      }
    });
  }

  it('keeps the queries filter and the known Jaccards of the single-thread search', async () => {
    const fp = plantedSet(2500, 1000, 6, 9);
    const { reps, hi, lo } = repsOf(fp);
    const k = 6;
    // Half the docs are queries: too many to compare directly, so the tables are searched, then filtered.
    const queries = Uint8Array.from(fp.hi, (_, d) => d % 2);
    const all = searchCandidates({ reps, hi, lo, k });
    const known: KnownPairs = { a: new Uint32Array(0), b: new Uint32Array(0), jaccard: new Float64Array(0), count: 0 };
    const pick = [...all.candidates.a.keys()].filter((p) => p < all.candidates.count && p % 3 === 0);
    known.a = Uint32Array.from(pick, (p) => all.candidates.a[p]);
    known.b = Uint32Array.from(pick, (p) => all.candidates.b[p]);
    known.jaccard = Float64Array.from(pick, (p) => p / all.candidates.count);
    known.count = pick.length;
    const input: CandidateSearchInput = { reps, hi, lo, k, queries, known };
    const single = searchCandidates(input);
    expect(single.candidates.count).toBeGreaterThan(100);
    expect(single.candidates.count).toBeLessThan(all.candidates.count);
    for (const parts of [2, 3]) {
      const ranges: Range[] = [];
      const split = await searchCandidatesSplit(recordingWorkers(ranges), signal, input, parts);
      expect(ranges).toHaveLength(parts);
      expect(rows(split.candidates)).toEqual(rows(single.candidates));
      expect(split.jaccard).toEqual(single.jaccard);
      expect(split.histogram).toEqual(single.histogram);
    }
  });

  describe('the pair limit', () => {
    const fp = plantedSet(3000, 1500, 4, 77);
    const k = 4;
    const blocks = 6;
    const total = allPairs(fp.hi, fp.lo, k, { blocks }).count;
    const requests: TableRangeRequest[] = [];
    const run = (request: TableRangeRequest) => {
      requests.push(request);
      return Promise.resolve(pairsApi.pairsForTables(request));
    };
    afterEach(() => {
      requests.length = 0;
      delete (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
    });

    it('bounds the parts together through one shared counter where memory is shared', async () => {
      const found = await searchTableRanges(run, 3, fp.hi, fp.lo, k, blocks, total);
      expect(concatPairLists(found.parts).count).toBe(total);
      expect(requests.every((r) => r.hi.buffer instanceof SharedArrayBuffer && r.limit?.shared?.buffer instanceof SharedArrayBuffer)).toBe(true);
      // Each part alone stays under the bound: only the shared counter can stop the search.
      expect(Math.max(...found.parts.map((p) => p.count))).toBeLessThan(total - 1);
      await expect(searchTableRanges(run, 3, fp.hi, fp.lo, k, blocks, total - 1)).rejects.toBeInstanceOf(PairLimitError);
    });

    it('gives each part its share of the bound, and copies of the fingerprints, where it is not', async () => {
      (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated = false;
      const found = await searchTableRanges(run, 3, fp.hi, fp.lo, k, blocks, 3 * total);
      expect(concatPairLists(found.parts).count).toBe(total);
      expect(requests.map((r) => [r.hi.buffer instanceof SharedArrayBuffer, r.limit])).toEqual([0, 1, 2].map(() => [false, { limit: total }]));
      // Under a bound divisible by 3 and below the total, some part passes its third.
      const bound = 3 * Math.floor((total - 1) / 3);
      await expect(searchTableRanges(run, 3, fp.hi, fp.lo, k, blocks, bound)).rejects.toBeInstanceOf(PairLimitError);
    });
  });
});

/**
 * A seeded folder: texts of pseudo-words, each with a near copy (a few words changed), a copy cut to a
 * share of its words (some are candidates the size bound rejects) and, for some, exact copies elsewhere.
 */
function seededFolder(seed: number, texts: number): File[] {
  const rnd = mulberry32(seed);
  const vocab = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${(rnd() % 1000).toString(36)}`);
  const files: File[] = [];
  for (let t = 0; t < texts; t++) {
    const words = Array.from({ length: 150 + (rnd() % 400) }, () => vocab[Math.floor(((rnd() % 3000) * (rnd() % 3000)) / 3000)]);
    files.push(inFolder(`c/t${t}.txt`, words.join(' ')));
    const near = words.slice();
    for (let e = 0; e < 1 + (rnd() % 6); e++) near[rnd() % near.length] = vocab[rnd() % vocab.length];
    files.push(inFolder(`c/near/t${t}.txt`, near.join(' ')));
    const share = [0.95, 0.85, 0.78, 0.7, 0.6][t % 5];
    files.push(inFolder(`c/cut/t${t}.txt`, words.slice(0, Math.ceil(words.length * share)).join(' ')));
    if (t % 7 === 0) files.push(inFolder(`c/copy/t${t}.txt`, words.join(' ')));
  }
  return files;
}

/** The verified pairs with each member named by the first doc of its exact class (which copy was fingerprinted depends on timing). */
function canonicalPairs(r: ScanResult): string[] {
  const first = new Map<number, number>();
  for (let d = 0; d < r.docs.count; d++) if (r.representative[d] >= 0 && !first.has(r.representative[d])) first.set(r.representative[d], d);
  const name = (d: number) => first.get(r.representative[d]) ?? d;
  const v = r.verified;
  return Array.from({ length: v.count }, (_, p) => {
    const [a, b] = [name(v.a[p]), name(v.b[p])].sort((x, y) => x - y);
    return `${a}-${b}:${v.distance[p]}:${v.jaccard[p]}`;
  }).sort();
}

describe("a scan's verified pairs with the search in 1 part and in several", { timeout: 120_000 }, () => {
  it('are the same: near pairs, exact copies, pairs rejected by size, candidates and the CSV', async () => {
    const files = seededFolder(3838, 240);
    const scan = async (parts: number) => {
      const ranges: Range[] = [];
      const workers = { ...recordingWorkers(ranges), searchParts: parts };
      const store = createScanStore({ k: 16, kAuto: false, similarityThreshold: 0.8 });
      await createScanSession(store, workers).start({ kind: 'file-list', files });
      const r = store.getSnapshot().result!;
      return { r, ranges, csv: pairsCsvText(r.relation, r.docs.paths) };
    };
    const one = await scan(1);
    const v = one.r.verification;
    console.log(`${files.length} files: ${one.r.exactGroups.count} exact groups, ${v.candidates} candidates, ${v.sizeRejected} rejected by size, ${one.r.verified.count} verified, with 1 and 3 search parts (4 parts: the search alone, above)`);
    expect(one.ranges).toEqual([]);
    expect(one.r.exactGroups.count).toBeGreaterThan(10);
    expect(v.sizeRejected).toBeGreaterThan(10);
    expect(one.r.verified.count).toBeGreaterThan(200);
    expect(v.candidates).toBeGreaterThan(v.sizeRejected + one.r.verified.count);
    for (const parts of [3]) {
      const split = await scan(parts);
      expect(split.ranges.filter((x) => x.worker === 'ingest')).toHaveLength(parts - 1);
      const w = split.r.verification;
      expect([w.candidates, w.measured, w.sizeRejected, w.joinPairs]).toEqual([v.candidates, v.measured, v.sizeRejected, v.joinPairs]);
      expect(split.r.histogram).toEqual(one.r.histogram);
      expect(canonicalPairs(split.r)).toEqual(canonicalPairs(one.r));
      expect(split.r.exactGroups.count).toBe(one.r.exactGroups.count);
      expect(split.csv).toBe(one.csv);
    }
  });
});

describe("a scan's containment search beside the table search", { timeout: 120_000 }, () => {
  it('starts on the index worker once the exact groups are known, keeps the table search off it, and leaves the near-duplicates as they were', async () => {
    const files = seededFolder(3840, 50);
    const scan = async (containmentThreshold: number) => {
      const events: string[] = [];
      const on = <T extends object>(api: T, worker: string, names: string[]): T => {
        const out = { ...api } as Record<string, unknown>;
        for (const name of names) {
          const f = (api as Record<string, (...args: unknown[]) => unknown>)[name];
          out[name] = (...args: unknown[]) => (events.push(`${worker}:${name}`), f(...args));
        }
        return out as T;
      };
      const workers: ScanWorkers = {
        ingest: createWorkerPool<IngestApi>(channelSpawner(on(ingestApi, 'ingest', ['pairsForTables', 'searchCandidates', 'verifyPairs'])).spawn, 2),
        index: createWorkerBridge<IndexApi>(channelSpawner(on(indexApi, 'index', ['pairsForTables', 'searchCandidates', 'containmentCandidates'])).spawn),
        readLimit: BROWSER_READ_LIMIT,
        searchParts: 3,
      };
      const store = createScanStore({ k: 16, kAuto: false, similarityThreshold: 0.8, containmentThreshold });
      await createScanSession(store, workers).start({ kind: 'file-list', files });
      const r = store.getSnapshot().result!;
      return { r, events, csv: pairsCsvText(r.relation, r.docs.paths) };
    };
    const off = await scan(0);
    const on = await scan(0.9);
    expect(on.r.contained?.count).toBeGreaterThan(10);
    // Every table range and the merge on the ingest workers; containment's search asked before the merge.
    expect(on.events.filter((e) => e.startsWith('index:') && e !== 'index:containmentCandidates')).toEqual([]);
    expect(on.events.filter((e) => e === 'ingest:pairsForTables')).toHaveLength(3);
    expect(on.events.indexOf('index:containmentCandidates')).toBeLessThan(on.events.indexOf('ingest:searchCandidates'));
    expect(on.events.indexOf('index:containmentCandidates')).toBeLessThan(on.events.indexOf('ingest:verifyPairs'));
    // Containment off: the search as before, part 0 and the merge on the index worker.
    expect(off.events.filter((e) => e.startsWith('index:'))).toEqual(['index:pairsForTables', 'index:searchCandidates']);
    expect(on.csv).toBe(off.csv);
    expect(canonicalPairs(on.r)).toEqual(canonicalPairs(off.r));
  });
});
