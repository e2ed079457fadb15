/**
 * Exact all-pairs search over the permuted tables: every pair of fingerprints within Hamming
 * distance k, each reported once, by grouping documents on each table's key and comparing only
 * inside groups. Tables are independent, so a range of tables can run on its own thread.
 */
import { popcount32 } from '../simhash/fingerprint64.ts';
import { MAX_BLOCKS, blockLayout, extractKeys, keyRuns, type BlockLayout, type TableKey } from './block-layout.ts';
import { MAX_GROUP_BITS, SMALL_GROUP, chooseBlocks } from './search-cost.ts';
import { allPairsBruteForce, checkSearchInput } from './brute-force-pairs.ts';
import { PairLimitError, createPairList, ensurePairCapacity, type PairLimit, type PairList } from './pair-list.ts';
import { createPairScanArena, type PairScanArena } from './pair-scan.ts';

/** Options for `allPairs`. */
export interface AllPairsOptions {
  /** Number of blocks m (> k). Chosen by `chooseBlocks(n, k)` when absent. */
  blocks?: number;
  /** Stop with a `PairLimitError` once more pairs than this are found (bounds memory; no limit when absent). */
  pairLimit?: PairLimit;
}

/** Reusable per-thread buffers, sized for n documents, in the kernel's memory. */
interface Scratch {
  /**
   * The kernel's memory: a copy of the fingerprints' halves, each document's key (first word) for
   * the current table; `grouped` holds the documents grouped by key, 4 words each (the half
   * compared first, the other half, document index, key), side by side so the scan streams through
   * one array; `ends` the group ends; `local` and `localEnds` a group re-sorted on its last key block.
   */
  arena: PairScanArena;
  /** Pairs found so far by this search, counted against the limit. */
  limit: PairLimit | undefined;
  counted: number;
}

function createScratch(hi: Uint32Array, lo: Uint32Array, limit: PairLimit | undefined): Scratch {
  const arena = createPairScanArena(hi.length, (1 << MAX_GROUP_BITS) + 1);
  arena.hi.set(hi);
  arena.lo.set(lo);
  return { arena, limit, counted: 0 };
}

/**
 * Groups all documents on `table`'s key (its leading 32 - shift bits: `groups` groups) into the
 * arena's records, the half to compare first at word 0 (see lowHalfFirst); leaves each group's end
 * in the arena's ends. The kernel computes the key, counts and scatters, unless the key has more bit
 * runs than it takes: then the keys and counts are made here.
 */
function groupOnKey(table: TableKey, scratch: Scratch, n: number, groups: number, shift: number, swap: boolean): void {
  const { arena } = scratch;
  const runs = keyRuns(table);
  if (runs === null) {
    const { keys, ends } = arena;
    extractKeys(table, arena.hi, arena.lo, n, keys, null);
    ends.fill(0, 0, groups + 1);
    for (let i = 0; i < n; i++) ends[(keys[i] >>> shift) + 1]++;
  }
  const r = runs ?? NO_RUNS;
  const w = (q: number): number => (r[q] === 0 ? arena.hiAt : arena.loAt);
  arena.kernel.groupByKey(
    arena.hiAt, arena.loAt, n, arena.keysAt, arena.endsAt, groups, shift, runs === null ? 1 : 0,
    w(0), r[1], r[2], r[3], w(4), r[5], r[6], r[7], w(8), r[9], r[10], r[11], w(12), r[13], r[14], r[15],
    arena.groupedAt, swap ? 1 : 0,
  );
}

const NO_RUNS = new Int32Array(16);

/**
 * Every pair (a < b) of the n = hi.length fingerprints with hamming(a, b) <= k, each exactly once,
 * identical fingerprints included. Pairs come table by table, so the order depends on the block
 * count; use `sortPairs` for a canonical order.
 */
