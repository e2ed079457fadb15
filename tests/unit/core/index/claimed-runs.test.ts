/**
 * Runs of tables claimed through a shared counter: however the runs fall between the threads, the
 * threads' pairs joined in run order are the single-thread result, pair for pair.
 */
import { describe, expect, it } from 'vitest';
import { allPairs } from '../../../../src/core/index/all-pairs.ts';
import { blockLayout } from '../../../../src/core/index/block-layout.ts';
import { concatPairLists } from '../../../../src/core/index/pair-list.ts';
import { allPairsForClaimedRuns, joinClaimedPairs, tableRuns } from '../../../../src/core/index/claimed-runs.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';
import { plantedSet } from './test-fingerprints.ts';

const fp = plantedSet(2000, 2000, 8, 11);
const trimmed = (l: { a: Uint32Array; b: Uint32Array; distance: Uint8Array; count: number }) => [l.a.subarray(0, l.count), l.b.subarray(0, l.count), l.distance.subarray(0, l.count)];

describe('claimed runs of tables', () => {
  it('are whole grouping passes: one table each when keyed on one block, tables sharing all key blocks but the last together', () => {
    expect(Array.from(tableRuns(blockLayout(3, 4)))).toEqual([0, 1, 2, 3, 4]);
    // k = 3, 5 blocks: keys of two blocks, {0,1}..{0,4} share block 0, {1,2}..{1,4} block 1, ...
    expect(Array.from(tableRuns(blockLayout(3, 5)))).toEqual([0, 4, 7, 9, 10]);
  });

  it.each([[3, 4], [3, 6], [6, 8], [1, 3], [0, 1]])('k=%i, blocks=%i: any split of the runs between three threads joins to the single-thread result', (k, blocks) => {
    const layout = blockLayout(k, blocks);
    const runs = tableRuns(layout);
    const runCount = runs.length - 1;
    const single = allPairs(fp.hi, fp.lo, k, { blocks });
    // Each run alone, as the one left when a thread claims it (the counter at r, nothing after it).
    const alone = Array.from({ length: runCount }, (_, r) => {
      const next = new Int32Array(new SharedArrayBuffer(4));
      next[0] = r;
      const piece = allPairsForClaimedRuns(fp.hi, fp.lo, layout, runs.subarray(0, r + 2), next);
      expect(Array.from(piece.taken)).toEqual([r]);
      return piece.pairs;
    });
    const seed = 20261129 + k * 100 + blocks;
    const rnd = mulberry32(seed);
    for (let trial = 0; trial < 5; trial++) {
      // Runs dealt to three threads at random, each thread's in the increasing order it claims them.
      const owner = Array.from({ length: runCount }, () => rnd() % 3);
      const parts = [0, 1, 2].map((t) => {
        const taken = owner.flatMap((o, r) => (o === t ? [r] : []));
        const pairs = concatPairLists(taken.map((r) => alone[r]));
        let at = 0;
        const ends = Int32Array.from(taken, (r) => (at += alone[r].count));
        return { pairs, taken: Int32Array.from(taken), ends };
      });
      expect(trimmed(joinClaimedPairs(parts, runCount)), `seed ${seed}, trial ${trial}, owners ${owner.join('')}`).toEqual(trimmed(single));
    }
  });

  it('leave a thread that comes after the last run with nothing, and refuse a join missing a run', () => {
    const layout = blockLayout(3, 4);
    const runs = tableRuns(layout);
    const next = new Int32Array(new SharedArrayBuffer(4));
    const first = allPairsForClaimedRuns(fp.hi, fp.lo, layout, runs, next);
    expect(Array.from(first.taken)).toEqual([0, 1, 2, 3]);
    const late = allPairsForClaimedRuns(fp.hi, fp.lo, layout, runs, next);
    expect(late.taken.length).toBe(0);
    expect(late.pairs.count).toBe(0);
    expect(trimmed(joinClaimedPairs([late, first], 4))).toEqual(trimmed(allPairs(fp.hi, fp.lo, 3, { blocks: 4 })));
    expect(() => joinClaimedPairs([late], 4)).toThrow(/run 0 of 4/);
  });
});
