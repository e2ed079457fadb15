/**
 * Owns the containment search's inverted index of sampled passages (core/groups/containment-candidates.ts):
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
 * ascending) and their sizes (`sizes[d]`, 0 when unknown; none: all unknown); `passages` are only
 * read. The fresh memory is one array twice as long as the postings (`postingRuns`), which ends up
 * holding both lists of documents (every fresh page costs a fault).
 */
export function sharedPassages(n: number, passages: PackedSets, sizes?: Uint32Array): SharedPassages {
  const { docs, offsets } = passages;
  const total = offsets[docs.length] - offsets[0];
  // The runs in passage order, each one's documents in the order the run lists keep.
  const order = largestFirst(docs, sizes);
  const found = postingRuns(passages, order);
  const { runs, lengths } = found;
  const runDocs = found.docs;
  // A count per length, and the postings kept.
  let longest = 0;
  let kept = 0;
  for (let r = 0; r < runs; r++) {
    const length = lengths[r];
    kept += length;
    if (length > longest) longest = length;
  }
  const byLength = new Uint32Array(longest + 2);
  for (let r = 0; r < runs; r++) byLength[lengths[r] + 1]++;
  // Ranks: runs by length, then by their first document (largest-first order), then in passage order:
  // two stable counting sorts. Runs a family of documents shares then lie side by side, and a walk over
  // one document's rarest runs reads neighbouring memory, not a place at random for each run.
  const place = new Uint32Array(n);
  for (let j = 0; j < order.length; j++) place[docs[order[j]]] = j;
  const byFirst = new Uint32Array(order.length + 1);
  for (let r = 0, at = 0; r < runs; at += lengths[r++]) byFirst[place[runDocs[at]] + 1]++;
  for (let j = 0; j < order.length; j++) byFirst[j + 1] += byFirst[j];
  const runsByFirst = new Uint32Array(runs);
  for (let r = 0, at = 0; r < runs; at += lengths[r++]) runsByFirst[byFirst[place[runDocs[at]]]++] = r;
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
    const l = lengths[r];
    const rank = rankStart[l]++;
    startOf[r] = runStart[rank] = postingsBefore[l] + (rank - byLength[l]) * l;
  }
  runStart[runs] = kept;
  // The runs' documents, read in passage order and written to their ranks' places, in `postingRuns`' spare memory.
  const docOf = found.spare;
  const runsOfDoc = new Uint32Array(n + 1);
  for (let r = 0, at = 0; r < runs; r++) {
    let c = startOf[r];
    for (const end = at + lengths[r]; at < end; at++) {
      const d = runDocs[at];
      docOf[c++] = d;
      runsOfDoc[d + 1]++;
    }
  }
  for (let d = 0; d < n; d++) runsOfDoc[d + 1] += runsOfDoc[d];
  // Each document's ranks, filled rank by rank so every list comes out ascending, in the memory of the
  // runs' documents in passage order (not needed past here).
  const fill = runsOfDoc.slice(0, n);
  const docRuns = runDocs.subarray(0, kept);
  for (let rank = 0; rank < runs; rank++) {
    for (let i = runStart[rank]; i < runStart[rank + 1]; i++) docRuns[fill[docOf[i]]++] = rank;
  }
  return { runStart, docOf, runsOfDoc, docRuns, passages: found.distinct, postings: total };
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

/** The postings a bucket holds on average, at least: a bucket's sort stays in a core's cache. */
const BUCKET_POSTINGS = 1024;

/** `postingRuns`' result: the passages held by two documents or more (runs), in passage order. */
export interface PostingRuns {
  /** Run after run, each run's documents in the order given (a run starts where the one before ends). */
  docs: Uint32Array;
  /** Run r's length, `lengths[r]` (two or more). */
  lengths: Uint32Array;
  runs: number;
  /** Distinct keys. */
  distinct: number;
  /** Memory past `docs`, as long, free for the caller: the same buffer, so no fresh pages. */
  spare: Uint32Array;
}

/**
 * The runs of `passages` (each document's keys, `docs[i]`'s at `offsets[i]..offsets[i + 1]`): the keys
 * held by two documents or more, in key order, each one's documents in `order` (indexes of `docs`). A
 * stable radix sort on the key (skipping the low bits no key sets: sampling zeroes them). One pass
 * scatters the postings, read in place in `order`, by their top digit into buckets of about
 * `BUCKET_POSTINGS`, each posting a (key, document) pair of neighbouring words, so a bucket's write
 * position is one cache line, not two; each bucket is then sorted by the bits below (least significant
 * digit first) in scratches as large as the largest bucket, in cache, and its runs read off there, their
 * documents written to the front of the same array (behind what is still to be read). One array twice
 * as long as the postings is the fresh memory: sorted keys and documents in arrays of their own, three
 * more as long, are never needed (only the runs are).
 */
