/**
 * Owns the "A is contained in B" relation: an excerpt inside its whole, a document inside the same
 * document with an appendix. Whole-document fingerprints of a half and its whole are far apart, so the
 * candidates come from passages instead: every feature (a word shingle is a passage of a few words)
 * whose key falls in a fixed 1-in-2^s slice of the hash space is a passage fingerprint. The slice is
 * chosen by content alone, so a passage cut out of its document keeps its fingerprint, and if A lies
 * in B, A's sampled passages lie in B's in the same proportion as A's features lie in B's. Pairs that
 * share enough sampled passages are verified by the exact containment |A ∩ B| / |A| of the feature
 * sets the Jaccard uses.
 */
import { intersectionSize } from './jaccard.ts';

/** How the contained pairs are found; `DEFAULT_CONTAINMENT` holds the defaults. */
export interface ContainmentOptions {
  /** A is contained in B when |A ∩ B| / |A| >= this (0 turns the search off). */
  threshold: number;
  /** Pairs at or above this Jaccard are near-duplicates, not containments, and are left out. */
  jaccardThreshold: number;
  /** Passage fingerprints are the keys whose low `sampleBits` bits are zero (1 in 2^bits of the features). */
  sampleBits: number;
  /** Documents with fewer sampled passages than this are too short to be called contained. */
  minPassages: number;
}

/**
 * The containment setting a scan starts with: off, until the search's cost fits a default scan (README,
 * "Contained documents"); a person turns it on with a threshold, usually `DEFAULT_CONTAINMENT.threshold`.
 */
export const CONTAINMENT_DEFAULT_SETTING = 0;

export const DEFAULT_CONTAINMENT: ContainmentOptions = {
  threshold: 0.9,
  jaccardThreshold: 0.8,
  sampleBits: 3,
  minPassages: 4,
};

/** Contained pairs, parallel arrays: `inner[i]`'s features lie in `outer[i]`'s at `containment[i]`. */
export interface ContainedPairs {
  inner: Uint32Array;
  outer: Uint32Array;
  containment: Float32Array;
  jaccard: Float32Array;
  count: number;
}

/** Contained pairs of a result (doc ids of distinct texts), with the fingerprint distance of each pair. */
export interface ContainedRelation extends ContainedPairs {
  distance: Uint8Array;
}

/**
 * What the search did, counted (not timed): distinct passages indexed, (passage, document) postings,
 * postings walked by the prefix loops, pairs whose sample lists were merged, candidates left to verify.
 */
export interface ContainmentStats {
  passages: number;
  postings: number;
  walked: number;
  compared: number;
  candidates: number;
}

/**
 * Sampled passages of some documents, packed (the shape of the ingest workers' PackedSets): document
 * `docs[i]` (ascending) has the sorted keys `keys[offsets[i]..offsets[i + 1])`.
 */
export interface PassageSamples {
  docs: Uint32Array;
  offsets: Uint32Array;
  keys: Uint32Array;
}

/** Pairs to measure: `inner[i]` has no more sampled passages than `outer[i]` (the exact sizes decide later). */
export interface ContainmentCandidates {
  inner: Uint32Array;
  outer: Uint32Array;
  count: number;
}

/** The passage fingerprints of a sorted feature set: its keys whose low `sampleBits` bits are zero, in order. */
export function samplePassages(set: Uint32Array, sampleBits: number = DEFAULT_CONTAINMENT.sampleBits): Uint32Array {
  const mask = (1 << sampleBits) - 1;
  let c = 0;
  for (let i = 0; i < set.length; i++) if ((set[i] & mask) === 0) c++;
  const out = new Uint32Array(c);
  c = 0;
  for (let i = 0; i < set.length; i++) if ((set[i] & mask) === 0) out[c++] = set[i];
  return out;
}

