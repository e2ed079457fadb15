/**
 * scan-docs.ts pathOrder: sorted input and two sorted runs (a merge's saved documents, then a scan's)
 * are merged in one pass; the order must be the comparison sort's, ties by index, for any input.
 */
import { describe, expect, it } from 'vitest';
import { pathOrder } from '../../../src/scan/scan-docs.ts';
import { mulberry32Unit as mulberry32 } from '../../fixtures/mulberry32.ts';

/** The order by definition: a stable sort by path (UTF-16 code units). */
const bySort = (paths: readonly string[]) => paths.map((_, i) => i).sort((x, y) => (paths[x]! < paths[y]! ? -1 : paths[x]! > paths[y]! ? 1 : x - y));

describe('pathOrder', () => {
  it('equals the sort on sorted lists, two sorted runs and shuffled ones, with repeated paths', () => {
    const rand = mulberry32(7);
    const name = () => `${'abc'[Math.floor(rand() * 3)]}/${Math.floor(rand() * 20)}.txt`;
    for (let t = 0; t < 300; t++) {
      const n = Math.floor(rand() * 30);
      const split = Math.floor(rand() * (n + 1));
      const run = (k: number) => Array.from({ length: k }, name).sort();
      const kind = t % 3;
      const paths = kind === 0 ? run(n) : kind === 1 ? [...run(split), ...run(n - split)] : Array.from({ length: n }, name);
      expect(pathOrder(paths)).toEqual(bySort(paths));
    }
    expect(pathOrder([])).toEqual([]);
    expect(pathOrder(['b', 'a', 'a'])).toEqual([1, 2, 0]);
  });
});
