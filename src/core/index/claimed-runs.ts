/**
 * An all-pairs search split between threads by work: the layout's runs of tables (one grouping pass
 * each, `sharedPassEnd`) are handed out one at a time through a counter the threads share, so a thread
 * that starts late (a worker still loading its code) takes fewer runs and no thread waits for another
 * to finish a fixed share. Joined in run order, the pairs are `allPairs`' result, pair for pair.
 */
import { searchTableRuns, sharedPassEnd } from './all-pairs.ts';
import type { BlockLayout } from './block-layout.ts';
import { createPairList, type PairLimit, type PairList } from './pair-list.ts';

/** Bounds of the layout's runs of tables: run r is tables [bounds[r], bounds[r + 1]). */
export function tableRuns(layout: BlockLayout): Int32Array {
  const bounds = [0];
  for (let t = 0; t < layout.tables.length; t = bounds[bounds.length - 1]) bounds.push(sharedPassEnd(layout, t));
  return Int32Array.from(bounds);
}

/** The runs one thread took, in the order it took them, and its pairs: run taken[i]'s are pairs [ends[i - 1], ends[i]). */
export interface ClaimedPairs {
  pairs: PairList;
  taken: Int32Array;
  ends: Int32Array;
}

/**
 * Searches runs of `layout` (bounds from `tableRuns`) claimed one at a time from `next[0]` (shared by
 * the threads of one search, starting at 0) until none is left.
 */
export function allPairsForClaimedRuns(
  hi: Uint32Array,
  lo: Uint32Array,
  layout: BlockLayout,
  runs: Int32Array,
  next: Int32Array,
  pairLimit?: PairLimit,
): ClaimedPairs {
  const runCount = runs.length - 1;
  const taken: number[] = [];
  const ends: number[] = [];
  const pairs = searchTableRuns(
    hi,
    lo,
    layout,
    pairLimit,
    () => {
      const r = Atomics.add(next, 0, 1);
      if (r >= runCount) return null;
      taken.push(r);
      return [runs[r], runs[r + 1]];
    },
    (_first, count) => ends.push(count),
  );
  return { pairs, taken: Int32Array.from(taken), ends: Int32Array.from(ends) };
}

/** The threads' pairs put back in run order (every run taken by exactly one of `parts`). */
export function joinClaimedPairs(parts: readonly ClaimedPairs[], runCount: number): PairList {
  // Where each run's pairs are: its part and its slice of that part's list.
  const part = new Int32Array(runCount).fill(-1);
  const start = new Int32Array(runCount);
  const end = new Int32Array(runCount);
  let total = 0;
  parts.forEach((p, i) => {
    for (let j = 0; j < p.taken.length; j++) {
      const r = p.taken[j];
      part[r] = i;
      start[r] = j === 0 ? 0 : p.ends[j - 1];
      end[r] = p.ends[j];
      total += end[r] - start[r];
    }
  });
  const out = createPairList(total);
  for (let r = 0; r < runCount; r++) {
    if (part[r] < 0) throw new Error(`run ${r} of ${runCount} was searched by no thread`);
    const from = parts[part[r]].pairs;
    out.a.set(from.a.subarray(start[r], end[r]), out.count);
    out.b.set(from.b.subarray(start[r], end[r]), out.count);
    out.distance.set(from.distance.subarray(start[r], end[r]), out.count);
    out.count += end[r] - start[r];
  }
  return out;
}
