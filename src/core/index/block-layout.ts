/**
 * The block layout of the permuted-table index (Manku, Jain, Das Sarma): how the 64 bits are cut
 * into m blocks, which m - k blocks key each of the C(m, k) tables, how a key is extracted from the
 * (hi, lo) halves, and which table "owns" a pair (so every pair is reported exactly once).
 */

/** Largest supported block count: a pair's zero-block set must fit one int32 bit mask. */
export const MAX_BLOCKS = 32;

/** Refuse layouts with more tables than this: they would take hours at any useful n. */
export const MAX_TABLES = 1_000_000;

/**
 * One table's key recipe. The key is the concatenation of the table's key blocks (in block order),
 * MSB-aligned in two uint32 words, so comparing (keyHi, keyLo) compares keys and the leading bits
 * of keyHi are the leading bits of the key (for sharding).
 */
export interface TableKey {
  /** Key width in bits (sum of the key blocks' sizes), 1..64. */
  readonly bits: number;
  /** Bit mask over block numbers: the blocks forming the key. */
  readonly keyMask: number;
  /**
   * Blocks that must differ for this table to own a pair: the non-key blocks numbered below the
   * last key block. The owner of a pair is the table whose key is the lowest m - k blocks the pair
   * agrees on (the lexicographically first key set contained in the agreeing blocks).
   */
  readonly mustDiffer: number;
  /**
   * Extraction segments, 5 ints each: source word (0 = hi, 1 = lo), left shift, length,
   * destination word (0 = keyHi, 1 = keyLo), right-side shift in the destination word.
   * Bits = ((src << leftShift) >>> (32 - length)) << destShift.
   */
  readonly segments: Int32Array;
}

/** The whole layout for (k, m): block bit ranges and one `TableKey` per table, in a fixed order. */
export interface BlockLayout {
  readonly k: number;
  readonly blocks: number;
  /** Block j covers bits [start[j], start[j] + size[j]) counted from the most significant bit. */
  readonly start: Int32Array;
  readonly size: Int32Array;
  /** Per block: the block's bits within hi and within lo (one of them may be 0). */
  readonly maskHi: Uint32Array;
  readonly maskLo: Uint32Array;
  readonly tables: readonly TableKey[];
}

/** Binomial coefficient C(n, r) as a float (exact while below 2^53). */
export function binomial(n: number, r: number): number {
  if (r < 0 || r > n) return 0;
  r = Math.min(r, n - r);
  let c = 1;
  for (let i = 1; i <= r; i++) c = (c * (n - r + i)) / i;
  return Math.round(c);
}

/** Explains why (k, m) cannot be laid out, or returns null when it can. */
export function layoutProblem(k: number, blocks: number): string | null {
  if (!Number.isInteger(k) || k < 0 || k > 63) return `k must be an integer in 0..63 for the index (got ${k})`;
  if (!Number.isInteger(blocks) || blocks <= k) return `blocks must be an integer greater than k=${k} (got ${blocks})`;
  if (blocks > MAX_BLOCKS || blocks > 64) return `blocks must be at most ${MAX_BLOCKS} (got ${blocks})`;
  const tables = binomial(blocks, k);
  if (tables > MAX_TABLES) return `blocks=${blocks} with k=${k} needs ${tables} tables (limit ${MAX_TABLES})`;
  return null;
}

/**
 * Builds the layout for distance k and m blocks: block sizes as even as possible (the first
 * 64 mod m blocks get one extra bit), tables in lexicographic order of their key block sets.
 */
export function blockLayout(k: number, blocks: number): BlockLayout {
  const id = `${k}/${blocks}`;
  let layout = layoutCache.get(id);
  if (!layout) {
    layout = computeLayout(k, blocks);
    layoutCache.set(id, layout);
  }
  return layout;
}

// Layouts are immutable and queries ask for theirs every time: keep each one after first use.
const layoutCache = new Map<string, BlockLayout>();

function computeLayout(k: number, blocks: number): BlockLayout {
  const problem = layoutProblem(k, blocks);
  if (problem) throw new RangeError(problem);
  const m = blocks;
  const start = new Int32Array(m);
  const size = new Int32Array(m);
  const maskHi = new Uint32Array(m);
  const maskLo = new Uint32Array(m);
  const base = Math.floor(64 / m);
  const extra = 64 % m;
  for (let j = 0, pos = 0; j < m; j++) {
    start[j] = pos;
    size[j] = base + (j < extra ? 1 : 0);
    for (let b = pos; b < pos + size[j]; b++) {
      if (b < 32) maskHi[j] |= 1 << (31 - b);
      else maskLo[j] |= 1 << (63 - b);
    }
    maskHi[j] >>>= 0;
    maskLo[j] >>>= 0;
    pos += size[j];
  }

  const tables: TableKey[] = [];
  const keyCount = m - k;
  const chosen = new Int32Array(keyCount);
  for (let i = 0; i < keyCount; i++) chosen[i] = i;
  for (;;) {
    tables.push(tableKey(chosen, start, size));
    // Next combination in lexicographic order.
    let i = keyCount - 1;
    while (i >= 0 && chosen[i] === m - keyCount + i) i--;
    if (i < 0) break;
    chosen[i]++;
    for (let j = i + 1; j < keyCount; j++) chosen[j] = chosen[j - 1] + 1;
  }
  return { k, blocks: m, start, size, maskHi, maskLo, tables };
}

