/**
 * Owns the "A is contained in B" relation: an excerpt inside its whole, a document inside the same
 * document with an appendix. Whole-document fingerprints of a half and its whole are far apart, so the
 * candidates come from passages instead: every feature (a word shingle is a passage of a few words)
 * whose key falls in a fixed 1-in-2^s slice of the hash space is a passage fingerprint. The slice is
 * chosen by content alone, so a passage cut out of its document keeps its fingerprint, and if A lies
 * in B, A's sampled passages lie in B's in the same proportion as A's features lie in B's. Pairs that
 * share enough sampled passages are verified by the exact containment |A ∩ B| / |A| of the feature
 * sets the Jaccard uses. The candidate half of the search is containment-candidates.ts.
 */
import { COUNT_BELOW } from '../simhash/simhash.ts';
import type { PackedSets } from './packed-sets.ts';

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

/** How many documents lie inside another (each counted once, however many hold it), in how many containers, in how many pairs. */
export function containedCounts(contained: ContainedPairs): { documents: number; containers: number; pairs: number } {
  const inner = new Set<number>();
  const outer = new Set<number>();
  for (let i = 0; i < contained.count; i++) {
    inner.add(contained.inner[i]!);
    outer.add(contained.outer[i]!);
  }
  return { documents: inner.size, containers: outer.size, pairs: contained.count };
}

/** Contained pairs of a result (doc ids of distinct texts), with the fingerprint distance of each pair. */
export interface ContainedRelation extends ContainedPairs {
  distance: Uint8Array;
}

/**
 * What the search did, counted (not timed): distinct passages indexed, (passage, document) postings,
 * postings walked by the prefix loops, pairs whose shared passages were counted (and the list entries
 * those counts stepped over: B's read, A's marked and cleared), candidates left to verify.
 */
export interface ContainmentStats {
  passages: number;
  postings: number;
  walked: number;
  compared: number;
  merged: number;
  candidates: number;
}

/**
 * Sampled passages of some documents, packed: document
 * `docs[i]` (ascending) has the sorted keys `keys[offsets[i]..offsets[i + 1])`.
 */
export type PassageSamples = PackedSets;

/** Pairs to measure: `inner[i]` has no more sampled passages than `outer[i]` (the exact sizes decide later). */
export interface ContainmentCandidates {
  inner: Uint32Array;
  outer: Uint32Array;
  count: number;
}

/** The passage fingerprints of a sorted feature set: its keys whose low `sampleBits` bits are zero, in order. */
export function samplePassages(set: Uint32Array, sampleBits: number = DEFAULT_CONTAINMENT.sampleBits): Uint32Array {
  const one = new PassageCollector(sampleBits, set.length);
  one.add(0, set);
  return one.packed().keys;
}

/**
 * Collects documents' passages (`samplePassages`) straight into one packed `PassageSamples`, as the ingest
 * workers fingerprint: one pass over each feature set and no array per document (a count pass, a fill
 * pass and a copy per document before).
 */
export class PassageCollector {
  private docs: number[] = [];
  private offsets: number[] = [0];
  private keys: Uint32Array;
  private count = 0;

  constructor(
    private readonly sampleBits: number = DEFAULT_CONTAINMENT.sampleBits,
    room = 4096,
  ) {
    this.keys = new Uint32Array(Math.max(1, room));
  }

  /** Adds document `doc`'s passages (docs added in ascending order); `set` sorted, duplicate-free. */
  add(doc: number, set: Uint32Array): void {
    if (this.keys.length < this.count + set.length) {
      const grown = new Uint32Array(Math.max(2 * this.keys.length, this.count + set.length));
      grown.set(this.keys.subarray(0, this.count));
      this.keys = grown;
    }
    const mask = (1 << this.sampleBits) - 1;
    const keys = this.keys;
    let c = this.count;
    // Every key written, kept only when sampled: no branch on a hash bit.
    for (let i = 0; i < set.length; i++) {
      keys[c] = set[i];
      c += +((set[i] & mask) === 0);
    }
    this.count = c;
    this.docs.push(doc);
    this.offsets.push(c);
  }

  /** Forgets the documents added; their keys' memory stays for the next ones. */
  reset(): void {
    this.docs = [];
    this.offsets = [0];
    this.count = 0;
  }

  /** The passages collected, packed (copies: the collector may be reused). */
  packed(): PassageSamples {
    return { docs: Uint32Array.from(this.docs), offsets: Uint32Array.from(this.offsets), keys: this.keys.slice(0, this.count) };
  }
}

/**
 * Whether a set of `inner` features can lie in one of `outer` (inner <= outer) as the exact check
 * (`ContainedBuffer.judge`) decides: at the least common count reaching the threshold, the Jaccard must
 * still be below the near-duplicate threshold. The count is taken one lower than exact, so float rounding
 * never drops a pair the check would keep. Sizes of 0 (unknown) allow every pair.
 */
export function containmentSizesAllow(inner: number, outer: number, options: Pick<ContainmentOptions, 'threshold' | 'jaccardThreshold'>): boolean {
  if (inner === 0 || outer === 0) return true;
  const least = Math.max(0, Math.floor(inner * options.threshold) - 1);
  return least / (inner + outer - least) < options.jaccardThreshold - 1e-9;
}

