import { describe, expect, it, vi } from 'vitest';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { inFolder, inThreadWorkers as workers } from './in-thread-workers.ts';
import { containmentChunk, inChunks, measuringLimits, type ChunkLimits } from '../../../src/scan/contained-search.ts';
import { measuringOrder } from '../../../src/scan/containment-counts.ts';
import type { ContainmentCandidates } from '../../../src/core/groups/contained-pairs.ts';
import type { ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';

// measuringOrder as it is, counting its calls: when the stage orders its pairs.
const ordering = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../../src/scan/containment-counts.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/scan/containment-counts.ts')>();
  return { ...original, measuringOrder: (...args: Parameters<typeof original.measuringOrder>) => (ordering.calls++, original.measuringOrder(...args)) };
});

/** A 120-word text, made unique by `seed`. */
function text(seed: number): string {
  return Array.from({ length: 120 }, (_, i) => `w${(seed * 7919 + i * 104729) % 100003}`).join(' ');
}

/** The ingest API, recording every pair it measures, by path: Jaccards (verification) and containment counts. */
function recording() {
  const jaccards = new Set<string>();
  const containment: string[] = [];
  const named = (items: { name: string }[], pairs: { a: Uint32Array; b: Uint32Array; count: number }) =>
    Array.from({ length: pairs.count }, (_, p) => [items[pairs.a[p]].name, items[pairs.b[p]].name].sort().join(' ~ '));
  const api = {
    ...ingestApi,
    verifyPairs(...args: Parameters<IngestApi['verifyPairs']>) {
      for (const pair of named(args[0], args[1])) jaccards.add(pair);
      return ingestApi.verifyPairs(...args);
    },
    measureContainment(...args: Parameters<IngestApi['measureContainment']>) {
      containment.push(...named(args[0], args[1]));
      return ingestApi.measureContainment(...args);
    },
  };
  return { api, jaccards, containment };
}

describe('containment stage: what it measures', () => {
  it('never measures again a pair the near-duplicate stage measured: its count comes from the Jaccard and the sizes', async () => {
    // Excerpts of nearly the whole with a few words changed: close fingerprints (verified at k 16) and
    // contained at 0.9 with a Jaccard below 0.8, or near-duplicates.
    const words = [text(41), text(42), text(43), text(44)].join(' ').split(' ');
    const files = [inFolder('z/whole.txt', words.join(' ')), inFolder('z/other.txt', text(49))];
    for (const [share, every] of [[0.85, 40], [0.9, 30], [0.95, 25], [0.97, 20], [0.9, 50], [0.95, 40]]) {
      const cut = words.slice(0, Math.floor(words.length * share)).map((w, i) => (i % every === 7 ? `x${i}` : w));
      files.push(inFolder(`z/e-${share}-${every}.txt`, cut.join(' ')));
    }
    const { api, jaccards, containment } = recording();
    const store = createScanStore({ containmentThreshold: 0.9, k: 16 });
    await createScanSession(store, workers(api)).start({ kind: 'file-list', files });
    const r = store.getSnapshot().result!;
    const c = r.contained!;
    const contained = Array.from({ length: c.count }, (_, i) => [r.docs.paths[c.inner[i]], r.docs.paths[c.outer[i]]].sort().join(' ~ '));
    // The case is there: contained pairs whose Jaccard the near-duplicate stage measured.
    expect(contained.filter((pair) => jaccards.has(pair)).length).toBeGreaterThanOrEqual(2);
    expect(containment.filter((pair) => jaccards.has(pair))).toEqual([]);
    expect(contained).toContain('z/e-0.85-40.txt ~ z/whole.txt');
  });

  it('orders the pairs to measure while the near-duplicates are verified, not after', async () => {
    const words = [text(51), text(52), text(53), text(54)].join(' ').split(' ');
    const files = [inFolder('y/whole.txt', words.join(' '))];
    for (const [share, every] of [[0.85, 40], [0.97, 20]]) files.push(inFolder(`y/e-${share}.txt`, words.slice(0, Math.floor(words.length * share)).map((w, i) => (i % every === 7 ? `x${i}` : w)).join(' ')));
    // Verification held until the order is made (or a second has passed).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let verifying = false;
    const api = {
      ...ingestApi,
      async verifyPairs(...args: Parameters<IngestApi['verifyPairs']>) {
        verifying = true;
        await held;
        return ingestApi.verifyPairs(...args);
      },
    };
    const store = createScanStore({ containmentThreshold: 0.9, k: 16 });
    const before = ordering.calls;
    const scan = createScanSession(store, workers(api)).start({ kind: 'file-list', files });
    try {
      await vi.waitFor(() => expect([verifying, ordering.calls - before]).toEqual([true, 1]), { timeout: 1000, interval: 5 });
    } finally {
      release();
      await scan;
    }
    expect(ordering.calls - before).toBe(1);
    expect(store.getSnapshot().result!.contained!.count).toBeGreaterThanOrEqual(1);
  });
});

/** Containment candidates from (inner, outer) pairs, sorted as the candidate stage gives them, each pair once. */
function candidatesOf(pairs: [number, number][]): ContainmentCandidates {
  const keys = [...new Set(pairs.map(([a, b]) => a * 1e6 + b))].sort((x, y) => x - y);
  return { inner: Uint32Array.from(keys, (k) => Math.floor(k / 1e6)), outer: Uint32Array.from(keys, (k) => k % 1e6), count: keys.length };
}

