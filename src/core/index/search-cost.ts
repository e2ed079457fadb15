/**
 * What the permuted-table search costs: the expected work of all-pairs.ts's layout for n random
 * fingerprints (`searchWork`), priced in nanoseconds of one core (`estimateCost`), and the choices
 * made by it: the block count m (`chooseBlocks`) and whether a few queries are compared directly.
 */
import { MAX_BLOCKS, binomial, layoutProblem } from './block-layout.ts';
/**
 * Widest group digit of one counting-sort pass: 2^16 counters (256 KiB) stay in L2 cache. Wider keys
 * are grouped on their leading 16 bits and the rest compared inside the group (all-pairs.ts).
 */
export const MAX_GROUP_BITS = 16;

/** Groups of a shared pass larger than this are split on the table's last key block; smaller ones are compared directly. */
export const SMALL_GROUP = 24;

/**
 * The work all-pairs does for n uniformly random fingerprints at (k, m), as expected counts: what
 * `estimateCost` prices and bench/pair-work.ts counts on real fingerprints.
 */
export interface SearchWork {
  /** Grouping passes over all n documents (groupByKey), and the records they place. */
  passes: number;
  passRecords: number;
  /** Large groups split on a table's last key block (splitGroup), and the records they place. */
  splits: number;
  splitRecords: number;
  /** Candidate comparisons: C(size, 2) summed over the runs the kernel scans. */
  comparisons: number;
  /** Runs the kernel scans, and their rows (records with a later record in their run). */
  runs: number;
  rows: number;
}

/**
 * Expected work of all-pairs.ts's layout (blocks of unequal width: the first 64 mod m have one
 * bit more): a table keyed on one block is grouped on its own key (at most 16 bits) and its groups
 * scanned whole; tables sharing every key block but the last share one pass grouped on those blocks
 * (at most 16 bits), and each splits the groups larger than SMALL_GROUP on the leading bits of its
 * last block (about log2 of the group's size). Group sizes are Poisson: the small-group rule and the
 * split's digit depend on each group's own size, not on the mean.
 */
export function searchWork(n: number, k: number, blocks: number): SearchWork {
  const m = blocks;
  const base = Math.floor(64 / m);
  const extra = 64 % m;
  const r = m - k;
  const work: SearchWork = { passes: 0, passRecords: 0, splits: 0, splitRecords: 0, comparisons: 0, runs: 0, rows: 0 };
  const add = (times: number, w: GroupWork, groups: number): void => {
    work.splits += times * groups * w.splits;
    work.splitRecords += times * groups * w.splitRecords;
    work.comparisons += times * groups * w.comparisons;
    work.runs += times * groups * w.runs;
    work.rows += times * groups * w.rows;
  };
  if (r === 1) {
    // One table per block, its own pass: big blocks (base + 1 bits) and small ones.
    for (const [count, bits] of [[extra, base + 1], [m - extra, base]]) {
      if (count === 0) continue;
      const groups = 2 ** Math.min(bits, MAX_GROUP_BITS);
      work.passes += count;
      work.passRecords += count * n;
      add(count, groupWork(n / groups, 0), groups);
    }
    return work;
  }
  // A pass is a prefix of r - 1 blocks whose last is a; its tables end on a later block. The prefix's
  // width is (r - 1) base plus its big blocks (those numbered below `extra`).
  for (let a = r - 2; a <= m - 2; a++) {
    const bigBelow = Math.min(a, extra);
    const smallBelow = a - bigBelow;
    const bigLast = Math.max(0, extra - a - 1);
    const smallLast = m - a - 1 - bigLast;
    for (let i = 0; i <= r - 2; i++) {
      const prefixes = binomial(bigBelow, i) * binomial(smallBelow, r - 2 - i);
      if (prefixes === 0) continue;
      const prefixBits = (r - 1) * base + i + (a < extra ? 1 : 0);
      const groups = 2 ** Math.min(prefixBits, MAX_GROUP_BITS);
      work.passes += prefixes;
      work.passRecords += prefixes * n;
      if (bigLast > 0) add(prefixes * bigLast, groupWork(n / groups, base + 1), groups);
      if (smallLast > 0) add(prefixes * smallLast, groupWork(n / groups, base), groups);
    }
  }
  return work;
}

/** Expected work of one group of Poisson(mean) records for one table (see searchWork). */
type GroupWork = Omit<SearchWork, 'passes' | 'passRecords'>;

/**
 * One table's expected work on a group of Poisson(mean) records: scanned whole when `lastBits` is 0
 * (a one-block key) or the group holds at most SMALL_GROUP records, else split into 2^d buckets,
 * d = min(lastBits, bit length of its size, MAX_GROUP_BITS), and each bucket scanned.
 */