/**
 * The least size of a set that a set of `inner` features (known sizes) may be found inside: at least
 * `inner` itself (on equal sizes the lower id is the inner one) and allowed by `containmentSizesAllow`,
 * which, for a fixed inner size, once true stays true as the outer one grows. Infinity when none is.
 */
export function leastOuterSize(inner: number, options: Pick<ContainmentOptions, 'threshold' | 'jaccardThreshold'>): number {
  const allows = (outer: number) => containmentSizesAllow(inner, outer, options);
  const limit = options.jaccardThreshold - 1e-9;
  // A Jaccard below 0 or so: no sizes allow a pair.
  if (!(limit > 0)) return Infinity;
  // Solved for the outer size from containmentSizesAllow's inequality, then set right where float rounding is off.
  const least = Math.max(0, Math.floor(inner * options.threshold) - 1);
  let outer = Math.max(inner, Math.floor(least / limit - inner + least) + 1);
  while (outer > inner && allows(outer - 1)) outer--;
  while (!allows(outer)) outer++;
  return outer;
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

/**
 * |A ∩ B| of two sets of `sizeA` and `sizeB` features whose exact Jaccard (|A ∩ B| / |A ∪ B| in float64,
 * as verification measures it) is `jaccard`, or -1 when the sizes are unknown (0) or no count gives that
 * Jaccard back exactly: a pair the near-duplicate stage measured needs no second look for containment.
 */
export function commonFromJaccard(jaccard: number, sizeA: number, sizeB: number): number {
  if (!(jaccard >= 0 && jaccard <= 1) || sizeA === 0 || sizeB === 0) return -1;
  const common = Math.round((jaccard * (sizeA + sizeB)) / (1 + jaccard));
  return common <= Math.min(sizeA, sizeB) && common / (sizeA + sizeB - common) === jaccard ? common : -1;
}

/**
 * The least |A ∩ B| at which a set of `inner` features (the smaller) counts as contained at
 * `threshold`, by the exact check's own test (`ContainedBuffer.judge`): what a count may stop short of
 * (`intersectionAtLeast`). 0 when the threshold is off or the set empty (judge refuses those anyway).
 */
export function neededCommon(threshold: number, inner: number): number {
  if (!(threshold > 0) || inner === 0) return 0;
  const reaches = (c: number) => !(c / inner < threshold - 1e-9);
  let c = Math.max(0, Math.ceil((threshold - 1e-9) * inner));
  // Float rounding may put the product a step off the test's own answer.
  while (c > 0 && reaches(c - 1)) c--;
  while (!reaches(c)) c++;
  return c;
}

/** Whether a measured count is one that stopped early below its threshold (`COUNT_BELOW`), not exact. */
export function countIsBelow(common: number): boolean {
  return common >= COUNT_BELOW;
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

/** Growable parallel arrays of contained pairs, judged one candidate at a time; `pairs()` sorts them by (inner, outer). */
export class ContainedBuffer {
  private inner = new Uint32Array(64);
  private outer = new Uint32Array(64);
  private containment = new Float32Array(64);
  private jaccard = new Float32Array(64);
  private count = 0;

  /**
   * The exact half of the search, given |A ∩ B| (or a count stopped early, `COUNT_BELOW`: never
   * contained; the caller measures again one whose bound could reach this threshold) and both sizes:
   * adds the pair when it is contained,
   * the smaller set as the inner one (on equal sizes the lower id), its containment at least
   * `threshold` and the Jaccard below `jaccardThreshold`. Returns whether it did. Allocates nothing.
   */
  judge(a: number, b: number, common: number, sizeA: number, sizeB: number, options: Pick<ContainmentOptions, 'threshold' | 'jaccardThreshold'>): boolean {
    // A count that stopped early is below the threshold it was measured at, and so below this one.
    if (sizeA === 0 || sizeB === 0 || options.threshold <= 0 || countIsBelow(common)) return false;
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
  // Pairs judged in candidate order mostly come sorted already: then no comparator runs.
  let sorted = true;
  let last = 0;
  for (let i = 0; i < n; i++) last = Math.max(last, inner[i], outer[i]);
  for (let i = 1; i < n && sorted; i++) sorted = inner[i - 1] < inner[i] || (inner[i - 1] === inner[i] && outer[i - 1] <= outer[i]);
  const side = last + 1;
  if (!sorted && side * side * n < 2 ** 53) {
    // (inner, outer, index) packed in one float, exact below 2^53, sorted as numbers: no comparator call a pair.
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = (inner[i] * side + outer[i]) * n + i;
    packed.sort();
    for (let r = 0; r < n; r++) order[r] = packed[r] % n;
  } else if (!sorted) order.sort((x, y) => inner[x] - inner[y] || outer[x] - outer[y]);
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
  const inner = new Uint32Array(pairs.count);
  const outer = new Uint32Array(pairs.count);
  let renamed = false;
  for (let i = 0; i < pairs.count; i++) {
    const a = pairs.inner[i];
    const b = pairs.outer[i];
    inner[i] = representative[a] >= 0 ? first[representative[a]] : a;
    outer[i] = representative[b] >= 0 ? first[representative[b]] : b;
    renamed ||= inner[i] !== a || outer[i] !== b;
  }
  // Each text named by its first copy already (no copies, or the first ones fingerprinted): as it was.
  if (!renamed) return sortedPairs(pairs);
  return sortedPairs({ ...pairs, inner, outer });
}
