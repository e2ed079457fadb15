import { describe, expect, it } from 'vitest';
import { blockLayout, layoutProblem } from '../../../../src/core/index/block-layout.ts';
import { chooseBlocks, estimateCost, searchWork, type SearchWork } from '../../../../src/core/index/search-cost.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';
import { countSearchWork, passesOf } from '../../../fixtures/search-work.ts';

describe('chooseBlocks', () => {
  it('returns a buildable layout for every k in 0..31 and small and large n', () => {
    for (let k = 0; k <= 31; k++) {
      for (const n of [0, 10, 1000, 100_000, 1_000_000, 10_000_000]) {
        const m = chooseBlocks(n, k);
        expect(m).toBeGreaterThan(k);
        expect(layoutProblem(k, m)).toBeNull();
      }
    }
  });

  it('picks m = 4 or 5 for k = 3 at a million fingerprints (fastest in measurements)', () => {
    expect([4, 5]).toContain(chooseBlocks(1_000_000, 3));
  });

  it('picks the block counts timed fastest at k = 16: m = 17 at 100,000 fingerprints, m = 19 at 1,000,000', () => {
    expect(chooseBlocks(100_000, 16)).toBe(17);
    expect(chooseBlocks(1_000_000, 16)).toBe(19);
  });
});

describe('estimateCost', () => {
  it('orders the layouts timed at k = 16 as they were timed', () => {
    // 100,000: m = 17 2.71 s, 18 2.92 s, 19 4.41 s; 1,000,000: m = 19 227 s, 20 288 s (README).
    const cost = (n: number, m: number) => estimateCost(n, 16, m);
    expect(cost(100_000, 17)).toBeLessThan(cost(100_000, 18));
    expect(cost(100_000, 18)).toBeLessThan(cost(100_000, 19));
    expect(cost(1_000_000, 19)).toBeLessThan(cost(1_000_000, 20));
  });
});

describe('searchWork', () => {
  it("counts what all-pairs' layout does on random fingerprints: unequal blocks, the small-group rule, splits", () => {
    const rnd = mulberry32(38);
    const misses: string[] = [];
    // One-block keys of 4 and 3 bits (k = 16, m = 17) and of 16 (k = 3, m = 4); shared passes whose
    // groups are all split (m = 18), split or not by their own size (mean near SMALL_GROUP: m = 19
    // at 6,000, k = 6 at m = 8), split on digits of varying width, and prefixes wider than 16 bits (k = 3, m = 6).
    for (const [k, m, n] of [[16, 17, 3000], [3, 4, 3000], [16, 18, 3000], [16, 19, 6000], [6, 8, 6000], [3, 6, 3000]]) {
      const hi = new Uint32Array(n).map(() => rnd());
      const lo = new Uint32Array(n).map(() => rnd());
      const layout = blockLayout(k, m);
      const counted = countSearchWork(hi, lo, layout, passesOf(layout));
      const model = searchWork(n, k, m);
      for (const field of ['passes', 'passRecords', 'splits', 'splitRecords', 'comparisons', 'runs', 'rows'] as const satisfies ReadonlyArray<keyof SearchWork>) {
        const [got, want] = [model[field], counted[field]];
        // Counts of a few hundred and more within 4%; small ones within 20 of each other.
        if (Math.abs(got - want) > Math.max(0.04 * want, 20)) misses.push(`k=${k} m=${m} n=${n} ${field}: model ${got.toFixed(0)}, counted ${want}`);
      }
    }
    expect(misses).toEqual([]);
  }, 30_000);
});
