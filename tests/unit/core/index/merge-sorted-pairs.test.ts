/** Merging per-thread sorted pair lists gives what sorting their concatenation gives (seeded random splits). */
import { describe, expect, it } from 'vitest';
import { concatPairLists, createPairList, mergeSortedPairs, sortPairs, type PairList } from '../../../../src/core/index/pair-list.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const trimmed = (l: PairList) => [l.a.subarray(0, l.count), l.b.subarray(0, l.count), l.distance.subarray(0, l.count)];

describe('mergeSortedPairs', () => {
  it('equals sortPairs of the concatenation, for lists of distinct pairs split at random', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rnd = mulberry32(seed);
      const parts = 1 + (rnd() % 3);
      const rows: number[][][] = Array.from({ length: parts }, () => []);
      const seen = new Set<string>();
      // Few distinct ids, so many pairs share a or b across the lists.
      const total = rnd() % (seed < 10 ? 40 : 1500);
      for (let p = 0; p < total; p++) {
        const a = rnd() % 60;
        const b = a + 1 + (rnd() % 60);
        if (seen.has(`${a} ${b}`)) continue;
        seen.add(`${a} ${b}`);
        rows[rnd() % parts].push([a, b, rnd() % 65]);
      }
      const lists = rows.map((r) => {
        const list = createPairList(r.length);
        for (const [a, b, d] of r) {
          list.a[list.count] = a;
          list.b[list.count] = b;
          list.distance[list.count++] = d;
        }
        return list;
      });
      const want = sortPairs(concatPairLists(lists));
      expect(trimmed(mergeSortedPairs(lists.map(sortPairs))), `seed ${seed}`).toEqual(trimmed(want));
    }
  });

  it('orders ids across the whole 32-bit range, a first, then b', () => {
    const rnd = mulberry32(38);
    // A few values of a (so b decides often), each near the top or bottom of the range; b anywhere.
    const as = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2];
    const lists = [createPairList(400), createPairList(400)];
    const seen = new Set<string>();
    for (let p = 0; p < 800; p++) {
      const a = as[rnd() % as.length];
      const b = Math.min(2 ** 32 - 1, a + 1 + (rnd() % 2 ** 31));
      if (seen.has(`${a} ${b}`)) continue;
      seen.add(`${a} ${b}`);
      const list = lists[rnd() % 2];
      list.a[list.count] = a;
      list.b[list.count] = b;
      list.distance[list.count++] = rnd() % 65;
    }
    const want = sortPairs(concatPairLists(lists));
    expect(trimmed(mergeSortedPairs(lists.map(sortPairs)))).toEqual(trimmed(want));
  });
});