export function allPairs(hi: Uint32Array, lo: Uint32Array, k: number, options: AllPairsOptions = {}): PairList {
  const n = checkSearchInput(hi, lo, k);
  // No block layout exists beyond k = 31 (m <= 32); at such distances every pair is a candidate anyway.
  if (options.blocks === undefined && k > MAX_BLOCKS - 1) return allPairsBruteForce(hi, lo, k, options.pairLimit);
  const blocks = options.blocks ?? chooseBlocks(n, k);
  const layout = blockLayout(k, blocks);
  return allPairsForTables(hi, lo, layout, 0, layout.tables.length, options.pairLimit);
}

/**
 * The pairs owned by tables [firstTable, endTable) of `layout`: a pair is owned by the first table
 * whose key blocks it agrees on, so the concatenation over consecutive table ranges (one per worker)
 * equals `allPairs` exactly, in the same order.
 */
export function allPairsForTables(
  hi: Uint32Array,
  lo: Uint32Array,
  layout: BlockLayout,
  firstTable: number,
  endTable: number,
  pairLimit?: PairLimit,
): PairList {
  let t = firstTable;
  return searchTableRuns(hi, lo, layout, pairLimit, () => {
    if (t >= endTable) return null;
    const first = t;
    t = sharedPassEnd(layout, t, endTable);
    return [first, t];
  });
}

/**
 * The end of the run of tables from `t` (before `end`) that share one grouping pass: tables are in
 * lexicographic order of their key blocks, so those sharing every key block but the last are
 * consecutive. A table keyed on one block shares nothing (its run is itself).
 */
export function sharedPassEnd(layout: BlockLayout, t: number, end = layout.tables.length): number {
  const prefix = prefixMask(layout.tables[t].keyMask);
  let runEnd = t + 1;
  if (prefix === 0) return runEnd;
  while (runEnd < end && prefixMask(layout.tables[runEnd].keyMask) === prefix) runEnd++;
  return runEnd;
}

/**
 * The pairs owned by the runs of tables `next` hands out ([first, end), each within one shared pass),
 * searched in that order with one set of buffers; `next` returns null when there are no more.
 * `afterRun` is told how many pairs the list holds after each run.
 */
export function searchTableRuns(
  hi: Uint32Array,
  lo: Uint32Array,
  layout: BlockLayout,
  pairLimit: PairLimit | undefined,
  next: () => readonly [number, number] | null,
  afterRun?: (first: number, pairCount: number) => void,
): PairList {
  const n = checkSearchInput(hi, lo, layout.k);
  let out = createPairList(1024);
  if (n < 2) return out;
  let scratch: Scratch | null = null;
  for (let run = next(); run !== null; run = next()) {
    // Made at the first run: a thread that finds nothing left to search allocates nothing.
    scratch ??= createScratch(hi, lo, pairLimit);
    const [first, end] = run;
    if (prefixMask(layout.tables[first].keyMask) === 0) {
      for (let t = first; t < end; t++) out = tablePairs(n, layout, t, scratch, out);
    } else {
      out = prefixRunPairs(n, layout, first, end, scratch, out);
    }
    afterRun?.(first, out.count);
  }
  return out;
}

/**
 * True when the low half should be compared first: inside a group the key bits agree, so the half
 * holding fewer key bits rejects a random candidate more often (e.g. 32 free bits instead of 16).
 * (The kernel compares both halves at once; the order still decides which half is word 0.)
 */
function lowHalfFirst(layout: BlockLayout, blockMask: number): boolean {
  let keyInHi = 0;
  let keyInLo = 0;
  for (let b = 0; b < layout.blocks; b++) {
    if (blockMask & (1 << b)) {
      keyInHi += popcount32(layout.maskHi[b]);
      keyInLo += popcount32(layout.maskLo[b]);
    }
  }
  return keyInHi > keyInLo;
}

/** The key blocks but the last (highest-numbered) one. */
function prefixMask(keyMask: number): number {
  return keyMask & ~highestBit(keyMask);
}

