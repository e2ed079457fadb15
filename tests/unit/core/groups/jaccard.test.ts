import { describe, expect, it } from 'vitest';
import { jaccardSorted, sizesAllow } from '../../../../src/core/groups/jaccard.ts';
import { intersectionSize } from '../../../../src/core/simhash/simhash.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const set = (...v: number[]) => Uint32Array.from(v);

describe('jaccard', () => {
  it('counts the intersection of sorted sets', () => {
    expect(intersectionSize(set(1, 3, 5, 7), set(2, 3, 4, 7, 9))).toBe(2);
    expect(intersectionSize(set(), set(1))).toBe(0);
    expect(intersectionSize(set(0xffffffff), set(0xffffffff))).toBe(1);
  });

  it('counts the intersection as a set would, on random sets sharing keys (verification and containment use this one merge)', () => {
    const random = mulberry32(39);
    for (let t = 0; t < 200; t++) {
      const pool = Array.from({ length: 1 + (random() % 400) }, () => (t % 2 ? random() : random() % 600));
      const pick = () => Uint32Array.from(new Set(pool.filter(() => random() % 3 > 0))).sort();
      const a = pick();
      const b = pick();
      const inB = new Set(b);
      expect(intersectionSize(a, b)).toBe(a.filter((k) => inB.has(k)).length);
    }
  });

  it('gives |A ∩ B| / |A ∪ B|', () => {
    expect(jaccardSorted(set(1, 2, 3, 4), set(1, 2, 3, 4, 5))).toBe(0.8);
    expect(jaccardSorted(set(1, 2), set(3, 4))).toBe(0);
    expect(jaccardSorted(set(7), set(7))).toBe(1);
  });

  it('never calls an empty document a near-duplicate', () => {
    expect(jaccardSorted(set(), set())).toBe(0);
    expect(jaccardSorted(set(), set(1))).toBe(0);
  });

  it('bounds Jaccard by the ratio of set sizes', () => {
    expect(sizesAllow(8, 10, 0.8)).toBe(true);
    expect(sizesAllow(10, 8, 0.8)).toBe(true);
    expect(sizesAllow(7, 10, 0.8)).toBe(false);
    expect(sizesAllow(55, 100, 0.55)).toBe(true); // J can be exactly 0.55 although 0.55 * 100 > 55 in floats
  });

  it('rejects by size exactly the pairs that cannot reach the threshold: a subset reaches the bound', () => {
    // A = the first m keys of B: J = m / n, the bound itself, computed as jaccard computes it.
    const keys = Uint32Array.from({ length: 300 }, (_, i) => i * 3 + 1);
    const wrong: string[] = [];
    let rejected = 0;
    for (const t of [0, 0.3, 0.5, 0.55, 0.7, 0.8, 0.9, 0.95, 1]) {
      for (let n = 0; n <= 300; n += n < 40 ? 1 : 13) {
        for (let m = 0; m <= n; m++) {
          const reaches = jaccardSorted(keys.subarray(0, m), keys.subarray(0, n)) >= t;
          if (sizesAllow(m, n, t) !== reaches || sizesAllow(n, m, t) !== reaches) wrong.push(`${m}/${n} at ${t}`);
          if (!reaches) rejected++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(rejected).toBeGreaterThan(1000);
  });
});
