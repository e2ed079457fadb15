import { describe, expect, it } from 'vitest';
import { sortByKeys } from '../../../../src/core/sort/key-sort.ts';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';

describe('sortByKeys', () => {
  it('orders as a stable comparison sort over the keys in turn (200 seeded cases)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = mulberry32Unit(seed);
      const n = Math.floor(r() * 300);
      const bounds = Array.from({ length: 1 + Math.floor(r() * 5) }, () => 1 + Math.floor(r() * (r() < 0.5 ? 3 : 1000)));
      const keys = bounds.map((b) => Uint32Array.from({ length: n }, () => Math.floor(r() * b)));
      const expected = Array.from({ length: n }, (_, i) => i).sort((x, y) => {
        for (const key of keys) if (key[x] !== key[y]) return key[x] - key[y];
        return 0;
      });
      expect(Array.from(sortByKeys(n, keys, bounds)), `seed ${seed}`).toEqual(expected);
    }
  });

  it('keeps position order among equal keys and handles no positions', () => {
    expect(Array.from(sortByKeys(4, [[1, 0, 1, 0]], [2]))).toEqual([1, 3, 0, 2]);
    expect(Array.from(sortByKeys(0, [[]], [1]))).toEqual([]);
  });
});
