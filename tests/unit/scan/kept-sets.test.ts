import { describe, expect, it } from 'vitest';
import { decodeFeatureSet, encodeFeatureSet } from '../../../src/core/groups/feature-set-codec.ts';
import { KeptSetStore } from '../../../src/scan/kept-sets.ts';
import type { KeptSets } from '../../../src/core/groups/packed-sets.ts';

/** Document d's feature set: sorted distinct keys, a function of d (sizes from 1 to ~3,000: some sets span far apart in a batch). */
function keysOf(d: number): Uint32Array {
  const n = 1 + ((d * 7919) % 3000);
  const keys = new Uint32Array(n);
  let k = (d * 2654435761) >>> 8;
  for (let i = 0; i < n; i++) keys[i] = k += 1 + ((i * 31 + d) % 97);
  return keys;
}

/** One batch's kept sets as an ingest worker packs them: `docs` are indexes into the batch. */
function packed(batch: number[], keep: number[]): KeptSets {
  const sets = keep.map((i) => encodeFeatureSet(keysOf(batch[i]!)));
  const offsets = new Uint32Array(sets.length + 1);
  sets.forEach((s, i) => (offsets[i + 1] = offsets[i]! + s.length));
  const words = new Uint32Array(offsets[sets.length]!);
  sets.forEach((s, i) => words.set(s, offsets[i]));
  return { docs: Uint32Array.from(keep), offsets, words };
}

/** The decoded set of `ids[i]` in a `load` result, or null when it has none. */
function setIn(loaded: KeptSets, i: number): number[] | null {
  const s = Array.from(loaded.docs).indexOf(i);
  return s < 0 ? null : Array.from(decodeFeatureSet(loaded.words.subarray(loaded.offsets[s], loaded.offsets[s + 1])));
}

describe('KeptSetStore', () => {
  // Three batches of doc ids (not in order), each keeping the sets of some of its documents.
  const batches = [
    [5, 0, 9, 2, 7],
    [1, 3, 8],
    [4, 6, 10, 11],
  ];
  const keeps = [[0, 1, 3, 4], [0, 2], [0, 1, 2, 3]];
  const store = new KeptSetStore(12);
  batches.forEach((batch, b) => store.add(batch, packed(batch, keeps[b]!)));
  const withSet = new Set(batches.flatMap((batch, b) => keeps[b]!.map((i) => batch[i]!)));

  it('knows which documents have a set, and their sizes and bytes without reading them', () => {
    for (let d = 0; d < 12; d++) {
      expect(store.has(d), `doc ${d}`).toBe(withSet.has(d));
      expect(store.size(d)).toBe(withSet.has(d) ? keysOf(d).length : 0);
      expect(store.byteLength(d)).toBe(withSet.has(d) ? encodeFeatureSet(keysOf(d)).byteLength : 0);
    }
    expect(store.kept).toBe(withSet.size);
    expect(store.has(12)).toBe(false);
  });

  it('reads back exactly the sets asked for, in any order, across batches, skipping documents without one', async () => {
    const ids = [11, 9, 3, 0, 1, 5, 10, 7, 2, 4];
    const loaded = await store.load(ids);
    expect(Array.from(loaded.docs)).toEqual(ids.map((d, i) => (withSet.has(d) ? i : -1)).filter((i) => i >= 0));
    ids.forEach((d, i) => expect(setIn(loaded, i), `doc ${d}`).toEqual(withSet.has(d) ? Array.from(keysOf(d)) : null));
    expect((await store.load([])).words.length).toBe(0);
  });

  it('keeps a batch put in a Blob by an ingest worker (keptInBlob) as it keeps one packed in memory', async () => {
    const batch = [2, 0, 1];
    const inMemory = packed(batch, [0, 2]);
    const sizes = Uint32Array.from([0, 2], (i) => keysOf(batch[i]!).length);
    const fromBlob = new KeptSetStore(3);
    fromBlob.add(batch, { docs: inMemory.docs, offsets: inMemory.offsets, sizes, blob: new Blob([inMemory.words as Uint32Array<ArrayBuffer>]) });
    const fromMemory = new KeptSetStore(3);
    fromMemory.add(batch, inMemory);
    for (let d = 0; d < 3; d++) expect([fromBlob.has(d), fromBlob.size(d), fromBlob.byteLength(d)]).toEqual([fromMemory.has(d), fromMemory.size(d), fromMemory.byteLength(d)]);
    expect(await fromBlob.load([0, 1, 2])).toEqual(await fromMemory.load([0, 1, 2]));
  });

  it('merges stores under new doc ids (a later store replacing an earlier one), sharing their sets', async () => {
    const other = new KeptSetStore(3);
    other.add([0, 1, 2], packed([20, 21, 22], [0, 2]));
    // Store docs 0..11 -> 11..0 minus doc 5; other's docs 0 and 2 -> 12 and 0 (replacing store's 11 there).
    const merged = KeptSetStore.merged(13, [
      [store, Array.from({ length: 12 }, (_, d) => (d === 5 ? -1 : 11 - d))],
      [other, [12, -1, 0]],
    ]);
    const loaded = await merged.load(Array.from({ length: 13 }, (_, d) => d));
    // (other's doc i carries the set of doc 20 + i as packed above.)
    const want = (d: number) => (d === 0 ? keysOf(22) : d === 12 ? keysOf(20) : d === 6 ? null : withSet.has(11 - d) ? keysOf(11 - d) : null);
    for (let d = 0; d < 13; d++) expect(setIn(loaded, d), `merged doc ${d}`).toEqual(want(d) && Array.from(want(d)!));
    expect(merged.kept).toBe(Array.from({ length: 13 }, (_, d) => want(d)).filter(Boolean).length);
    expect(merged.bytes).toBe(Array.from({ length: 13 }, (_, d) => merged.byteLength(d)).reduce((a, b) => a + b, 0));
  });
});
