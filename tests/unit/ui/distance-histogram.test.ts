import { describe, expect, it } from 'vitest';
import { barHeights, describeChecks, describeRejected, distanceHistogram, pairsWithin, verifiedAndRejected, Y_LABEL_GAP, yTicks } from '../../../src/ui/histogram/distance-histogram.ts';

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

describe('verified and rejected pairs, and the y axis', () => {
  it('splits the candidates at each distance into verified near-duplicates and rejected ones', () => {
    const candidates = Uint32Array.from([4, 0, 10, 3]);
    const verified = Uint8Array.from([0, 0, 2, 2, 2, 3]);
    const split = verifiedAndRejected(candidates, verified, verified.length);
    expect([...split.verified]).toEqual([2, 0, 3, 1]);
    expect([...split.rejected]).toEqual([2, 0, 7, 2]);
  });
  it('never reports fewer than zero rejected (verified pairs from a merge the candidates did not count)', () => {
    const split = verifiedAndRejected(Uint32Array.from([1, 0]), Uint8Array.from([0, 0, 1]), 3);
    expect([...split.rejected]).toEqual([0, 0]);
  });
  it('places axis ticks at round counts, on the same scale as the bars', () => {
    expect(yTicks(2428, 'linear').map((t) => t.value)).toEqual([0, 1000, 2000]);
    const log = yTicks(2428, 'log');
    expect(log.map((t) => t.value)).toEqual([1, 10, 100, 1000]);
    for (const t of log) expect(t.fraction).toBeCloseTo(Math.log1p(t.value) / Math.log1p(2428));
    expect(yTicks(0, 'linear')).toEqual([{ value: 0, fraction: 0 }]);
    expect(yTicks(7, 'linear').map((t) => t.value)).toEqual([0, 2, 4, 6]);
    expect(yTicks(4, 'log').map((t) => t.value)).toEqual([0, 1, 4]);
  });
  it('never puts two labels closer than the gap a label needs (0 gives way to 1 under a large log-scale maximum)', () => {
    // /tmp/pj/docs (983 Debian copyright files) at k = 16: 1,216 candidates at distance 16 drew "1" on top of "0".
    expect(yTicks(1216, 'log').map((t) => t.value)).toEqual([1, 10, 100, 1000]);
    for (const max of [1, 2, 4, 9, 11, 50, 99, 1216, 2428, 10_000, 123_456, 5_000_000]) {
      for (const scale of ['log', 'linear'] as const) {
        const ticks = yTicks(max, scale);
        for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.fraction - ticks[i - 1]!.fraction, `${scale} ${max}`).toBeGreaterThanOrEqual(Y_LABEL_GAP);
      }
    }
  });
});

