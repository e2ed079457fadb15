/**
 * Owns the containment search's inverted index of sampled passages (core/groups/containment-candidates.ts):
 * the postings (passage, document) grouped by passage, the passages held by two documents or more laid
 * out rarest first, and each document's list of them.
 */
import { isSharedMemory, type PackedSets } from './packed-sets.ts';

/**
 * Passages held by two documents or more (runs), laid out rarest first: run r (a rank: fewest
 * documents first, then by the first of them, then passage order) holds the documents `docOf[runStart[r]..runStart[r + 1])`,
 * largest first (`largestFirst`), so a walk looking for documents of some least size stops at the
 * first smaller one; document d's ranks are `docRuns[runsOfDoc[d]..runsOfDoc[d + 1])`, ascending: its
 * rarest passages first, and a sorted list two documents' shared passages are merged from. Rank order
 * is storage order, so the prefix walks, which visit mostly the rarest runs, read the front of the arrays.
 * `placeOf[i]`: where posting `docOf[i]` of its run lies in `docRuns`, so a walk that meets a document
 * in a run knows where that run is in the document's list without searching it.
 */
export interface SharedPassages {
  runStart: Uint32Array;
  docOf: Uint32Array;
  runsOfDoc: Uint32Array;
  docRuns: Uint32Array;
  placeOf: Uint32Array;
  /** Distinct passages, and (passage, document) postings, held by any number of documents. */
  passages: number;
  postings: number;
}

/**
 * Builds `SharedPassages` of documents `0..n-1` from their sampled passages (`passages.docs`
 * ascending) and their sizes (`sizes[d]`, 0 when unknown; none: all unknown); uses `passages.keys` as
 * scratch space, left reordered (every fresh large array costs its page faults), unless they lie in
 * shared memory (another thread's, read only).
 */
