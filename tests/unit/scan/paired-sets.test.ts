/**
 * Kept feature sets once the candidates are known (scan/paired-sets.ts, #38): held to a model over
 * seeded random corpora: a document in some pair keeps its set word for word, in one new buffer (none
 * of the batch buffers stays referenced), the others' sets go and their sizes stay known, a saved
 * size array is not written, and the sizes every later step sees are the ones it saw before.
 */
import { describe, expect, it } from 'vitest';
import { encodeFeatureSet } from '../../../src/core/groups/feature-set-codec.ts';
import { keepPairedSets } from '../../../src/scan/paired-sets.ts';
import { keptSetSizes } from '../../../src/scan/containment-counts.ts';
import { knownSetSize } from '../../../src/scan/verify-candidates.ts';
import type { SearchCorpus } from '../../../src/scan/search-corpus.ts';
import type { PairList } from '../../../src/core/index/pair-list.ts';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import { plainScan, type ShownCorpus } from '../../../src/scan/scan-run.ts';
import type { ScanResult } from '../../../src/scan/scan-result.ts';
import { inFolder, inThreadWorkers as workers } from './in-thread-workers.ts';

/** mulberry32: a small seeded generator. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A corpus of `n` docs whose kept sets are views of a few shared batch buffers, as the ingest output holds them. */
function corpusOf(n: number, rnd: () => number, saved: boolean): { corpus: SearchCorpus; batches: ArrayBuffer[] } {
  const keptSets = new Array<Uint32Array | undefined>(n);
  const batches: ArrayBuffer[] = [];
  for (let from = 0; from < n; from += 8) {
    const encoded: Array<[number, Uint32Array]> = [];
    for (let d = from; d < Math.min(n, from + 8); d++) {
      if (rnd() < 0.2) continue; // over the budget, or skipped: no set
      const keys = new Set<number>();
      const size = 1 + Math.floor(rnd() * 40);
      while (keys.size < size) keys.add(Math.floor(rnd() * 2 ** 32));
      encoded.push([d, encodeFeatureSet(Uint32Array.from([...keys].sort((x, y) => x - y)))]);
    }
    const words = new Uint32Array(encoded.reduce((w, [, e]) => w + e.length, 0));
    batches.push(words.buffer);
    let at = 0;
    for (const [d, e] of encoded) {
      words.set(e, at);
      keptSets[d] = words.subarray(at, at + e.length);
      at += e.length;
    }
  }
  const setSizes = saved ? Uint32Array.from({ length: n }, () => (rnd() < 0.5 ? Math.floor(rnd() * 50) : 0)) : undefined;
  const corpus = { docs: { count: n }, keptSets, ...(setSizes ? { setSizes } : {}) } as unknown as SearchCorpus;
  return { corpus, batches };
}

function pairsOf(n: number, count: number, rnd: () => number): PairList {
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  for (let p = 0; p < count; p++) {
    a[p] = Math.floor(rnd() * n);
    b[p] = Math.floor(rnd() * n);
  }
  return { a, b, distance: new Uint8Array(count), count };
}

describe('keepPairedSets', () => {
  it('keeps exactly the paired documents\' sets, copied out of the batch buffers, and every size known before', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const rnd = random(seed);
      const n = 1 + Math.floor(rnd() * 60);
      const { corpus, batches } = corpusOf(n, rnd, rnd() < 0.3);
      const pairs = pairsOf(n, Math.floor(rnd() * n), rnd);
      const holder = corpus.keptSets!;
      const before = holder.map((s) => (s ? Array.from(s) : undefined));
      const savedBefore = corpus.setSizes ? Uint32Array.from(corpus.setSizes) : undefined;
      const savedArray = corpus.setSizes;
      const boundSizes = Array.from({ length: n }, (_, d) => knownSetSize(corpus, d));
      const containmentSizes = keptSetSizes(corpus);
      const paired = new Set<number>();
      for (let p = 0; p < pairs.count; p++) paired.add(pairs.a[p]).add(pairs.b[p]);
      const kept = keepPairedSets(corpus, pairs);
      const at = `seed ${seed}`;
      expect(corpus.keptSets, at).toBe(holder); // in place: the scan's own reference lets go too
      let words = 0;
      const expected: Array<number[] | string> = [];
      const actual: Array<number[] | string> = [];
      for (let d = 0; d < n; d++) {
        const keeps = before[d] && paired.has(d);
        expected.push(keeps ? before[d]! : 'dropped');
        actual.push(holder[d] ? Array.from(holder[d]!) : 'dropped');
        if (keeps && batches.includes(holder[d]!.buffer as ArrayBuffer)) actual.push(`doc ${d} still in its batch buffer`);
        if (keeps) words += before[d]!.length;
      }
      expect(actual, at).toEqual(expected);
      expect(kept, at).toEqual({ kept: before.filter((s, d) => s && paired.has(d)).length, keptWords: words, dropped: before.filter((s, d) => s && !paired.has(d)).length });
      expect(new Set(holder.filter(Boolean).map((s) => s!.buffer)).size, at).toBeLessThanOrEqual(1);
      expect(Array.from({ length: n }, (_, d) => knownSetSize(corpus, d)), at).toEqual(boundSizes);
      expect(keptSetSizes(corpus), at).toEqual(containmentSizes);
      if (savedArray) expect(savedArray, at).toEqual(savedBefore);
    }
  });
});

/** A 120-word text, made unique by `seed`. */
function text(seed: number): string {
  return Array.from({ length: 120 }, (_, i) => `w${(seed * 7919 + i * 104729) % 100003}`).join(' ');
}

describe('a scan\'s kept feature sets after its search', () => {
  it('holds only the candidates\' sets; a wider regroup reads the others again and finds what a fresh scan finds', async () => {
    const base = text(1);
    const files = () => [inFolder('c/a.txt', base), inFolder('c/near.txt', base.replace('w', 'changed w')), ...[2, 3, 4, 5].map((s) => inFolder(`c/o${s}.txt`, text(s)))];
    const store = createScanStore({ k: 6 });
    let shown: ShownCorpus | null = null;
    const session = createScanSession(store, workers(), async (scan) => (shown = await plainScan(scan)));
    await session.start({ kind: 'file-list', files: files() });
    const { corpus, candidates } = shown!;
    const held = corpus.keptSets!.flatMap((s, d) => (s ? [corpus.docs.paths[d]] : []));
    expect(candidates.pairs.count).toBe(1);
    expect(held.sort()).toEqual(['c/a.txt', 'c/near.txt']);

    await session.regroup({ k: 64 });
    const wide = store.getSnapshot().result!;
    expect(wide.verification.docsRead).toBe(4);
    const fresh = createScanStore({ k: 64 });
    await createScanSession(fresh, workers()).start({ kind: 'file-list', files: files() });
    const pairsOf = (r: ScanResult) => Array.from({ length: r.verified.count }, (_, p) => `${r.docs.paths[r.verified.a[p]]}-${r.docs.paths[r.verified.b[p]]}:${r.verified.jaccard[p]}`);
    expect(pairsOf(wide)).toEqual(pairsOf(fresh.getSnapshot().result!));
    expect(wide.verification.measured + wide.verification.sizeRejected).toBe(fresh.getSnapshot().result!.verification.measured + fresh.getSnapshot().result!.verification.sizeRejected - 1);
  });
});