function groupWork(mean: number, lastBits: number): GroupWork {
  const w: GroupWork = { splits: 0, splitRecords: 0, comparisons: 0, runs: 0, rows: 0 };
  const at = (c: number, p: number): void => {
    const pairs = (c * (c - 1)) / 2;
    if (lastBits === 0 || c <= SMALL_GROUP) {
      w.comparisons += p * pairs;
      w.runs += p;
      w.rows += p * Math.max(c - 1, 0);
      return;
    }
    const buckets = 2 ** Math.min(lastBits, 32 - Math.clz32(c), MAX_GROUP_BITS);
    w.splits += p;
    w.splitRecords += p * c;
    w.comparisons += (p * pairs) / buckets;
    w.runs += p * buckets;
    // Expected records with a later one in their bucket: c minus the non-empty buckets.
    w.rows += p * (c - buckets * (1 - (1 - 1 / buckets) ** c));
  };
  const full = 2 ** Math.min(lastBits, MAX_GROUP_BITS);
  const spread = 10 * Math.sqrt(mean) + 10;
  if (lastBits > 0 && mean - spread > Math.max(SMALL_GROUP, full)) {
    // Every group is split on the whole digit: exact in closed form (E[C(c, 2)] = mean^2 / 2).
    return {
      splits: 1,
      splitRecords: mean,
      comparisons: (mean * mean) / 2 / full,
      runs: full,
      rows: mean - full * (1 - Math.exp(-mean / full)),
    };
  }
  // Walk the Poisson probabilities out from the mode, until they no longer count.
  const mode = Math.floor(mean);
  const peak = Math.exp(mode * Math.log(Math.max(mean, Number.MIN_VALUE)) - mean - logFactorial(mode));
  for (let c = mode, p = peak; c >= 0 && (p > 1e-15 || c > mean - spread); c--) {
    at(c, p);
    p *= c / mean;
  }
  for (let c = mode + 1, p = (peak * mean) / (mode + 1); p > 1e-15 || c < mean + spread; c++) {
    at(c, p);
    p *= mean / (c + 1);
  }
  return w;
}

/** ln(c!) (Stirling's series beyond 20: relative error below 1e-12). */
function logFactorial(c: number): number {
  if (c < 20) {
    let s = 0;
    for (let i = 2; i <= c; i++) s += Math.log(i);
    return s;
  }
  const x = c + 1;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x ** 3);
}

/**
 * Estimated all-pairs time in nanoseconds for n fingerprints with m blocks on one core: `searchWork`
 * priced per unit. The prices are instruction counts (callgrind, `node --no-liftoff`: bench/pair-work.ts
 * --only/--search and bench/pair-kernel-work.ts) at two speeds fitted to the search timed at 1,000,000
 * fingerprints, k = 16, m = 19 and 20 (451 and 571 CPU-s): the comparison loop's 7 instructions run at
 * 0.112 ns each, the grouping and row code's at 0.246 ns (its stores and branches). The same prices
 * give 5.3, 5.7 and 9.3 s for m = 17, 18 and 19 at 100,000, timed 5.6, 6.5 and 9.5 CPU-s (README).
 */
export function estimateCost(n: number, k: number, blocks: number): number {
  const w = searchWork(n, k, blocks);
  return (
    w.comparisons * NS_PER_COMPARISON +
    w.rows * NS_PER_ROW +
    w.runs * NS_PER_RUN +
    w.passRecords * NS_PER_PASS_RECORD +
    w.splitRecords * NS_PER_SPLIT_RECORD
  );
}

/** One XOR and popcount, eight to a sign test (7 instructions). */
const NS_PER_COMPARISON = 0.79;
/**
 * A row's setup and the comparisons its last step wastes past the run's end (about 86 instructions:
 * scanRuns over runs of 15 records, 129.6 M instructions a pass of 1M records less 7.06 per comparison).
 */
const NS_PER_ROW = 21;
/** A run's end read and its loop (about 10 instructions). */
const NS_PER_RUN = 2.5;
/** groupByKey: the key, its count and the record's scatter (95 instructions). */
const NS_PER_PASS_RECORD = 23;
/** splitGroup: the digit, its count and the record's copy (28 instructions). */
const NS_PER_SPLIT_RECORD = 6.9;

/** The expected one-core all-pairs time in nanoseconds for n fingerprints within k, at the block count chosen for them. */
export function searchNanoseconds(n: number, k: number): number {
  if (k > MAX_BLOCKS - 1) return allPairsChecks(n);
  return estimateCost(Math.max(n, 2), k, chooseBlocks(n, k));
}

/** Nanoseconds per fingerprint comparison of `queryPairs` (a popcount of two XORs), for choosing it over the tables. */
const QUERY_CHECK_NS = 2;

/**
 * True when comparing each of `queries` fingerprints with all n (`queryPairs`) costs less than the
 * tables' search of all pairs: a few documents new to a large corpus whose other pairs were decided.
 */
export function queryPairsCheaper(queries: number, n: number, k: number): boolean {
  return queries * n * QUERY_CHECK_NS < searchNanoseconds(n, k);
}

function allPairsChecks(n: number): number {
  return (n * (n - 1)) / 2;
}

/**
 * The block count m used when the caller gives none: the cheapest m in k+1..k+12 (at most
 * MAX_BLOCKS) by `estimateCost`.
 */
export function chooseBlocks(n: number, k: number): number {
  if (!Number.isInteger(k) || k < 0 || k > 63) throw new RangeError(`k must be an integer in 0..63 (got ${k})`);
  let best = k + 1;
  let bestCost = Infinity;
  for (let m = k + 1; m <= Math.min(MAX_BLOCKS, 64, k + 12); m++) {
    if (layoutProblem(k, m)) continue;
    const cost = estimateCost(Math.max(n, 2), k, m);
    if (cost < bestCost) {
      bestCost = cost;
      best = m;
    }
  }
  return best;
}