export function sharedPassages(n: number, passages: PackedSets, sizes?: Uint32Array): SharedPassages {
  const { docs, offsets } = passages;
  const total = offsets[docs.length] - offsets[0];
  // The postings sorted by passage, each passage's documents in the order the run lists keep, and the
  // runs (passages of two documents or more) found as each bucket is sorted.
  const order = largestFirst(docs, sizes);
  // Keys in shared memory are the page's own copy, never written: the scratch is then this thread's.
  const keys = isSharedMemory(passages.keys.buffer) ? new Uint32Array(total) : passages.keys.subarray(offsets[0], offsets[docs.length]);
  const sorted = sortPostings(passages, order, [new Uint32Array(2 * total), new Uint32Array(total), keys]);
  const { runs, pairs } = sorted;
  const sortedDocs = sorted.docs;
  // A count per length, and the postings kept.
  let longest = 0;
  let kept = 0;
  for (let r = 0; r < runs; r++) {
    const length = pairs[2 * r + 1];
    kept += length;
    if (length > longest) longest = length;
  }
  const byLength = new Uint32Array(longest + 2);
  for (let r = 0; r < runs; r++) byLength[pairs[2 * r + 1] + 1]++;
  // Ranks: runs by length, then by their first document (largest-first order), then in passage order:
  // two stable counting sorts. Runs a family of documents shares then lie side by side, and a walk over
  // one document's rarest runs reads neighbouring memory, not a place at random for each run.
  const place = new Uint32Array(n);
  for (let j = 0; j < order.length; j++) place[docs[order[j]]] = j;
  const byFirst = new Uint32Array(order.length + 1);
  for (let r = 0; r < runs; r++) byFirst[place[sortedDocs[pairs[2 * r]]] + 1]++;
  for (let j = 0; j < order.length; j++) byFirst[j + 1] += byFirst[j];
  const runsByFirst = new Uint32Array(runs);
  for (let r = 0; r < runs; r++) runsByFirst[byFirst[place[sortedDocs[pairs[2 * r]]]]++] = r;
  // Then each rank, and where its documents start, with the postings of all shorter runs before it:
  // by rank for the walks, and by run for the layout below, which reads it in run order.
  for (let l = 0; l <= longest; l++) byLength[l + 1] += byLength[l];
  const rankStart = byLength.slice();
  // Postings before length l's first run: the runs shorter than l, each as long as it is.
  const postingsBefore = new Float64Array(longest + 2);
  for (let l = 2; l <= longest; l++) postingsBefore[l + 1] = postingsBefore[l] + (byLength[l + 1] - byLength[l]) * l;
  const runStart = new Uint32Array(runs + 1);
  const startOf = new Uint32Array(runs);
  for (let t = 0; t < runs; t++) {
    const r = runsByFirst[t];
    const l = pairs[2 * r + 1];
    const rank = rankStart[l]++;
    startOf[r] = runStart[rank] = postingsBefore[l] + (rank - byLength[l]) * l;
  }
  runStart[runs] = kept;
  // The runs' documents, read in passage order (the sorted postings front to back) and written to their
  // ranks' places, into the back half of the pairs array (the runs' starts and lengths are at its front).
  const docOf = pairs.subarray(total, total + kept);
  const runsOfDoc = new Uint32Array(n + 1);
  for (let r = 0; r < runs; r++) {
    const from = pairs[2 * r];
    const to = from + pairs[2 * r + 1];
    let c = startOf[r];
    for (let i = from; i < to; i++) {
      const d = sortedDocs[i];
      docOf[c++] = d;
      runsOfDoc[d + 1]++;
    }
  }
  for (let d = 0; d < n; d++) runsOfDoc[d + 1] += runsOfDoc[d];
  // Each document's ranks, filled rank by rank so every list comes out ascending, in the memory of the
  // sorted keys, and each posting's place there in that of the sorted documents (neither needed past here).
  const fill = runsOfDoc.slice(0, n);
  const docRuns = sorted.keys.subarray(0, kept);
  const placeOf = sortedDocs.subarray(0, kept);
  for (let rank = 0; rank < runs; rank++) {
    for (let i = runStart[rank]; i < runStart[rank + 1]; i++) {
      const at = fill[docOf[i]]++;
      docRuns[at] = rank;
      placeOf[i] = at;
    }
  }
  return { runStart, docOf, runsOfDoc, docRuns, placeOf, passages: sorted.distinct, postings: total };
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
 * A radix digit's most bits: 2^11 buckets' write positions stay in a core's cache as a pass scatters.
 */
const MAX_DIGIT_BITS = 11;

/** The postings a bucket of the first pass holds on average, at most: the rest of its sort stays in a core's cache. */
const BUCKET_POSTINGS = 1024;

/** `sortPostings`' result: the sorted postings, and where those of a passage held by two documents or more lie. */
export interface SortedPostings {
  keys: Uint32Array;
  docs: Uint32Array;
  /**
   * The scratch pairs array (twice as long as the postings): run r's (two postings or more of one key)
   * start in the sorted postings and length at `pairs[2r]`, `pairs[2r + 1]`, in key order; the rest free.
   */
  pairs: Uint32Array;
  runs: number;
  /** Distinct keys. */
  distinct: number;
}

/**
 * The postings of `passages` (each document's keys, `docs[i]`'s at `offsets[i]..offsets[i + 1]`), the
 * documents taken in `order` (indexes of `docs`), sorted by key, each key's documents in `order`: a
 * stable radix sort on the key (skipping the low bits no key sets: sampling zeroes them). One pass
 * scatters the postings, read in place in `order`, by their top digit into buckets of about
 * `BUCKET_POSTINGS`, each posting a (key, document) pair of neighbouring words, so a bucket's write
 * position is one cache line, not two; each bucket is then sorted by the bits below (least significant
 * digit first) in a scratch as large as the largest bucket, in cache, its last pass writing keys and
 * documents apart, and its runs of one key found while it is still in cache: one pass through main
 * memory where a digit at a time over the whole array took three, and a fourth found the runs. `scratch` is (pairs, twice as long as the postings; docs;
 * keys, each as long: the keys array may be the passages' keys, read only by the first pass).
 */
export function sortPostings(passages: PackedSets, order: Uint32Array, scratch: [Uint32Array, Uint32Array, Uint32Array]): SortedPostings {
  // Locals, so the hot loops below look up no property.
  const { docs, offsets, keys } = passages;
  const from = offsets[0];
  const to = offsets[docs.length];
  const total = to - from;
  // The bits any key sets, and a count of the keys' top 11 bits in the same read: the top digit's
  // counts when it is those bits (hashed keys), else counted again below.
  const fine = new Uint32Array(1 << MAX_DIGIT_BITS);
  let any = 0;
  for (let i = from; i < to; i++) {
    const key = keys[i];
    any |= key;
    fine[key >>> (32 - MAX_DIGIT_BITS)]++;
  }
  // No key bit set: one pass on bit 0 still lays the postings out in `order`.
  const low = any === 0 ? 0 : 31 - Math.clz32(any & -any);
  const width = any === 0 ? 1 : 32 - Math.clz32(any) - low;
  // The top digit: enough buckets for small ones, and at most two digits left below it.
  const wanted = Math.ceil(Math.log2(Math.max(1, total / BUCKET_POSTINGS)));
  const topBits = Math.min(width, Math.max(1, width - 2 * MAX_DIGIT_BITS, Math.min(MAX_DIGIT_BITS, wanted)));
  const topShift = low + width - topBits;
  const buckets = 1 << topBits;
  const mask = buckets - 1;
  const starts = new Uint32Array(buckets + 1);
  if (low + width === 32 && topBits <= MAX_DIGIT_BITS) {
    // The top digit is the keys' top `topBits` bits: sums of the fine counts.
    for (let f = 0; f < fine.length; f++) starts[(f >>> (MAX_DIGIT_BITS - topBits)) + 1] += fine[f];
  } else {
    for (let i = from; i < to; i++) starts[((keys[i] >>> topShift) & mask) + 1]++;
  }
  let largest = 0;
  for (let t = 0; t < buckets; t++) {
    largest = Math.max(largest, starts[t + 1]);
    starts[t + 1] += starts[t];
  }
  const [pairs, toDocs, toKeys] = scratch;
  const fill = starts.slice(0, buckets);
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    const doc = docs[i];
    for (let k = offsets[i]; k < offsets[i + 1]; k++) {
      const key = keys[k];
      const at = 2 * fill[(key >>> topShift) & mask]++;
      pairs[at] = key;
      pairs[at + 1] = doc;
    }
  }
  const { runs, distinct } = sortBuckets(starts, pairs, largest, [toKeys, toDocs], low, width - topBits);
  return { keys: toKeys, docs: toDocs, pairs, runs, distinct };
}