function tableKey(chosen: Int32Array, start: Int32Array, size: Int32Array): TableKey {
  let keyMask = 0;
  let bits = 0;
  for (const j of chosen) {
    keyMask |= 1 << j;
    bits += size[j];
  }
  const last = chosen[chosen.length - 1];
  const below = last >= 31 ? 0x7fffffff : (1 << last) - 1;
  const mustDiffer = below & ~keyMask;

  // Walk the key bit by bit (by runs): each run stays inside one source word and one destination word.
  const seg: number[] = [];
  let dest = 0; // key bit position, 0 = MSB of keyHi
  for (const j of chosen) {
    let src = start[j];
    let left = size[j];
    while (left > 0) {
      const srcWord = src < 32 ? 0 : 1;
      const srcOff = src & 31;
      const destWord = dest < 32 ? 0 : 1;
      const destOff = dest & 31;
      const len = Math.min(left, 32 - srcOff, 32 - destOff);
      const q = seg.length - 5;
      // Adjacent key blocks continue the previous run: merge them so keys take fewer steps.
      if (q >= 0 && seg[q] === srcWord && seg[q + 3] === destWord && seg[q + 1] + seg[q + 2] === srcOff && seg[q + 4] === 32 - destOff) {
        seg[q + 2] += len;
        seg[q + 4] -= len;
      } else {
        seg.push(srcWord, srcOff, len, destWord, 32 - destOff - len);
      }
      src += len;
      dest += len;
      left -= len;
    }
  }
  return { bits, keyMask, mustDiffer, segments: Int32Array.from(seg) };
}

/**
 * Computes every document's key for one table into keyHi (and keyLo when the key is wider than
 * 32 bits and keyLo is given). Keys are MSB-aligned; unused low bits are zero.
 */
export function extractKeys(
  table: TableKey,
  hi: Uint32Array,
  lo: Uint32Array,
  n: number,
  keyHi: Uint32Array,
  keyLo: Uint32Array | null,
): void {
  const s = table.segments;
  const count = s.length / 5;
  // Specialise the common one- and two-segment keys inside the first word: the loop below is the
  // per-table cost floor of all-pairs.
  if (count === 1 && s[3] === 0) {
    const src = s[0] === 0 ? hi : lo;
    const left = s[1];
    const right = 32 - s[2];
    const dst = s[4];
    for (let i = 0; i < n; i++) keyHi[i] = ((src[i] << left) >>> right) << dst;
    return;
  }
  for (let i = 0; i < n; i++) {
    const h = hi[i];
    const l = lo[i];
    let kh = 0;
    let kl = 0;
    for (let q = 0; q < s.length; q += 5) {
      const v = (((s[q] === 0 ? h : l) << s[q + 1]) >>> (32 - s[q + 2])) << s[q + 4];
      if (s[q + 3] === 0) kh |= v;
      else kl |= v;
    }
    keyHi[i] = kh;
    if (keyLo) keyLo[i] = kl;
  }
}

/** One fingerprint's key for a table, written into out[0] (keyHi) and out[1] (keyLo). */
export function extractKey(table: TableKey, h: number, l: number, out: Uint32Array): void {
  const s = table.segments;
  let kh = 0;
  let kl = 0;
  for (let q = 0; q < s.length; q += 5) {
    const v = (((s[q] === 0 ? h : l) << s[q + 1]) >>> (32 - s[q + 2])) << s[q + 4];
    if (s[q + 3] === 0) kh |= v;
    else kl |= v;
  }
  out[0] = kh;
  out[1] = kl;
}

/** Bit mask over block numbers of the blocks where two fingerprints agree (x = a XOR b halves). */
export function agreeingBlocks(layout: BlockLayout, xHi: number, xLo: number): number {
  const { maskHi, maskLo, blocks } = layout;
  let z = 0;
  for (let j = 0; j < blocks; j++) if (((xHi & maskHi[j]) | (xLo & maskLo[j])) === 0) z |= 1 << j;
  return z;
}

/** True when `table` is the one table that reports a pair agreeing on the blocks `agree`. */
export function ownsPair(table: TableKey, agree: number): boolean {
  return (agree & table.keyMask) === table.keyMask && (agree & table.mustDiffer) === 0;
}

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
/** A row's setup and its last few candidates compared one by one (about 160 instructions). */
const NS_PER_ROW = 39;
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

/**
 * A table's key (its first 32 bits: all that grouping needs) as at most four runs of bits, 4 ints
 * each: the word (0 = hi, 1 = lo), the right shift, the mask, the left shift (an unused run has mask
 * 0), for the pair kernel's grouping pass; null for a key of more runs (`extractKeys` computes it).
 */
export function keyRuns(table: TableKey): Int32Array | null {
  const seg = table.segments;
  const runs = new Int32Array(16);
  let r = 0;
  for (let q = 0; q < seg.length; q += 5) {
    if (seg[q + 3] !== 0) continue;
    if (r === 4) return null;
    const len = seg[q + 2];
    runs[4 * r] = seg[q];
    runs[4 * r + 1] = 32 - seg[q + 1] - len;
    runs[4 * r + 2] = len === 32 ? -1 : (1 << len) - 1;
    runs[4 * r + 3] = seg[q + 4];
    r++;
  }
  return runs;
}
