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
  // The postings in the order the run lists keep (the sort below is stable).
  const order = largestFirst(docs, sizes);
  const postingKeys = new Uint32Array(total);
  const postingDoc = new Uint32Array(total);
  for (let j = 0, c = 0; j < order.length; j++) {
    const i = order[j];
    const length = offsets[i + 1] - offsets[i];
    postingKeys.set(passages.keys.subarray(offsets[i], offsets[i + 1]), c);
    postingDoc.fill(docs[i], c, c + length);
    c += length;
  }
  const keys = passages.keys.subarray(offsets[0], offsets[docs.length]);
  const scratchDocs = new Uint32Array(total);
  const sorted = sortPostings(postingKeys, postingDoc, keys, scratchDocs);
  const sortedKeys = sorted.keys;
  const sortedDocs = sorted.docs;
  // One pass: distinct passages, runs (two documents or more), their postings and the longest.
  let distinct = 0;
  let runs = 0;
  let kept = 0;
  let longest = 0;
  for (let i = 0; i < total; ) {
    const key = sortedKeys[i];
    let j = i + 1;
    while (j < total && sortedKeys[j] === key) j++;
    distinct++;
    if (j - i > 1) {
      runs++;
      kept += j - i;
      if (j - i > longest) longest = j - i;
    }
    i = j;
  }
  // Each run's start in the sorted postings and its length, in passage order; a count per length.
  const runAt = new Uint32Array(runs);
  const runLength = new Uint32Array(runs);
  const byLength = new Uint32Array(longest + 2);
  for (let i = 0, r = 0; i < total; ) {
    const key = sortedKeys[i];
    let j = i + 1;
    while (j < total && sortedKeys[j] === key) j++;
    if (j - i > 1) {
      runAt[r] = i;
      runLength[r++] = j - i;
      byLength[j - i + 1]++;
    }
    i = j;
  }
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
  const docOf = (sortedDocs === postingDoc ? scratchDocs : postingDoc).subarray(0, kept);
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

/** A radix digit's most bits: 2^11 buckets' write positions stay in a core's cache as a pass scatters. */
const MAX_DIGIT_BITS = 11;

/**
 * Sorts the postings (keys[i], docs[i]) by key, then document: a stable least-significant-digit radix
 * sort on the key (digits of at most `MAX_DIGIT_BITS`, skipping the low bits no key sets: sampling zeroes
 * them), which keeps the documents ascending within a key because the postings come in document order.
 * Every digit's counts are taken in one pass. Returns the pair holding the result: the given arrays or
 * the scratch ones (as long).
 */
export function sortPostings(keys: Uint32Array, docs: Uint32Array, scratchKeys: Uint32Array, scratchDocs: Uint32Array): { keys: Uint32Array; docs: Uint32Array } {
  const total = keys.length;
  let any = 0;
  for (let i = 0; i < total; i++) any |= keys[i];
  if (any === 0) return { keys, docs };
  const low = 31 - Math.clz32(any & -any);
  const width = 32 - Math.clz32(any) - low;
  const passes = Math.ceil(width / MAX_DIGIT_BITS);
  const digit = Math.ceil(width / passes);
  const buckets = 1 << digit;
  const mask = buckets - 1;
  const counts = new Uint32Array(passes * buckets);
  for (let i = 0; i < total; i++) {
    const key = keys[i] >>> low;
    for (let pass = 0; pass < passes; pass++) counts[pass * buckets + ((key >>> (pass * digit)) & mask)]++;
  }
  let fromKeys = keys;
  let fromDocs = docs;
  let toKeys = scratchKeys;
  let toDocs = scratchDocs;
  for (let pass = 0; pass < passes; pass++) {
    const shift = low + pass * digit;
    // Each bucket's first position, in place of its count.
    const base = pass * buckets;
    let at = 0;
    for (let t = base; t < base + buckets; t++) {
      const c = counts[t];
      counts[t] = at;
      at += c;
    }
    for (let i = 0; i < total; i++) {
      const key = fromKeys[i];
      const to = counts[base + ((key >>> shift) & mask)]++;
      toKeys[to] = key;
      toDocs[to] = fromDocs[i];
    }
    [fromKeys, toKeys] = [toKeys, fromKeys];
    [fromDocs, toDocs] = [toDocs, fromDocs];
  }
  return { keys: fromKeys, docs: fromDocs };
}
