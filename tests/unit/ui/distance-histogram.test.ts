import { describe, expect, it } from 'vitest';
import { barHeights, distanceHistogram, pairsWithin } from '../../../src/ui/histogram/distance-histogram.ts';

describe('distanceHistogram', () => {
  it('counts pairs per distance, only the first `count` entries, ignoring impossible distances', () => {
    const d = Uint8Array.from([0, 3, 3, 1, 64, 200, 3, 9]);
    const counts = distanceHistogram(d, 7);
    expect(counts.length).toBe(65);
    expect(counts[0]).toBe(1);
    expect(counts[1]).toBe(1);
    expect(counts[3]).toBe(3);
    expect(counts[64]).toBe(1);
    expect(counts[9]).toBe(0); // beyond count
    expect(counts.reduce((a, b) => a + b, 0)).toBe(6);
  });
  it('sums pairs within k', () => {
    const counts = distanceHistogram(Uint8Array.from([0, 1, 1, 2, 5]));
    expect(pairsWithin(counts, 0)).toBe(1);
    expect(pairsWithin(counts, 2)).toBe(4);
    expect(pairsWithin(counts, 64)).toBe(5);
  });
  it('scales bars to the tallest, linear or log', () => {
    const counts = Uint32Array.from([1000, 10, 0]);
    expect([...barHeights(counts, 'linear')]).toEqual([1, 0.01, 0]);
    const log = barHeights(counts, 'log');
    expect(log[0]).toBe(1);
    expect(log[1]).toBeCloseTo(Math.log1p(10) / Math.log1p(1000));
    expect([...barHeights(new Uint32Array(3), 'log')]).toEqual([0, 0, 0]);
  });
});
