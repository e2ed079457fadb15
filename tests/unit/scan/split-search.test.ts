/**
 * The scan's candidate search split by tables over the index worker and the ingest workers
 * (scan/split-search.ts, workers/table-search.ts): on seeded fingerprints with planted near pairs and
 * duplicates it finds exactly the single-thread search's candidates, in the same order, for 1..4
 * parts, with queries and known Jaccards too; the ingest workers do take ranges; and the pair limit
 * holds for the parts' sum (one shared counter) or per part (its share) where memory is not shared.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PairLimitError, allPairs } from '../../../src/core/index/all-pairs.ts';
import { blockLayout, chooseBlocks } from '../../../src/core/index/block-layout.ts';
import { concatPairLists, sortPairs } from '../../../src/core/index/pair-list.ts';
import { searchCandidatesSplit } from '../../../src/scan/split-search.ts';
import { indexApi, searchCandidates, type CandidateSearchInput, type IndexApi, type KnownPairs } from '../../../src/workers/index-api.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { pairsApi, type TableRangeRequest } from '../../../src/workers/pairs-api.ts';
import { BROWSER_READ_LIMIT, type ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { searchTableRanges } from '../../../src/workers/table-search.ts';
import { createWorkerBridge } from '../../../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../../../src/workers/worker-pool.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';
import { plantedSet } from '../core/index/test-fingerprints.ts';

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