/**
 * Sorts each bucket `starts[t]..starts[t + 1]` of `pairs` (key, document: two words a posting) by the
 * key's `bits` bits from `low` up, stably, least significant digit first, into `out` (keys, docs) at the
 * same places: one digit's pass straight there, two through a scratch for `largest` postings. Then
 * finds the bucket's runs of one key, written to the front of `pairs` (its postings read by then: a run
 * is two postings or more, four words of pairs).
 */
function sortBuckets(starts: Uint32Array, pairs: Uint32Array, largest: number, out: [Uint32Array, Uint32Array], low: number, bits: number): { runs: number; distinct: number } {
  const [keys, docs] = out;
  const passes = bits === 0 ? 0 : Math.ceil(bits / MAX_DIGIT_BITS);
  const digit = passes === 0 ? 0 : Math.ceil(bits / passes);
  const size = 1 << digit;
  const mask = size - 1;
  const counts = new Uint32Array(size);
  const between = new Uint32Array(passes === 2 ? 2 * largest : 0);
  let runs = 0;
  let distinct = 0;
  for (let t = 0; t + 1 < starts.length; t++) {
    const s = starts[t];
    const e = starts[t + 1];
    if (passes === 0 || e - s < 2) {
      for (let i = s; i < e; i++) {
        keys[i] = pairs[2 * i];
        docs[i] = pairs[2 * i + 1];
      }
    } else {
      // The low digit, into the scratch (from its start) when a second pass follows.
      let shift = low;
      counts.fill(0);
      for (let i = s; i < e; i++) counts[(pairs[2 * i] >>> shift) & mask]++;
      let at = passes === 2 ? 0 : s;
      for (let c = 0; c < size; c++) {
        const n = counts[c];
        counts[c] = at;
        at += n;
      }
      if (passes === 1) {
        for (let i = s; i < e; i++) {
          const key = pairs[2 * i];
          const p = counts[(key >>> shift) & mask]++;
          keys[p] = key;
          docs[p] = pairs[2 * i + 1];
        }
      } else {
        for (let i = s; i < e; i++) {
          const key = pairs[2 * i];
          const p = 2 * counts[(key >>> shift) & mask]++;
          between[p] = key;
          between[p + 1] = pairs[2 * i + 1];
        }
        // The high digit, from the scratch into place.
        shift += digit;
        counts.fill(0);
        const n = e - s;
        for (let i = 0; i < n; i++) counts[(between[2 * i] >>> shift) & mask]++;
        at = s;
        for (let c = 0; c < size; c++) {
          const m = counts[c];
          counts[c] = at;
          at += m;
        }
        for (let i = 0; i < n; i++) {
          const key = between[2 * i];
          const p = counts[(key >>> shift) & mask]++;
          keys[p] = key;
          docs[p] = between[2 * i + 1];
        }
      }
    }
    // The bucket's keys, in cache: a key is in no other bucket.
    for (let i = s; i < e; ) {
      const key = keys[i];
      let j = i + 1;
      while (j < e && keys[j] === key) j++;
      distinct++;
      if (j - i > 1) {
        pairs[2 * runs] = i;
        pairs[2 * runs + 1] = j - i;
        runs++;
      }
      i = j;
    }
  }
  return { runs, distinct };
}