describe('describeChecks: how the caption says the candidates were decided', () => {
  it('names the pairs the set sizes and sketches ruled out unmeasured, and the rest measured (89 = 48 + 20 + 21)', () => {
    // The person check's folder of copyright files: the CLI said 48 by the size bound, 20 by the sketches, 21 measured.
    expect(describeChecks(89, 6, { candidates: 89, sizeRejected: 48, sketchRejected: 20 })).toBe(
      ': 48 by their feature-set sizes and 20 by their MinHash sketches ruled out without measuring, the other 21 checked by exact Jaccard: 6 verified',
    );
    expect(describeChecks(10, 2, { candidates: 10, sizeRejected: 0, sketchRejected: 3 })).toBe(
      ': 3 by their MinHash sketches ruled out without measuring, the other 7 checked by exact Jaccard: 2 verified',
    );
  });
  it('names the candidates that could not be measured apart: never among those checked by exact Jaccard', () => {
    // A regroup after a reload without kept contents: 5 of 25 candidates have a member whose text is not at hand.
    expect(describeChecks(25, 3, { candidates: 25, sizeRejected: 0, sketchRejected: 0, unmeasured: 5 })).toBe(
      ": 5 not measured (a file's contents not at hand), the other 20 checked by exact Jaccard: 3 verified",
    );
    expect(describeChecks(25, 3, { candidates: 25, sizeRejected: 4, sketchRejected: 0, unmeasured: 5 })).toBe(
      ": 4 by their feature-set sizes ruled out without measuring, 5 not measured (a file's contents not at hand), the other 16 checked by exact Jaccard: 3 verified",
    );
    expect(describeRejected(25, { candidates: 25, sizeRejected: 0, sketchRejected: 0, unmeasured: 5 })).toBe(' (by set sizes, sketches or exact Jaccard) or not measured');
    expect(describeRejected(25, { candidates: 25, sizeRejected: 0, sketchRejected: 0 })).toBe(' by exact Jaccard');
  });
  it("after a merge into the saved corpus, names the saved documents' candidates decided before apart (the histogram counts them, the merge did not check them)", () => {
    expect(describeChecks(100, 9, { candidates: 70, sizeRejected: 40, sketchRejected: 5, decidedBefore: 30 })).toBe(
      ': 40 by their feature-set sizes and 5 by their MinHash sketches ruled out without measuring, 30 of saved documents decided before, the other 25 checked by exact Jaccard: 9 verified',
    );
    // Counts that do not add up to the histogram's are of another search: not named.
    expect(describeChecks(90, 9, { candidates: 70, sizeRejected: 40, sketchRejected: 5, decidedBefore: 30 })).toBe(', each decided by the feature-set sizes, MinHash sketches or exact Jaccard: 9 verified');
  });
  it('says every candidate was measured only when the counts show no bound ruled one out', () => {
    expect(describeChecks(89, 6, { candidates: 89, sizeRejected: 0, sketchRejected: 0 })).toBe(', each checked by exact Jaccard: 6 verified');
    expect(describeChecks(40, 6, { candidates: 89, sizeRejected: 48, sketchRejected: 20 })).toBe(', each decided by the feature-set sizes, MinHash sketches or exact Jaccard: 6 verified');
    // After a reload of pairs saved without the counts: never "each checked by exact Jaccard", which could be untrue.
    expect(describeChecks(89, null, 'not known')).toBe(', each decided by the feature-set sizes, MinHash sketches or exact Jaccard');
    expect(describeChecks(22, 16, 'not known')).toBe(', each decided by the feature-set sizes, MinHash sketches or exact Jaccard: 16 verified');
    // A reload's own search that only took the 16 saved pairs (nothing ruled out) is not of the 22 candidates: not named.
    expect(describeChecks(22, 16, { candidates: 16, sizeRejected: 0, sketchRejected: 0 })).toBe(', each decided by the feature-set sizes, MinHash sketches or exact Jaccard: 16 verified');
  });
  it('after a merge with nothing ruled out by a bound, names those decided before and the rest measured', () => {
    expect(describeChecks(100, 9, { candidates: 70, sizeRejected: 0, sketchRejected: 0, decidedBefore: 30 })).toBe(
      ': 30 of saved documents decided before, the other 70 checked by exact Jaccard: 9 verified',
    );
  });
});

describe('describeRejected: the legend says the same as the caption', () => {
  it('"by exact Jaccard" only when the caption says each candidate was checked by exact Jaccard', () => {
    expect(describeRejected(89, { candidates: 89, sizeRejected: 0, sketchRejected: 0 })).toBe(' by exact Jaccard');
    const any = ' (by set sizes, sketches or exact Jaccard)';
    expect(describeRejected(22, { candidates: 22, sizeRejected: 6, sketchRejected: 0 })).toBe(any);
    expect(describeRejected(22, 'not known')).toBe(any);
    expect(describeRejected(22, { candidates: 16, sizeRejected: 0, sketchRejected: 0 })).toBe(any);
    expect(describeRejected(100, { candidates: 70, sizeRejected: 0, sketchRejected: 0, decidedBefore: 30 })).toBe(any);
  });
});