/**
 * Finds every pair (A, B) with |A ∩ B| / |A| >= threshold and Jaccard < jaccardThreshold among
 * documents `0..sets.length-1`, where `sets[d]` is document d's sorted, duplicate-free feature set
 * (an empty set takes no part: a skipped document). A is the smaller set (on equal sizes the lower id);
 * pairs come sorted by (inner, outer). `eligible(d)` may exclude documents (exact copies other than a
 * class's head, so the relation is stated once per text). The search's two halves,
 * `containmentCandidates` and `ContainedBuffer.judge`, are what a scan runs apart (passages from the ingest
 * workers, exact counts where the feature sets are).
 */
export function findContainedPairs(
  sets: readonly Uint32Array[],
  options: ContainmentOptions = DEFAULT_CONTAINMENT,
  eligible: (doc: number) => boolean = () => true,
): { pairs: ContainedPairs; stats: ContainmentStats } {
  const n = sets.length;
  const docs: number[] = [];
  const parts: Uint32Array[] = [];
  for (let d = 0; d < n; d++) {
    if (!eligible(d) || sets[d].length === 0) continue;
    docs.push(d);
    parts.push(samplePassages(sets[d], options.sampleBits));
  }
  const offsets = new Uint32Array(docs.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const keys = new Uint32Array(offsets[docs.length]);
  parts.forEach((p, i) => keys.set(p, offsets[i]));
  const { candidates, stats } = containmentCandidates(n, { docs: Uint32Array.from(docs), offsets, keys }, options);
  const found = new ContainedBuffer();
  for (let i = 0; i < candidates.count; i++) {
    const a = candidates.inner[i];
    const b = candidates.outer[i];
    found.judge(a, b, intersectionSize(sets[a], sets[b]), sets[a].length, sets[b].length, options);
  }
  return { pairs: found.pairs(), stats };
}

/**
 * The candidate half of the search: pairs of documents among `0..n-1` whose sampled passages say one
 * may lie in the other (A shares `passagesNeeded` of its passages with B, counted exactly
 * over both sample lists), each unordered pair once, with A the one with fewer passages (on equal
 * counts the lower id), sorted by (A, B). No passage is too common to count (a licence inside hundreds
 * of files is contained in each): instead A looks only at its rarest passages, as many as it can miss
 * plus one (prefix filtering: a B sharing `needed` of A's s passages shares one of any s - needed + 1
 * of them), so common passages are walked only by documents made of little else. Typed arrays
 * throughout; nothing allocated per pair.
 */
export function containmentCandidates(
  n: number,
  passages: PassageSamples,
  options: ContainmentOptions = DEFAULT_CONTAINMENT,
): { candidates: ContainmentCandidates; stats: ContainmentStats } {
  const stats: ContainmentStats = { passages: 0, postings: 0, walked: 0, compared: 0, candidates: 0 };
  const out = new CandidateBuffer();
  if (options.threshold <= 0 || n < 2) return { candidates: out.candidates(), stats };
  // Every (passage, document) as one float: key * 2^21 + doc sorts by key, then document.
  if (n > 1 << 21) throw new RangeError('containment search takes at most 2^21 documents');
  const sampleCount = new Uint32Array(n);
  const packedAt = new Int32Array(n).fill(-1);
  const total = passages.offsets[passages.docs.length];
  stats.postings = total;
  const entries = new Float64Array(total);
  let at = 0;
  for (let i = 0; i < passages.docs.length; i++) {
    const d = passages.docs[i];
    packedAt[d] = i;
    sampleCount[d] = passages.offsets[i + 1] - passages.offsets[i];
    for (let j = passages.offsets[i]; j < passages.offsets[i + 1]; j++) entries[at++] = passages.keys[j] * 2097152 + d;
  }
  entries.sort();

  // Posting lists: runs of one key shared by two documents or more; a document's runs through a CSR.
  const runBounds = new Uint32Array(2 * total);
  let runs = 0;
  for (let i = 0; i < total; ) {
    const key = Math.floor(entries[i] / 2097152);
    let j = i + 1;
    while (j < total && Math.floor(entries[j] / 2097152) === key) j++;
    stats.passages++;
    if (j - i > 1) {
      runBounds[2 * runs] = i;
      runBounds[2 * runs + 1] = j;
      runs++;
    }
    i = j;
  }
  const docOf = new Uint32Array(total);
  for (let i = 0; i < total; i++) docOf[i] = entries[i] % 2097152;
  const runsOfDoc = new Uint32Array(n + 1);
  for (let r = 0; r < runs; r++) for (let i = runBounds[2 * r]; i < runBounds[2 * r + 1]; i++) runsOfDoc[docOf[i] + 1]++;
  for (let d = 0; d < n; d++) runsOfDoc[d + 1] += runsOfDoc[d];
  const fill = runsOfDoc.slice(0, n);
  const docRuns = new Uint32Array(runsOfDoc[n]);
  for (let r = 0; r < runs; r++) for (let i = runBounds[2 * r]; i < runBounds[2 * r + 1]; i++) docRuns[fill[docOf[i]]++] = r;
  const runLength = (r: number) => runBounds[2 * r + 1] - runBounds[2 * r];
  const byRarity = (x: number, y: number) => runLength(x) - runLength(y) || x - y;

  const seen = new Uint8Array(n);
  const touched = new Uint32Array(n);
  for (let a = 0; a < n; a++) {
    const samples = sampleCount[a];
    if (samples < options.minPassages) continue;
    const needed = passagesNeeded(samples, options.threshold);
    const own = docRuns.subarray(runsOfDoc[a], runsOfDoc[a + 1]);
    // Passages in no other document are the rarest of all and share nothing: they use up the prefix first.
    const prefix = samples - needed + 1 - (samples - own.length);
    if (prefix <= 0) continue;
    own.sort(byRarity);
    let touchedCount = 0;
    for (let k = 0; k < Math.min(prefix, own.length); k++) {
      const r = own[k];
      stats.walked += runLength(r);
      for (let i = runBounds[2 * r]; i < runBounds[2 * r + 1]; i++) {
        const b = docOf[i];
        if (b === a || seen[b]) continue;
        // A has the fewer passages: a contained A shares about `threshold` of its own.
        const samplesB = sampleCount[b];
        if (samplesB < samples || (samplesB === samples && b < a)) continue;
        seen[b] = 1;
        touched[touchedCount++] = b;
      }
    }
    touched.subarray(0, touchedCount).sort();
    for (let t = 0; t < touchedCount; t++) {
      const b = touched[t];
      seen[b] = 0;
      stats.compared++;
      if (sharedKeys(passages, packedAt[a], packedAt[b]) < needed) continue;
      stats.candidates++;
      out.push(a, b);
    }
  }
  return { candidates: out.candidates(), stats };
}

/**
 * How many of its `samples` passages a document must share with another to be a candidate for lying in
 * it at `threshold`. Sampling keeps the proportion up to chance: a contained A shares about `threshold`
 * of its passages, with a spread of sqrt(T(1 - T) / s). Asking for 2/3 of T leaves room for a small
 * sample; a large one needs no more than four spreads below T (on the 20,000-file bench this cut the
 * exact checks by a third and lost no contained pair even at two spreads).
 */
export function passagesNeeded(samples: number, threshold: number): number {
  const spread = Math.sqrt((threshold * (1 - threshold)) / samples);
  return Math.max(1, Math.ceil(samples * Math.max((2 * threshold) / 3, threshold - 4 * spread) - 1e-9));
}

/** How many keys the packed documents at `i` and `j` share (a merge of their sorted keys, nothing allocated). */
function sharedKeys(passages: PassageSamples, i: number, j: number): number {
  const { keys, offsets } = passages;
  return intersectionSize(keys, keys, offsets[i], offsets[i + 1], offsets[j], offsets[j + 1]);
}

/** `n` contained pairs, zeroed. */
export function emptyPairs(n = 0): ContainedPairs {
  return { inner: new Uint32Array(n), outer: new Uint32Array(n), containment: new Float32Array(n), jaccard: new Float32Array(n), count: n };
}

/** Doubles a typed array's room, keeping its contents. */
function grow<T extends Uint32Array | Float32Array>(x: T): T {
  const y = new (x.constructor as new (n: number) => T)(x.length * 2);
  y.set(x);
  return y;
}

/** Growable parallel arrays of candidate pairs. */
class CandidateBuffer {
  private inner = new Uint32Array(64);
  private outer = new Uint32Array(64);
  private count = 0;

  push(a: number, b: number): void {
    if (this.count === this.inner.length) {
      this.inner = grow(this.inner);
      this.outer = grow(this.outer);
    }
    this.inner[this.count] = a;
    this.outer[this.count++] = b;
  }

  candidates(): ContainmentCandidates {
    return { inner: this.inner.slice(0, this.count), outer: this.outer.slice(0, this.count), count: this.count };
  }
}

/** Growable parallel arrays of contained pairs, judged one candidate at a time; `pairs()` sorts them by (inner, outer). */
export class ContainedBuffer {
  private inner = new Uint32Array(64);
  private outer = new Uint32Array(64);
  private containment = new Float32Array(64);
  private jaccard = new Float32Array(64);
  private count = 0;

  /**
   * The exact half of the search, given |A ∩ B| and both sizes: adds the pair when it is contained,
   * the smaller set as the inner one (on equal sizes the lower id), its containment at least
   * `threshold` and the Jaccard below `jaccardThreshold`. Returns whether it did. Allocates nothing.
   */
  judge(a: number, b: number, common: number, sizeA: number, sizeB: number, options: Pick<ContainmentOptions, 'threshold' | 'jaccardThreshold'>): boolean {
    if (sizeA === 0 || sizeB === 0 || options.threshold <= 0) return false;
    const aInner = sizeA < sizeB || (sizeA === sizeB && a < b);
    const containment = common / (aInner ? sizeA : sizeB);
    if (containment < options.threshold - 1e-9) return false;
    const jaccard = common / (sizeA + sizeB - common);
    if (jaccard >= options.jaccardThreshold - 1e-9) return false;
    if (this.count === this.inner.length) {
      this.inner = grow(this.inner);
      this.outer = grow(this.outer);
      this.containment = grow(this.containment);
      this.jaccard = grow(this.jaccard);
    }
    this.inner[this.count] = aInner ? a : b;
    this.outer[this.count] = aInner ? b : a;
    this.containment[this.count] = containment;
    this.jaccard[this.count] = jaccard;
    this.count++;
    return true;
  }

  /** The pairs, trimmed to their count and sorted by (inner, outer). */
  pairs(): ContainedPairs {
    return sortedPairs({ inner: this.inner, outer: this.outer, containment: this.containment, jaccard: this.jaccard, count: this.count });
  }
}

/** The first `pairs.count` pairs, copied and sorted by (inner, outer). */
function sortedPairs(pairs: ContainedPairs): ContainedPairs {
  const n = pairs.count;
  const { inner, outer } = pairs;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((x, y) => inner[x] - inner[y] || outer[x] - outer[y]);
  const out = emptyPairs(n);
  for (let r = 0; r < n; r++) {
    const i = order[r];
    out.inner[r] = inner[i];
    out.outer[r] = outer[i];
    out.containment[r] = pairs.containment[i];
    out.jaccard[r] = pairs.jaccard[i];
  }
  return out;
}

/**
 * `pairs` of representatives named by the first document (lowest id) of each one's exact-copy class
 * (`representative[d]`: the doc standing for d's text, -1 when none), sorted again. Which copy is
 * fingerprinted, and so stands for the text, depends on which ingest worker claimed the text first, or
 * on what a cache held: the first copy does not, so every scan of a folder names the pair alike.
 */
export function nameByFirstCopy(pairs: ContainedPairs, representative: Int32Array): ContainedPairs {
  const first = new Int32Array(representative.length).fill(-1);
  for (let d = 0; d < representative.length; d++) {
    const r = representative[d];
    if (r >= 0 && first[r] < 0) first[r] = d;
  }
  const name = (d: number) => (representative[d] >= 0 ? first[representative[d]] : d);
  const renamed = { ...pairs, inner: pairs.inner.map(name), outer: pairs.outer.map(name) };
  return sortedPairs(renamed);
}
