import { describe, expect, it } from 'vitest';
import { largestFirst, postingRuns, sharedPassages } from '../../../../src/core/groups/passage-index.ts';
import type { PackedSets } from '../../../../src/core/groups/packed-sets.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const SEED = Number(process.env.SIMSIFT_PASSAGE_SEED ?? Date.now() % 2 ** 31);

/** Random sampled passages of `n` documents (some with none), drawn from a pool so many are shared, and random sizes (some unknown). */
function randomPassages(random: () => number, n: number, pool: number, keyBits: number): { passages: PackedSets; sizes: Uint32Array } {
  const keys = Array.from({ length: pool }, () => (keyBits === 0 ? 0 : ((random() >>> (32 - keyBits)) << 3) >>> 0));
  const docs: number[] = [];
  const offsets = [0];
  const all: number[] = [];
  for (let d = 0; d < n; d++) {
    if (random() % 5 === 0) continue;
    const set = Uint32Array.from(new Set(Array.from({ length: random() % 12 }, () => keys[random() % pool]))).sort();
    docs.push(d);
    all.push(...set);
    offsets.push(all.length);
  }
  const sizes = Uint32Array.from({ length: n }, () => (random() % 4 === 0 ? 0 : 1 + (random() % 6)));
  return { passages: { docs: Uint32Array.from(docs), offsets: Uint32Array.from(offsets), keys: Uint32Array.from(all) }, sizes };
}

/** The model: `largestFirst` as a plain comparison of documents, unknown sizes (0) first. */
const largerFirst = (sizes: Uint32Array | undefined) => (x: number, y: number) => {
  const sx = sizes && sizes[x] > 0 ? sizes[x] : Infinity;
  const sy = sizes && sizes[y] > 0 ? sizes[y] : Infinity;
  return sx === sy ? x - y : sy > sx ? 1 : -1;
};

/**
 * The model of `sharedPassages`: passages of two documents or more, by (holders, first holder in
 * `largerFirst` order, key), each one's holders in that order, and each document's ranks.
 */
function model(n: number, passages: PackedSets, sizes?: Uint32Array) {
  const holders = new Map<number, number[]>();
  passages.docs.forEach((d, i) => {
    for (const key of passages.keys.subarray(passages.offsets[i], passages.offsets[i + 1])) holders.set(key, [...(holders.get(key) ?? []), d]);
  });
  const order = largerFirst(sizes);
  for (const docs of holders.values()) docs.sort(order);
  const runs = [...holders].filter(([, docs]) => docs.length > 1).sort(([ka, a], [kb, b]) => a.length - b.length || order(a[0], b[0]) || ka - kb);
  const runDocs = runs.map(([, docs]) => docs);
  const lists = Array.from({ length: n }, (_, d) => runs.flatMap(([, docs], rank) => (docs.includes(d) ? [rank] : [])));
  return { runDocs, lists, passages: holders.size };
}

describe('postingRuns', () => {
  it(`finds the keys held by two documents or more, in key order, each key's documents in the order given, for keys of any width (seed ${SEED}; SIMSIFT_PASSAGE_SEED to repeat)`, () => {
    const random = mulberry32(SEED);
    // (documents, bits): the top digit takes all of a narrow key, else buckets sorted by one or two digits
    // below it; 1,500 documents fill buckets of about a hundred.
    for (const [n, bits] of [[150, 0], [150, 1], [150, 9], [150, 12], [150, 23], [150, 29], [1500, 32]]) {
      const { passages } = randomPassages(random, n, 1 + (random() % (n + 50)), bits);
      // A shuffled document order, as largestFirst gives one.
      const order = Uint32Array.from(passages.docs.keys());
      for (let i = order.length - 1; i > 0; i--) {
        const j = random() % (i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      const flat = Array.from(order).flatMap((i) => Array.from(passages.keys.subarray(passages.offsets[i], passages.offsets[i + 1]), (key) => [key, passages.docs[i]]));
      const expected = flat.map((p, at) => [...p, at]).sort((x, y) => x[0] - y[0] || x[2] - y[2]);
      // The runs of one key (two postings or more), in key order: their lengths and documents.
      const lengths: number[] = [];
      const docs: number[] = [];
      let distinct = 0;
      for (let i = 0; i < expected.length; ) {
        let j = i + 1;
        while (j < expected.length && expected[j][0] === expected[i][0]) j++;
        distinct++;
        if (j - i > 1) {
          lengths.push(j - i);
          docs.push(...expected.slice(i, j).map((p) => p[1]));
        }
        i = j;
      }
      const keysBefore = passages.keys.slice();
      const got = postingRuns(passages, order);
      // The spare memory is free: written over, it leaves the runs as they were.
      expect(got.spare.length).toBe(got.docs.length);
      got.spare.fill(0xffffffff);
      expect({ lengths: Array.from(got.lengths), docs: Array.from(got.docs), runs: got.runs, distinct: got.distinct }, `seed ${SEED}, ${bits} bits`).toEqual({ lengths, docs, runs: lengths.length, distinct });
      expect(Array.from(passages.keys), `seed ${SEED}, ${bits} bits: keys only read`).toEqual(Array.from(keysBefore));
    }
    // The top bit set: keys are unsigned.
    const passages = { docs: Uint32Array.of(0, 1), offsets: Uint32Array.of(0, 3, 5), keys: Uint32Array.of(0, 8, 0xfffffff8, 8, 0x80000000) };
    const got = postingRuns(passages, Uint32Array.of(1, 0));
    expect([got.runs, got.distinct, ...got.lengths, ...got.docs]).toEqual([1, 4, 2, 1, 0]);
  });
});

describe('largestFirst', () => {
  it('orders documents by size descending, unknown sizes (0) first, then by document', () => {
    const docs = Uint32Array.from([0, 2, 3, 5, 6, 9]);
    const sizes = Uint32Array.from([4, 0, 7, 4, 0, 9, 0, 0, 0, 4]);
    expect(Array.from(largestFirst(docs, sizes), (i) => docs[i])).toEqual([6, 5, 2, 0, 3, 9]);
    expect(Array.from(largestFirst(docs))).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('sharedPassages', () => {
  it(`lays out the shared passages rarest first, then by their largest document, each one's documents largest first, and each document's ranks in order (seed ${SEED})`, () => {
    const random = mulberry32(SEED);
    for (let c = 0; c < 30; c++) {
      const n = 1 + (random() % 30);
      const { passages, sizes } = randomPassages(random, n, 1 + (random() % 40), c % 2 ? 29 : 6);
      const withSizes = c % 3 ? sizes : undefined;
      const want = model(n, passages, withSizes);
      // Every other case its keys in shared memory (the page's copy: read, never written).
      const inShared = c % 2 === 0;
      const keys = inShared ? new Uint32Array(new SharedArrayBuffer(4 * passages.keys.length)) : passages.keys.slice();
      if (inShared) keys.set(passages.keys);
      const got = sharedPassages(n, { ...passages, keys }, withSizes);
      if (inShared) expect(Array.from(keys), `seed ${SEED}, case ${c}: shared keys left as they were`).toEqual(Array.from(passages.keys));
      const runDocs = Array.from({ length: got.runStart.length - 1 }, (_, r) => Array.from(got.docOf.subarray(got.runStart[r], got.runStart[r + 1])));
      const lists = Array.from({ length: n }, (_, d) => Array.from(got.docRuns.subarray(got.runsOfDoc[d], got.runsOfDoc[d + 1])));
      expect({ runDocs, lists, passages: got.passages }, `seed ${SEED}, case ${c}`).toEqual(want);
      expect(got.postings).toBe(passages.keys.length);
    }
  });
});