function highestBit(mask: number): number {
  return 1 << (31 - Math.clz32(mask));
}

/** The bits of a table's key blocks in (hi, lo). */
function keyBits(layout: BlockLayout, table: TableKey): [number, number] {
  let keyHi = 0;
  let keyLo = 0;
  for (let b = 0; b < layout.blocks; b++) {
    if (table.keyMask & (1 << b)) {
      keyHi |= layout.maskHi[b];
      keyLo |= layout.maskLo[b];
    }
  }
  return [keyHi, keyLo];
}

/** Table ranges for `parts` workers: consecutive, as even as possible; returns parts + 1 bounds. */
export function splitTables(tableCount: number, parts: number): Int32Array {
  const p = Math.max(1, Math.min(parts | 0, tableCount));
  const bounds = new Int32Array(p + 1);
  for (let i = 0; i <= p; i++) bounds[i] = Math.round((i * tableCount) / p);
  return bounds;
}

/** Groups all documents on table t's key (one counting-sort pass) and checks the pairs in each group. */
function tablePairs(
  n: number,
  layout: BlockLayout,
  t: number,
  scratch: Scratch,
  out: PairList,
): PairList {
  const table = layout.tables[t];
  const { arena } = scratch;
  const groupBits = Math.min(table.bits, MAX_GROUP_BITS);
  const groups = 2 ** groupBits;
  const swap = lowHalfFirst(layout, table.keyMask);
  groupOnKey(table, scratch, n, groups, 32 - groupBits, swap);
  // The arena's ends hold each group's end. When the key is wider than the group digit,
  // groups mix keys: the kernel's mask (the whole key) keeps only candidates agreeing on it.
  const [keyHi, keyLo] = keyBits(layout, table);
  return scanRuns(scratch, arena.groupedAt, arena.endsAt, 0, groups, 0, layout, table, keyHi, keyLo, swap, out);
}

/**
 * Pairs of tables [t0, t1), which share every key block but the last: one pass groups all
 * documents on the shared blocks (their leading <= 16 bits), then each table splits every group
 * on its own last block with a small counting sort that stays in cache. This replaces a
 * full-size scatter per table (the dominant cost when there are many tables, i.e. larger k).
 */
function prefixRunPairs(
  n: number,
  layout: BlockLayout,
  t0: number,
  t1: number,
  scratch: Scratch,
  out: PairList,
): PairList {
  const first = layout.tables[t0];
  const { arena } = scratch;
  const offsets = arena.ends;
  const firstLast = 31 - Math.clz32(first.keyMask);
  const prefixBits = first.bits - layout.size[firstLast];
  const groupBits = Math.min(prefixBits, MAX_GROUP_BITS);
  const groups = 2 ** groupBits;
  // The prefix is the leading prefixBits of the first table's key; the prefix decides which half
  // goes first (the last block varies).
  const swap = lowHalfFirst(layout, prefixMask(first.keyMask));
  groupOnKey(first, scratch, n, groups, 32 - groupBits, swap);
  // A record's first u64 is the fingerprint (lo first: hi in its high word) or the fingerprint
  // rotated by 32 (hi first): the kernel's split rotates it back, and on to the block's start.
  const rotation = swap ? 0 : 32;

  for (let t = t0; t < t1; t++) {
    const table = layout.tables[t];
    const j = 31 - Math.clz32(table.keyMask);
    // Whole-key equality by masks: exact, whatever the group digit covered.
    const [keyHi, keyLo] = keyBits(layout, table);
    // Block j's leading bits are the top bits of the fingerprint rotated left by the block's start.
    const rotate = (rotation + layout.start[j]) & 63;
    const size = layout.size[j];

    // Consecutive small groups are scanned in place by one kernel call; a large one is split first.
    let begin = 0;
    let smallFrom = 0;
    let smallBegin = 0;
    for (let g = 0; g < groups; g++) {
      const end = offsets[g];
      const count = end - begin;
      if (count > SMALL_GROUP) {
        if (smallFrom < g) out = scanRuns(scratch, arena.groupedAt, arena.endsAt, smallFrom, g, smallBegin, layout, table, keyHi, keyLo, swap, out);
        // Digit: the block's leading bits, about log2(count) of them, so sub-groups are tiny. The
        // kernel sorts the group into `local` (in its memory, so no record crosses into JavaScript).
        const digitBits = Math.min(size, 32 - Math.clz32(count), MAX_GROUP_BITS);
        const buckets = 1 << digitBits;
        arena.kernel.splitGroup(arena.groupedAt, begin, end, arena.localAt, arena.localEndsAt, buckets, rotate, 64 - digitBits);
        // localEnds[v] is now the end of bucket v.
        out = scanRuns(scratch, arena.localAt, arena.localEndsAt, 0, buckets, 0, layout, table, keyHi, keyLo, swap, out);
        smallFrom = g + 1;
        smallBegin = end;
      }
      begin = end;
    }
    if (smallFrom < groups) out = scanRuns(scratch, arena.groupedAt, arena.endsAt, smallFrom, groups, smallBegin, layout, table, keyHi, keyLo, swap, out);
  }
  return out;
}