export function postingRuns(passages: PackedSets, order: Uint32Array): PostingRuns {
  // Locals, so the hot loops below look up no property. The keys read as int32 (the same bits): TurboFan
  // took small keys for int32s and threw its code away at the first past 2^31.
  const { docs, offsets } = passages;
  const keys = new Int32Array(passages.keys.buffer, passages.keys.byteOffset, passages.keys.length);
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
  // The top digit: enough buckets for small ones, and at most two digits left below it. No key sets a
  // bit above it, so it is the key shifted.
  const wanted = Math.ceil(Math.log2(Math.max(1, total / BUCKET_POSTINGS)));
  const topBits = Math.min(width, Math.max(1, width - 2 * MAX_DIGIT_BITS, Math.min(MAX_DIGIT_BITS, wanted)));
  const topShift = low + width - topBits;
  const buckets = 1 << topBits;
  const starts = new Uint32Array(buckets + 1);
  if (low + width === 32 && topBits <= MAX_DIGIT_BITS) {
    // The top digit is the keys' top `topBits` bits: sums of the fine counts.
    for (let f = 0; f < fine.length; f++) starts[(f >>> (MAX_DIGIT_BITS - topBits)) + 1] += fine[f];
  } else {
    for (let i = from; i < to; i++) starts[(keys[i] >>> topShift) + 1]++;
  }
  let largest = 0;
  for (let t = 0; t < buckets; t++) {
    largest = Math.max(largest, starts[t + 1]);
    starts[t + 1] += starts[t];
  }
  const pairs = new Int32Array(2 * total);
  const fill = starts.slice(0, buckets);
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    const doc = docs[i];
    for (let k = offsets[i]; k < offsets[i + 1]; k++) {
      const key = keys[k];
      const at = 2 * fill[key >>> topShift]++;
      pairs[at] = key;
      pairs[at + 1] = doc;
    }
  }
  // The sort below the top digit: one digit's pass or two, between two scratches of (key, document) pairs.
  const bits = width - topBits;
  const passes = bits === 0 ? 0 : Math.ceil(bits / MAX_DIGIT_BITS);
  const digit = passes === 0 ? 0 : Math.ceil(bits / passes);
  const digitMask = (1 << digit) - 1;
  const digitCounts = new Uint32Array(1 << digit);
  const scratch = [new Int32Array(passes > 0 ? 2 * largest : 0), new Int32Array(passes > 1 ? 2 * largest : 0)];
  const lengths = new Uint32Array(total >>> 1);
  let kept = 0;
  let runs = 0;
  let distinct = 0;
  for (let t = 0; t < buckets; t++) {
    const s = starts[t];
    const count = starts[t + 1] - s;
    if (count === 0) continue;
    let source = pairs;
    let base = 2 * s;
    for (let pass = 0, shift = low; pass < passes; pass++, shift += digit) {
      digitCounts.fill(0);
      for (let i = 0; i < count; i++) digitCounts[(source[base + 2 * i] >>> shift) & digitMask]++;
      let at = 0;
      for (let v = 0; v < digitCounts.length; v++) {
        const x = digitCounts[v];
        digitCounts[v] = at;
        at += x;
      }
      const target = scratch[pass];
      for (let i = 0; i < count; i++) {
        const key = source[base + 2 * i];
        const p = 2 * digitCounts[(key >>> shift) & digitMask]++;
        target[p] = key;
        target[p + 1] = source[base + 2 * i + 1];
      }
      source = target;
      base = 0;
    }
    // The bucket's runs, in cache (a key is in no other bucket); their documents go to the front of
    // `pairs`, at most as far as the postings read so far: never over one still to be read.
    for (let i = 0; i < count; ) {
      const key = source[base + 2 * i];
      let j = i + 1;
      while (j < count && source[base + 2 * j] === key) j++;
      distinct++;
      if (j - i > 1) {
        lengths[runs++] = j - i;
        for (; i < j; i++) pairs[kept++] = source[base + 2 * i + 1];
      }
      i = j;
    }
  }
  const runDocs = new Uint32Array(pairs.buffer, 0, 2 * total);
  return { docs: runDocs.subarray(0, kept), lengths: lengths.subarray(0, runs), runs, distinct, spare: runDocs.subarray(total, total + kept) };
}
