import { describe, expect, it } from 'vitest';
import { allPairCount, estimateFromSample, estimatePairCount, estimateStride } from '../../../../src/core/index/pair-estimate.ts';
import { bruteForcePairs, plantedSet } from './test-fingerprints.ts';

describe('the pair-count estimate', () => {
  it('is exact while every fingerprint can be sampled', () => {
    const fp = plantedSet(2000, 500, 4, 3);
    expect(estimateStride(fp.hi.length)).toBe(1);
    for (const k of [0, 3, 10]) expect(estimatePairCount(fp.hi, fp.lo, k)).toBe(bruteForcePairs(fp, k).length);
    expect(estimatePairCount(fp.hi, fp.lo, 64)).toBe(allPairCount(fp.hi.length));
  });

  it('samples large inputs within its budget and scales the sample up', () => {
    expect(estimateStride(200_000)).toBe(800); // 250 samples x 200,000 = the 50M budget
    expect(estimateStride(10_000_000)).toBe(625_000); // at least 16 samples
    expect(estimateStride(10_000_000, 5_000_000, 4)).toBe(2_500_000);
    expect(estimateFromSample(30, 10, 1000)).toBe(1500);
    const fp = plantedSet(200_000, 0, 0, 9);
    expect(estimatePairCount(fp.hi, fp.lo, 64)).toBe(allPairCount(200_000));
    expect(estimatePairCount(fp.hi, fp.lo, 3)).toBe(0);
  });
});