/**
 * Runs the kernel over runs [run, runEnd) of the records at byte `recordsAt` (run ends at byte
 * `endsAt`; the first run starts at record `row`), and appends the pairs within k that `table` owns:
 * the kernel keeps candidates agreeing on the key bits (keyHi, keyLo) within k, and drops a pair that
 * agrees on a block `mustDiffer` names (an earlier table owns it).
 */
function scanRuns(
  scratch: Scratch,
  recordsAt: number,
  endsAt: number,
  run: number,
  runEnd: number,
  row: number,
  layout: BlockLayout,
  table: TableKey,
  keyHi: number,
  keyLo: number,
  swap: boolean,
  out: PairList,
): PairList {
  const { kernel, outAt, capacity, outA, outB, outDistance, differAt, differ } = scratch.arena;
  const k = layout.k;
  // Word 0 of a record (the kernel's low 32 bits) is lo when swapped; the block masks likewise.
  const mask0 = swap ? keyLo : keyHi;
  const mask1 = swap ? keyHi : keyLo;
  let differCount = 0;
  for (let j = 0; j < layout.blocks; j++) {
    if ((table.mustDiffer & (1 << j)) === 0) continue;
    differ[2 * differCount] = swap ? layout.maskLo[j] : layout.maskHi[j];
    differ[2 * differCount + 1] = swap ? layout.maskHi[j] : layout.maskLo[j];
    differCount++;
  }
  while (run < runEnd) {
    const count = kernel.scanRuns(recordsAt, endsAt, run, runEnd, row, k, mask0, mask1, differAt, differCount, outAt, capacity);
    run = kernel.nextRun();
    row = kernel.nextRow();
    if (count === 0) continue;
    if (out.count + count > out.a.length) out = ensurePairCapacity(out, out.count + count);
    // The scatters are stable, so document order holds inside a run: the first document is smaller.
    const c = out.count;
    out.a.set(outA.subarray(0, count), c);
    out.b.set(outB.subarray(0, count), c);
    out.distance.set(outDistance.subarray(0, count), c);
    countPairs(scratch, count);
    out.count = c + count;
  }
  return out;
}

/** Adds found pairs to the search's (and its sibling threads') count; throws past the limit. */
function countPairs(scratch: Scratch, added: number): void {
  const limit = scratch.limit;
  if (!limit || added === 0) return;
  scratch.counted += added;
  const total = limit.shared ? Atomics.add(limit.shared, 0, added) + added : scratch.counted;
  if (total > limit.limit) throw new PairLimitError(limit.limit);
}
