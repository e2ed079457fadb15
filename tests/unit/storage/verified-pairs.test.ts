import { describe, expect, it } from 'vitest';
import { addBatch, clearCorpus, getCorpusSummary } from '../../../src/storage/corpus-repository.ts';
import type { NewDocument } from '../../../src/storage/corpus-repository.ts';
import { getVerifiedPairs, putVerifiedPairs } from '../../../src/storage/verified-pairs.ts';
import { pairsAtPositions } from '../../../src/corpus/position-pairs.ts';
import type { VerifiedPairs } from '../../../src/storage/verified-pairs.ts';
import { useFreshDatabase } from './storage-test-db.ts';
import type { StorageIds } from '../../../src/core/ids.ts';

useFreshDatabase();

function doc(id: number): NewDocument {
  return { id, path: `${id}.txt`, size: 1, lastModified: 0, contentHash: null, status: 'ok', hi: id, lo: id, words: 100, features: 0 };
}

const pairs: VerifiedPairs = {
  k: 12,
  threshold: 0.8,
  grouping: 'reference',
  a: Uint32Array.of(10, 11),
  b: Uint32Array.of(12, 30),
  distance: Uint8Array.of(3, 255),
  jaccard: Float32Array.of(0.8, 0.95),
  histogram: Uint32Array.of(0, 1, 0, 1),
  count: 2,
};

describe('verified pairs', () => {
  it('come back only while the corpus is at the revision they were saved for', async () => {
    await addBatch({ documents: [10, 11, 12].map(doc) });
    const { revision } = await getCorpusSummary();
    expect(await putVerifiedPairs(revision, pairs)).toBe(true);
    const back = await getVerifiedPairs();
    expect(back && [...back.a]).toEqual([10, 11]);
    expect(back && [...back.jaccard]).toEqual([...pairs.jaccard]);
    expect(back && [...back.distance]).toEqual([3, 255]);
    expect(back && [...back.histogram]).toEqual([0, 1, 0, 1]);
    expect(back && [back.k, back.grouping]).toEqual([12, 'reference']);
    // Any later write to the corpus makes them stale; a save for an old revision writes nothing.
    await addBatch({ documents: [doc(30)] });
    expect(await getVerifiedPairs()).toBeNull();
    expect(await putVerifiedPairs(revision, pairs)).toBe(false);
    expect(await getVerifiedPairs()).toBeNull();
  });

  it('keep the containment setting and the passages by stored id, and refuse damaged passages', async () => {
    await addBatch({ documents: [10, 11, 12].map(doc) });
    const { revision } = await getCorpusSummary();
    const passages = { docs: Uint32Array.of(10, 12), offsets: Uint32Array.of(0, 2, 3), keys: Uint32Array.of(8, 16, 24) };
    expect(await putVerifiedPairs(revision, { ...pairs, containment: 0.9, passages })).toBe(true);
    const back = (await getVerifiedPairs())!;
    expect(back.containment).toBe(0.9);
    expect([back.passages!.docs, back.passages!.offsets, back.passages!.keys].map((x) => [...x])).toEqual([[10, 12], [0, 2, 3], [8, 16, 24]]);
    await putVerifiedPairs(revision, { ...pairs, passages: { ...passages, offsets: Uint32Array.of(0, 3, 2) } });
    await expect(getVerifiedPairs()).rejects.toThrow(/saved passages/);
  });

  it('keep how their search decided its candidates (absent when saved without), and refuse damaged counts', async () => {
    await addBatch({ documents: [10, 11, 12].map(doc) });
    const { revision } = await getCorpusSummary();
    expect(await putVerifiedPairs(revision, pairs)).toBe(true);
    expect((await getVerifiedPairs())!.decisions).toBeUndefined();
    const decisions = { candidates: 22, sizeRejected: 6, sketchRejected: 1, decidedBefore: 3 };
    expect(await putVerifiedPairs(revision, { ...pairs, decisions })).toBe(true);
    expect((await getVerifiedPairs())!.decisions).toEqual(decisions);
    // More ruled out than there were candidates, or a count that is not whole: damage, said.
    await putVerifiedPairs(revision, { ...pairs, decisions: { candidates: 5, sizeRejected: 6, sketchRejected: 0 } });
    await expect(getVerifiedPairs()).rejects.toThrow(/verified pairs/);
    await putVerifiedPairs(revision, { ...pairs, decisions: { candidates: 5, sizeRejected: 0.5, sketchRejected: 0 } });
    await expect(getVerifiedPairs()).rejects.toThrow(/verified pairs/);
  });

  it('are dropped when the corpus is cleared', async () => {
    await addBatch({ documents: [10, 11, 12].map(doc) });
    await putVerifiedPairs((await getCorpusSummary()).revision, pairs);
    await clearCorpus();
    expect(await getVerifiedPairs()).toBeNull();
  });

  it('map to restored positions, sorted, missing ids left out, verdicts at the threshold kept', () => {
    const ids = Uint32Array.of(10, 11, 12) as StorageIds; // 30 was removed
    const atThreshold = { ...pairs, threshold: 0.7, a: Uint32Array.of(11, 10), b: Uint32Array.of(30, 12), jaccard: Float32Array.of(0.9, 0.7) };
    const known = pairsAtPositions(atThreshold, ids, 0.7);
    const withRemoved = Uint32Array.of(10, 11, 12, 30) as StorageIds;
    expect(known.count).toBe(1);
    expect([known.a[0], known.b[0]]).toEqual([0, 2]);
    // Float32 0.7 is slightly below 0.7 as a double: lifted to the threshold it was verified at.
    expect(Math.fround(0.7) < 0.7).toBe(true);
    expect(known.jaccard[0]).toBe(0.7);
    // With another threshold the stored value is used as it is.
    expect(pairsAtPositions(atThreshold, withRemoved, 0.5).jaccard[0]).toBe(Math.fround(0.7));
    // Members replaced by their representative (copies share a text); a pair that collapses is dropped.
    const reps = Int32Array.of(0, 0, 2, 3);
    const mapped = pairsAtPositions(atThreshold, withRemoved, 0.7, reps);
    expect([...mapped.a].map((a, i) => [a, mapped.b[i]])).toEqual([[0, 2], [0, 3]]);
  });
});
