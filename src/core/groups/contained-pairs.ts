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
  /**
   * A passage shared by more documents than this is boilerplate (a licence line, a heading) and
   * proposes no candidates; a contained pair shares many rarer passages besides.
   */
  maxDocsPerPassage: number;
  /** Documents with fewer sampled passages than this are too short to be called contained. */
  minPassages: number;
}

export const DEFAULT_CONTAINMENT: ContainmentOptions = {
  threshold: 0.9,
  jaccardThreshold: 0.8,
  sampleBits: 3,
  maxDocsPerPassage: 64,
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

/** What the search measured: how many candidates it verified and how many passages it ignored. */
export interface ContainmentStats {
  passages: number;
  boilerplatePassages: number;
  candidates: number;
}

/**
 * Finds every pair (A, B) with |A ∩ B| / |A| >= threshold and Jaccard < jaccardThreshold among
 * documents `0..sets.length-1`, where `sets[d]` is document d's sorted, duplicate-free feature set
 * (an empty set takes no part: a skipped document). A is the smaller set (on equal sizes the lower id);
 * pairs come sorted by (inner, outer). `eligible(d)` may exclude documents (exact copies other than a
 * class's head, so the relation is stated once per text).
 */
export function findContainedPairs(
  sets: readonly Uint32Array[],
  options: ContainmentOptions = DEFAULT_CONTAINMENT,
  eligible: (doc: number) => boolean = () => true,
): { pairs: ContainedPairs; stats: ContainmentStats } {
  const n = sets.length;
  const stats: ContainmentStats = { passages: 0, boilerplatePassages: 0, candidates: 0 };
  const empty = emptyPairs();
  if (options.threshold <= 0 || n < 2) return { pairs: empty, stats };
  const mask = (1 << options.sampleBits) - 1;

  // Every (passage, document) as one float: key * 2^21 + doc sorts by key, then document.
  if (n > 1 << 21) throw new RangeError('containment search takes at most 2^21 documents');
  const sampleCount = new Uint32Array(n);
  let total = 0;
  for (let d = 0; d < n; d++) {
    if (!eligible(d)) continue;
    const set = sets[d];
    let c = 0;
    for (let i = 0; i < set.length; i++) if ((set[i] & mask) === 0) c++;
    sampleCount[d] = c;
    total += c;
  }
  const entries = new Float64Array(total);
  let at = 0;
  for (let d = 0; d < n; d++) {
    if (sampleCount[d] === 0) continue;
    const set = sets[d];
    for (let i = 0; i < set.length; i++) if ((set[i] & mask) === 0) entries[at++] = set[i] * 2097152 + d;
  }
  entries.sort();

  // Posting lists: runs of one key; a document's runs through a CSR built in one more pass.
  const runBounds = new Uint32Array(2 * total);
  let runs = 0;
  for (let i = 0; i < total; ) {
    const key = Math.floor(entries[i] / 2097152);
    let j = i + 1;
    while (j < total && Math.floor(entries[j] / 2097152) === key) j++;
    stats.passages++;
    if (j - i > options.maxDocsPerPassage) stats.boilerplatePassages++;
    else if (j - i > 1) {
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

  const shared = new Uint32Array(n);
  const touched = new Uint32Array(n);
  const found = new PairBuffer();
  for (let a = 0; a < n; a++) {
    const samples = sampleCount[a];
    if (samples < options.minPassages) continue;
    const sizeA = sets[a].length;
    let touchedCount = 0;
    for (let k = runsOfDoc[a]; k < runsOfDoc[a + 1]; k++) {
      const r = docRuns[k];
      for (let i = runBounds[2 * r]; i < runBounds[2 * r + 1]; i++) {
        const b = docOf[i];
        if (b === a) continue;
        const sizeB = sets[b].length;
        // A is the smaller set; a larger A can hold at most sizeB / sizeA of itself in B.
        if (sizeB < sizeA || (sizeB === sizeA && b < a)) continue;
        if (shared[b]++ === 0) touched[touchedCount++] = b;
      }
    }
    // Sampling keeps the proportion, up to chance: a contained A shares about `threshold` of its
    // passages; asking for 2/3 of that leaves room for the spread of a small sample.
    const needed = Math.max(1, Math.ceil((options.threshold * 2 * samples) / 3));
    // In id order, so the pairs come out sorted by (inner, outer) with no sort of their own.
    touched.subarray(0, touchedCount).sort();
    for (let t = 0; t < touchedCount; t++) {
      const b = touched[t];
      const count = shared[b];
      shared[b] = 0;
      if (count < needed) continue;
      stats.candidates++;
      const common = intersectionSize(sets[a], sets[b]);
      const containment = common / sizeA;
      if (containment < options.threshold - 1e-9) continue;
      const jaccard = common / (sizeA + sets[b].length - common);
      if (jaccard >= options.jaccardThreshold - 1e-9) continue;
      found.push(a, b, containment, jaccard);
    }
  }
  return { pairs: found.pairs(), stats };
}

function emptyPairs(): ContainedPairs {
  return { inner: new Uint32Array(0), outer: new Uint32Array(0), containment: new Float32Array(0), jaccard: new Float32Array(0), count: 0 };
}

/** Growable parallel arrays of found pairs. */
class PairBuffer {
  private inner = new Uint32Array(64);
  private outer = new Uint32Array(64);
  private containment = new Float32Array(64);
  private jaccard = new Float32Array(64);
  private count = 0;

  push(a: number, b: number, containment: number, jaccard: number): void {
    if (this.count === this.inner.length) {
      const grow = <T extends Uint32Array | Float32Array>(x: T): T => {
        const y = new (x.constructor as new (n: number) => T)(x.length * 2);
        y.set(x);
        return y;
      };
      this.inner = grow(this.inner);
      this.outer = grow(this.outer);
      this.containment = grow(this.containment);
      this.jaccard = grow(this.jaccard);
    }
    this.inner[this.count] = a;
    this.outer[this.count] = b;
    this.containment[this.count] = containment;
    this.jaccard[this.count] = jaccard;
    this.count++;
  }

  /** The pairs, trimmed to their count. */
  pairs(): ContainedPairs {
    const n = this.count;
    return { inner: this.inner.slice(0, n), outer: this.outer.slice(0, n), containment: this.containment.slice(0, n), jaccard: this.jaccard.slice(0, n), count: n };
  }
}
