/**
 * Owns the containment search's inverted index of sampled passages (core/groups/contained-pairs.ts):
 * the postings (passage, document) grouped by passage, the passages held by two documents or more laid
 * out rarest first, and each document's list of them.
 */
import type { PackedSets } from './packed-sets.ts';

/**
 * Passages held by two documents or more (runs), laid out rarest first: run r (a rank: fewest
 * documents first, then by the first of them, then passage order) holds the documents `docOf[runStart[r]..runStart[r + 1])`,
 * largest first (`largestFirst`), so a walk looking for documents of some least size stops at the
 * first smaller one; document d's ranks are `docRuns[runsOfDoc[d]..runsOfDoc[d + 1])`, ascending: its
 * rarest passages first, and a sorted list two documents' shared passages are merged from. Rank order
 * is storage order, so the prefix walks, which visit mostly the rarest runs, read the front of the arrays.
 */
export interface SharedPassages {
  runStart: Uint32Array;
  docOf: Uint32Array;
  runsOfDoc: Uint32Array;
  docRuns: Uint32Array;
  /** Distinct passages, and (passage, document) postings, held by any number of documents. */
  passages: number;
  postings: number;
}

/**
 * Builds `SharedPassages` of documents `0..n-1` from their sampled passages (`passages.docs`
 * ascending) and their sizes (`sizes[d]`, 0 when unknown; none: all unknown); uses `passages.keys` as
 * scratch space, left reordered (every fresh large array costs its page faults).
 */
export function sharedPassages(n: number, passages: PackedSets, sizes?: Uint32Array): SharedPassages {
  const { docs, offsets } = passages;
  const total = offsets[docs.length] - offsets[0];
  // The postings sorted by passage, each passage's documents in the order the run lists keep.
  const order = largestFirst(docs, sizes);
  const keys = passages.keys.subarray(offsets[0], offsets[docs.length]);
  const sorted = sortPostings(passages, order, [new Uint32Array(total), new Uint32Array(total), keys, new Uint32Array(total)]);
  const sortedKeys = sorted.keys;
  const sortedDocs = sorted.docs;
  // One pass: distinct passages, and each run's (two documents or more) start in the sorted postings and
  // length, in passage order, in the sort's free keys array (at most total / 2 runs); the postings kept.
  const half = total >>> 1;
  const runAt = sorted.free.subarray(0, half);
  const runLength = sorted.free.subarray(half, 2 * half);
  let distinct = 0;
  let runs = 0;
  let kept = 0;
  for (let i = 0; i < total; ) {
    const key = sortedKeys[i];
    let j = i + 1;
    while (j < total && sortedKeys[j] === key) j++;
    distinct++;
    if (j - i > 1) {
      runAt[runs] = i;
      runLength[runs++] = j - i;
      kept += j - i;
    }
    i = j;
  }
  // A count per length.
  let longest = 0;
  for (let r = 0; r < runs; r++) if (runLength[r] > longest) longest = runLength[r];
  const byLength = new Uint32Array(longest + 2);
  for (let r = 0; r < runs; r++) byLength[runLength[r] + 1]++;
  // Ranks: runs by length, then by their first document (largest-first order), then in passage order:
  // two stable counting sorts. Runs a family of documents shares then lie side by side, and a walk over
  // one document's rarest runs reads neighbouring memory, not a place at random for each run.
  const place = new Uint32Array(n);
  for (let j = 0; j < order.length; j++) place[docs[order[j]]] = j;
  const byFirst = new Uint32Array(order.length + 1);
  for (let r = 0; r < runs; r++) byFirst[place[sortedDocs[runAt[r]]] + 1]++;
  for (let j = 0; j < order.length; j++) byFirst[j + 1] += byFirst[j];
  const runsByFirst = new Uint32Array(runs);
  for (let r = 0; r < runs; r++) runsByFirst[byFirst[place[sortedDocs[runAt[r]]]]++] = r;
  // Then where each rank's documents start, with the postings of all shorter runs before it.
  for (let l = 0; l <= longest; l++) byLength[l + 1] += byLength[l];
  const rankStart = byLength.slice();
  const runStart = new Uint32Array(runs + 1);
  const rankOf = new Uint32Array(runs);
  for (let t = 0; t < runs; t++) {
    const r = runsByFirst[t];
    rankOf[r] = rankStart[runLength[r]]++;
  }
  // Postings before length l's first run: the runs shorter than l, each as long as it is.
  const postingsBefore = new Float64Array(longest + 2);
  for (let l = 2; l <= longest; l++) postingsBefore[l + 1] = postingsBefore[l] + (byLength[l + 1] - byLength[l]) * l;
  for (let r = 0; r < runs; r++) {
    const l = runLength[r];
    runStart[rankOf[r]] = postingsBefore[l] + (rankOf[r] - byLength[l]) * l;
  }
  runStart[runs] = kept;
  // The runs' documents, read in passage order (the sorted postings front to back) and written to their
  // ranks' places, into the documents' array the sort left free.
  const docOf = sorted.other.subarray(0, kept);
  const runsOfDoc = new Uint32Array(n + 1);
  for (let r = 0; r < runs; r++) {
    const from = runAt[r];
    const to = from + runLength[r];
    let c = runStart[rankOf[r]];
    for (let i = from; i < to; i++) {
      const d = sortedDocs[i];
      docOf[c++] = d;
      runsOfDoc[d + 1]++;
    }
  }
  for (let d = 0; d < n; d++) runsOfDoc[d + 1] += runsOfDoc[d];
  // Each document's ranks, filled rank by rank so every list comes out ascending, in the memory of the
  // sorted keys (not needed past here).
  const fill = runsOfDoc.slice(0, n);
  const docRuns = sortedKeys.subarray(0, kept);
  for (let rank = 0; rank < runs; rank++) for (let i = runStart[rank]; i < runStart[rank + 1]; i++) docRuns[fill[docOf[i]]++] = rank;
  return { runStart, docOf, runsOfDoc, docRuns, passages: distinct, postings: total };
}