/** The chunks `measure` sends for `order`: each chunk's documents and its candidates, in order. */
function chunksOf(candidates: ContainmentCandidates, order: ArrayLike<number>, limits: ChunkLimits): { ids: number[]; index: number[] }[] {
  const chunks: { ids: number[]; index: number[] }[] = [];
  for (let from = 0; from < order.length; ) {
    const { ids, pairs, index, next } = containmentChunk(candidates, order, from, limits, chunks.length);
    // Local ids name the chunk's documents.
    let wrong = 0;
    for (let i = 0; i < pairs.count; i++) wrong += +(ids[pairs.a[i]] !== candidates.inner[index[i]] || ids[pairs.b[i]] !== candidates.outer[index[i]]);
    expect(wrong).toBe(0);
    chunks.push({ ids, index });
    from = next;
  }
  // Every candidate once, in order (counted: toEqual over thousands of numbers cost more than the cutting).
  const all = chunks.flatMap((c) => c.index);
  let misplaced = +(all.length !== order.length);
  for (let i = 0; i < order.length; i++) misplaced += +(all[i] !== order[i]);
  expect(misplaced).toBe(0);
  return chunks;
}

describe('containment measuring chunks', () => {
  it('cuts a small job, one dense web of pairs, into a chunk a worker: each set decoded at most once a worker', () => {
    // 100 navigation pages (500 features) each inside 40 of 500 pages (2,000 features): one component in
    // which chunks of 256 documents brought most sets back once a pair.
    const random = mulberry32(3917);
    const pairs: [number, number][] = [];
    for (let a = 0; a < 100; a++) for (let k = 0; k < 40; k++) pairs.push([a, 100 + (random() % 500)]);
    const candidates = candidatesOf(pairs);
    const sizes = Uint32Array.from({ length: 600 }, (_, d) => (d < 100 ? 500 : 2000));
    const todo = Array.from({ length: candidates.count }, (_, p) => p);
    const order = measuringOrder(candidates, todo, 600);
    const chunks = chunksOf(candidates, order, measuringLimits(order.length, 2, sizes));
    expect(chunks.length).toBe(2);
    const decodes = chunks.reduce((sum, c) => sum + c.ids.length, 0);
    expect(decodes).toBeLessThanOrEqual(2 * 600);
  });

  it('keeps a large job’s chunks within the bounds on keys decoded and documents read again (seeded)', () => {
    const random = mulberry32(3923);
    for (let t = 0; t < 6; t++) {
      const n = 50 + (random() % 400);
      const sizes = Uint32Array.from({ length: n }, () => (random() % 4 === 0 ? 0 : random() % (1 << 21)));
      const candidates = candidatesOf(Array.from({ length: random() % 1500 }, () => [random() % n, random() % n] as [number, number]).filter(([a, b]) => a !== b));
      const order = Array.from({ length: candidates.count }, (_, p) => p);
      const limits = measuringLimits(order.length, 1 + (random() % 4), sizes);
      const largest = Math.max(...sizes);
      let over = 0;
      chunksOf(candidates, order, limits).forEach(({ ids, index }, c) => {
        const first = c < limits.firstChunks;
        // A chunk closes once over a bound: its last pair brought two documents at most.
        over += +(ids.reduce((sum, d) => sum + sizes[d], 0) >= (first ? Math.ceil(limits.keys / 8) : limits.keys) + 2 * largest);
        over += +(ids.filter((d) => sizes[d] === 0).length > limits.reads + 1);
        over += +(index.length > (first ? limits.firstPairs : limits.pairs));
      });
      expect(over, `case ${t}`).toBe(0);
    }
  });

  it('starts a large job with one small chunk a worker, the rest in a chunk a worker after them', () => {
    // 9,000 pairs among 3,000 documents, 2 workers: small sets close chunks on pairs, large ones on keys.
    const random = mulberry32(3931);
    const candidates = candidatesOf(Array.from({ length: 9000 }, () => [random() % 3000, random() % 3000] as [number, number]).filter(([a, b]) => a !== b));
    const order = Array.from({ length: candidates.count }, (_, p) => p);
    const first = Math.ceil(Math.ceil(order.length / 2) / 8);
    const small = chunksOf(candidates, order, measuringLimits(order.length, 2, new Uint32Array(3000).fill(100)));
    expect(small.map((c) => c.index.length)).toEqual([first, first, Math.ceil((order.length - 2 * first) / 2), Math.floor((order.length - 2 * first) / 2)]);
    const sizes = new Uint32Array(3000).fill(20000);
    const keys = chunksOf(candidates, order, measuringLimits(order.length, 2, sizes)).map((c) => c.ids.reduce((sum, d) => sum + sizes[d], 0));
    // The first two close at an eighth of the keys a chunk may decode, the others at all of it.
    expect(keys.slice(0, 2).every((k) => k >= (1 << 22) / 8 && k < (1 << 22) / 8 + 2 * 20000)).toBe(true);
    expect(keys.slice(2, -1).every((k) => k >= 1 << 22)).toBe(true);
  });

  it('cuts the next chunk only once the last one is loaded and sent: a worker does not wait for the copies of all the chunks in flight', async () => {
    const events: string[] = [];
    const workers = { ingest: { size: 2 } } as ScanWorkers;
    await inChunks(workers, new AbortController().signal, 5, (from, c) => {
      events.push(`cut ${c}`);
      const loaded = Promise.resolve();
      const task = loaded.then(() => void events.push(`sent ${c}`));
      return { next: from + 1, task, loaded };
    });
    expect(events).toEqual([0, 1, 2, 3, 4].flatMap((c) => [`cut ${c}`, `sent ${c}`]));
  });
});
