/**
 * The typed-array list of near-duplicate pairs (a < b, distance) that all-pairs produces, with
 * concatenation (for per-worker results), a radix sort into (a, b) order, and the bound on how many
 * pairs a search may find.
 */
import { mergePairColumns, sortPairColumns } from './pair-scan.ts';

/** Pairs as parallel typed arrays; only the first `count` entries are meaningful. */
export interface PairList {
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
  count: number;
}

/** Pairs whose exact Jaccard is already known (a < b doc ids, sorted by a then b). */
export interface KnownPairs {
  a: Uint32Array;
  b: Uint32Array;
  jaccard: Float64Array;
  count: number;
}

/** An empty pair list with room for `capacity` pairs. */
export function createPairList(capacity = 1024): PairList {
  const c = Math.max(16, capacity | 0);
  return { a: new Uint32Array(c), b: new Uint32Array(c), distance: new Uint8Array(c), count: 0 };
}

/** Returns a list with room for at least `needed` pairs, doubling the arrays when full. */
export function ensurePairCapacity(list: PairList, needed: number): PairList {
  if (needed <= list.a.length) return list;
  let c = list.a.length * 2;
  while (c < needed) c *= 2;
  const a = new Uint32Array(c);
  const b = new Uint32Array(c);
  const distance = new Uint8Array(c);
  a.set(list.a.subarray(0, list.count));
  b.set(list.b.subarray(0, list.count));
  distance.set(list.distance.subarray(0, list.count));
  return { a, b, distance, count: list.count };
}

/** A copy trimmed to exactly `count` entries (so buffers sent across threads carry no slack). */
export function trimPairList(list: PairList): PairList {
  if (list.a.length === list.count) return list;
  return {
    a: list.a.slice(0, list.count),
    b: list.b.slice(0, list.count),
    distance: list.distance.slice(0, list.count),
    count: list.count,
  };
}

/** Concatenates pair lists in order (the union of per-worker table ranges). */
export function concatPairLists(lists: readonly PairList[]): PairList {
  let total = 0;
  for (const l of lists) total += l.count;
  const out = createPairList(total);
  for (const l of lists) {
    out.a.set(l.a.subarray(0, l.count), out.count);
    out.b.set(l.b.subarray(0, l.count), out.count);
    out.distance.set(l.distance.subarray(0, l.count), out.count);
    out.count += l.count;
  }
  return out;
}

/**
 * Sorts pairs by (a, b), so output does not depend on the block count or thread split: by comparison
 * when short, else in the pair kernel as one 64-bit key a pair (a, b and the distance packed) while
 * they fit one and there are at most 2^24 pairs, else by a stable LSD radix sort (16-bit digits;
 * digits that are zero for every entry are skipped). A search reports each pair once.
 */
export function sortPairs(list: PairList): PairList {
  const n = list.count;
  let a = list.a.slice(0, n);
  let b = list.b.slice(0, n);
  let d = list.distance.slice(0, n);
  if (n < 2) return { a, b, distance: d, count: n };
  // Each radix pass walks 65,536 buckets: a short list sorts faster by comparison (stable: ties by position).
  if (n < 1024) {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((x, y) => a[x] - a[y] || b[x] - b[y] || x - y);
    const sorted = createPairList(n);
    for (let i = 0; i < n; i++) {
      sorted.a[i] = a[order[i]];
      sorted.b[i] = b[order[i]];
      sorted.distance[i] = d[order[i]];
    }
    sorted.count = n;
    return sorted;
  }
  let maxA = 0;
  let maxB = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] > maxA) maxA = a[i];
    if (b[i] > maxB) maxB = b[i];
  }
  const aBits = 32 - Math.clz32(maxA);
  const bBits = 32 - Math.clz32(maxB);
  if (n <= KERNEL_PAIRS_MAX && aBits + bBits + 7 <= 64) {
    sortPairColumns(a, b, d, n, bBits, aBits + bBits + 7);
    return { a, b, distance: d, count: n };
  }
  let a2 = new Uint32Array(n);
  let b2 = new Uint32Array(n);
  let d2 = new Uint8Array(n);
  const count = new Uint32Array(65537);
  // Least significant first: b's low and high digits, then a's.
  const passes: Array<[0 | 1, number]> = [];
  passes.push([1, 0]);
  if (maxB > 0xffff) passes.push([1, 16]);
  passes.push([0, 0]);
  if (maxA > 0xffff) passes.push([0, 16]);
  for (const [word, shift] of passes) {
    const src = word === 0 ? a : b;
    count.fill(0);
    for (let i = 0; i < n; i++) count[((src[i] >>> shift) & 0xffff) + 1]++;
    for (let v = 1; v < 65537; v++) count[v] += count[v - 1];
    for (let i = 0; i < n; i++) {
      const p = count[(src[i] >>> shift) & 0xffff]++;
      a2[p] = a[i];
      b2[p] = b[i];
      d2[p] = d[i];
    }
    [a, a2] = [a2, a];
    [b, b2] = [b2, b];
    [d, d2] = [d2, d];
  }
  return { a, b, distance: d, count: n };
}

/**
 * Up to this many pairs sort or merge in the pair kernel (25 bytes a pair of its memory while it
 * works); its loops run optimized from their first call, where a one-shot run (the CLI) would pay the
 * JavaScript loops' warm-up.
 */
const KERNEL_PAIRS_MAX = 1 << 24;

/**
 * Merges lists each sorted by (a, b) into one sorted list (a pair in at most one of them): what
 * `sortPairs` gives for their concatenation, at one pass over the pairs once each thread sorted its own.
 */
export function mergeSortedPairs(lists: readonly PairList[]): PairList {
  let merged = lists.length === 0 ? createPairList(16) : lists[0];
  for (let i = 1; i < lists.length; i++) merged = mergeTwo(merged, lists[i]);
  return merged;
}

function mergeTwo(x: PairList, y: PairList): PairList {
  const out = createPairList(x.count + y.count);
  if (x.count + y.count <= KERNEL_PAIRS_MAX) {
    mergePairColumns(x, y, out);
    out.count = x.count + y.count;
    return out;
  }
  let i = 0;
  let j = 0;
  let o = 0;
  while (i < x.count && j < y.count) {
    // Compare (a, b); pairs are distinct, so there is no tie.
    const takeX = x.a[i] < y.a[j] || (x.a[i] === y.a[j] && x.b[i] < y.b[j]);
    if (takeX) {
      out.a[o] = x.a[i];
      out.b[o] = x.b[i];
      out.distance[o++] = x.distance[i++];
    } else {
      out.a[o] = y.a[j];
      out.b[o] = y.b[j];
      out.distance[o++] = y.distance[j++];
    }
  }
  for (; i < x.count; i++, o++) {
    out.a[o] = x.a[i];
    out.b[o] = x.b[i];
    out.distance[o] = x.distance[i];
  }
  for (; j < y.count; j++, o++) {
    out.a[o] = y.a[j];
    out.b[o] = y.b[j];
    out.distance[o] = y.distance[j];
  }
  out.count = o;
  return out;
}

/**
 * A bound on the pairs a search may find. Threads searching parts of one layout share `shared`
 * (an Int32Array over a SharedArrayBuffer, starting at 0), so the bound holds for their sum.
 */
export interface PairLimit {
  limit: number;
  shared?: Int32Array;
}

/** Thrown when a search finds more pairs than its `PairLimit`: the output would not fit. */
export class PairLimitError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} pairs`);
    this.name = 'PairLimitError';
  }
}