/**
 * The order of `docs`' indexes that puts larger documents first: by `sizes[docs[i]]` descending, unknown
 * sizes (0) before every known one, then by document.
 */
export function largestFirst(docs: Uint32Array, sizes?: Uint32Array): Uint32Array {
  const count = docs.length;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  if (!sizes) return order;
  // Unknown sizes count as the largest: a walk stopping at the first document too small never skips one.
  const slot = (i: number) => (sizes[docs[i]] === 0 ? 0 : 2 ** 32 - sizes[docs[i]]);
  if (count > 2 ** 21) return order.sort((x, y) => slot(x) - slot(y) || x - y);
  // (slot, index) packed in one float, exact below 2^53, and sorted as numbers: no comparator call a pair.
  const packed = new Float64Array(count);
  for (let i = 0; i < count; i++) packed[i] = slot(i) * count + i;
  packed.sort();
  for (let i = 0; i < count; i++) order[i] = packed[i] % count;
  return order;
}

/**
 * A radix digit's most bits, so a key has three digits at most: 2^11 buckets' write positions stay in a
 * core's cache as a pass scatters.
 */
const MAX_DIGIT_BITS = 11;

/**
 * The postings of `passages` (each document's keys, `docs[i]`'s at `offsets[i]..offsets[i + 1]`), the
 * documents taken in `order` (indexes of `docs`), sorted by key: a stable least-significant-digit radix
 * sort on the key (digits of at most `MAX_DIGIT_BITS`, skipping the low bits no key sets: sampling zeroes
 * them), so each key's documents stay in `order`. The first pass reads the documents in place, in
 * `order`: no copy of the postings before. Every digit's counts are taken before the first pass. `scratch` is
 * (keys, docs, keys, docs), each as long as the postings; the result is one of its pairs, and `other` and
 * `free` the other pair's documents and keys arrays, free.
 */
export function sortPostings(
  passages: PackedSets,
  order: Uint32Array,
  scratch: [Uint32Array, Uint32Array, Uint32Array, Uint32Array],
): { keys: Uint32Array; docs: Uint32Array; other: Uint32Array; free: Uint32Array } {
  // Locals, so the hot loops below look up no property.
  const { docs, offsets, keys } = passages;
  const from = offsets[0];
  const to = offsets[docs.length];
  let any = 0;
  for (let i = from; i < to; i++) any |= keys[i];
  // No key bit set: one pass on bit 0 still lays the postings out in `order`.
  const low = any === 0 ? 0 : 31 - Math.clz32(any & -any);
  const width = any === 0 ? 1 : 32 - Math.clz32(any) - low;
  const passes = Math.ceil(width / MAX_DIGIT_BITS);
  const digit = Math.ceil(width / passes);
  const buckets = 1 << digit;
  const mask = buckets - 1;
  // Counts of all three digits a key can have (32 bits in digits of at most 11) in one read of the keys,
  // written out: a loop over the digits inside the loop over the keys compiles to slower code. Digits
  // past `passes` are counted and never used.
  const counts = new Uint32Array(3 * buckets);
  for (let i = from; i < to; i++) {
    const key = keys[i] >>> low;
    counts[key & mask]++;
    counts[buckets + ((key >>> digit) & mask)]++;
    counts[2 * buckets + ((key >>> (2 * digit)) & mask)]++;
  }
  // Each bucket's first position, in place of its count.
  const starts = (base: number) => {
    let at = 0;
    for (let t = base; t < base + buckets; t++) {
      const c = counts[t];
      counts[t] = at;
      at += c;
    }
  };
  let [toKeys, toDocs, fromKeys, fromDocs] = scratch;
  starts(0);
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    const doc = docs[i];
    for (let k = offsets[i]; k < offsets[i + 1]; k++) {
      const key = keys[k];
      const at = counts[(key >>> low) & mask]++;
      toKeys[at] = key;
      toDocs[at] = doc;
    }
  }
  for (let pass = 1; pass < passes; pass++) {
    [fromKeys, toKeys] = [toKeys, fromKeys];
    [fromDocs, toDocs] = [toDocs, fromDocs];
    const shift = low + pass * digit;
    const base = pass * buckets;
    starts(base);
    for (let i = 0; i < to - from; i++) {
      const key = fromKeys[i];
      const at = counts[base + ((key >>> shift) & mask)]++;
      toKeys[at] = key;
      toDocs[at] = fromDocs[i];
    }
  }
  return { keys: toKeys, docs: toDocs, other: fromDocs, free: fromKeys };
}
