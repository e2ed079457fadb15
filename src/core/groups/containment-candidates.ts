/**
 * Owns the candidate half of the containment search (contained-pairs.ts owns the relation): pairs whose
 * sampled passages say one document may lie in the other, found over the passage index
 * (passage-index.ts) by prefix filtering and an exact count of shared passages, and the whole search in
 * one process (`findContainedPairs`) for callers that hold every feature set.
 */
import { intersectionAtLeast } from '../simhash/simhash.ts';
import { sharedPassages } from './passage-index.ts';
import {
  ContainedBuffer,
  DEFAULT_CONTAINMENT,
  leastOuterSize,
  neededCommon,
  PassageCollector,
  passagesNeeded,
  type ContainedPairs,
  type ContainmentCandidates,
  type ContainmentOptions,
  type ContainmentStats,
  type PassageSamples,
} from './contained-pairs.ts';

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
  const passages = new PassageCollector(options.sampleBits);
  for (let d = 0; d < n; d++) if (eligible(d) && sets[d].length > 0) passages.add(d, sets[d]);
  const sizes = Uint32Array.from(sets, (set) => set.length);
  const { candidates, stats } = containmentCandidates(n, passages.packed(), options, sizes);
  const found = new ContainedBuffer();
  for (let i = 0; i < candidates.count; i++) {
    const a = candidates.inner[i];
    const b = candidates.outer[i];
    const need = neededCommon(options.threshold, Math.min(sets[a].length, sets[b].length));
    found.judge(a, b, intersectionAtLeast(sets[a], sets[b], need), sets[a].length, sets[b].length, options);
  }
  return { pairs: found.pairs(), stats };
}

/**
 * The candidate half of the search: pairs of documents among `0..n-1` whose sampled passages say one
 * may lie in the other (A shares `passagesNeeded` of its passages with B, counted exactly), each
 * unordered pair once, with A the smaller (`innerFirst`), sorted by (A, B). No passage is too common to
 * count (a licence inside hundreds of files is contained in each): instead A looks only at its rarest
 * passages, as many as it can miss plus one (prefix filtering: a B sharing `needed` of A's s passages
 * shares one of any s - needed + 1 of them), so common passages are walked only by documents made of
 * little else. `sizes[d]`, when given and above 0, is d's exact feature-set size: it orders the pair as
 * the exact check will, and drops pairs whose sizes cannot be contained (`containmentSizesAllow`).
 * `passages` are only read (in shared memory, the page's own copy).
 */
export function containmentCandidates(
  n: number,
  passages: PassageSamples,
  options: ContainmentOptions = DEFAULT_CONTAINMENT,
  sizes?: Uint32Array,
): { candidates: ContainmentCandidates; stats: ContainmentStats } {
  const stats: ContainmentStats = { passages: 0, postings: 0, walked: 0, compared: 0, merged: 0, candidates: 0 };
  const out = new CandidateBuffer();
  if (options.threshold <= 0 || n < 2) return { candidates: out.candidates(), stats };
  const sampleCount = new Uint32Array(n);
  for (let i = 0; i < passages.docs.length; i++) sampleCount[passages.docs[i]] = passages.offsets[i + 1] - passages.offsets[i];
  const { runStart, docOf, runsOfDoc, docRuns, passages: distinct, postings } = sharedPassages(n, passages, sizes);
  stats.passages = distinct;
  stats.postings = postings;
  // A comes before B when it is the inner one: the smaller set, by exact sizes when both are known.
  const innerFirst = (a: number, b: number) => {
    const sa = sizes ? sizes[a] : 0;
    const sb = sizes ? sizes[b] : 0;
    if (sa > 0 && sb > 0) return sa < sb || (sa === sb && a < b);
    return sampleCount[a] < sampleCount[b] || (sampleCount[a] === sampleCount[b] && a < b);
  };

  const seen = new Uint8Array(n);
  const touched = new Uint32Array(n);
  // Where in A's list each touched B first turned up: the first passage they share (below).
  const firstShared = new Uint32Array(n);
  let longestList = 0;
  for (let d = 0; d < n; d++) longestList = Math.max(longestList, runsOfDoc[d + 1] - runsOfDoc[d]);
  // One bit per run (rank): set when it is in the list of the A being searched. A bit, not A's place in
  // a word: the merges below look a rank up at random, and a bit a run keeps the whole table in a core's cache.
  const inA = new Uint32Array((runStart.length + 30) >>> 5);
  const runFrom = new Uint32Array(longestList);
  const runTo = new Uint32Array(longestList);
  const firstDoc = new Uint32Array(longestList);
  for (let a = 0; a < n; a++) {
    const samples = sampleCount[a];
    if (samples < options.minPassages) continue;
    const needed = passagesNeeded(samples, options.threshold);
    const from = runsOfDoc[a];
    const own = runsOfDoc[a + 1] - from;
    // Passages in no other document are the rarest of all and share nothing: they use up the prefix first.
    const prefix = own - needed + 1;
    if (prefix <= 0) continue;
    const sizeA = sizes ? sizes[a] : 0;
    // With both exact sizes known, one comparison does innerFirst's and the size rule's work.
    const least = sizeA > 0 ? leastOuterSize(sizeA, options) : 0;
    let touchedCount = 0;
    // Where A's prefix runs lie, and each one's first document (read only to bring it into the cache),
    // gathered first: the runs lie far apart, and in a loop that does not branch on them the CPU waits
    // for these loads together, not one after another as the walk below would.
    for (let k = 0; k < prefix; k++) {
      const r = docRuns[from + k];
      runFrom[k] = runStart[r];
      runTo[k] = runStart[r + 1];
      firstDoc[k] = docOf[runFrom[k]];
    }
    for (let k = from; k < from + prefix; k++) {
      const end = runTo[k - from];
      let i = runFrom[k - from];
      for (; i < end; i++) {
        const b = docOf[i];
        const sizeB = sizes ? sizes[b] : 0;
        if (sizeA > 0 && sizeB > 0) {
          // A run's documents come largest first: the rest are all too small.
          if (sizeB < least) break;
          if (sizeB === sizeA && b < a) continue;
        } else if (!innerFirst(a, b)) continue;
        if (b === a || seen[b]) continue;
        seen[b] = 1;
        firstShared[b] = k;
        touched[touchedCount++] = b;
      }
      stats.walked += i - runFrom[k - from];
    }
    if (touchedCount === 0) continue;
    touched.subarray(0, touchedCount).sort();
    // A's ranks marked once, for every B's count to look up.
    for (let i = 0; i < own; i++) inA[docRuns[from + i] >>> 5] |= 1 << (docRuns[from + i] & 31);
    stats.merged += 2 * own;
    for (let t = 0; t < touchedCount; t++) {
      const b = touched[t];
      seen[b] = 0;
      stats.compared++;
      // Passages held by one document are in no run: A's shared ones must hold all `needed`. Both lists
      // are in rank order, and A's prefix was walked in it, so neither shares anything before the run
      // where B first turned up: the count starts there, in both (found in B's list by a binary search:
      // a few of the entries the count reads next, where a column of places cost a fresh array).
      const bFrom = placeIn(docRuns, runsOfDoc[b], runsOfDoc[b + 1], docRuns[firstShared[b]]);
      if (!sharesAtLeast(docRuns, inA, firstShared[b], from + own, bFrom, runsOfDoc[b + 1], needed, stats)) continue;
      stats.candidates++;
      out.push(a, b);
    }
    for (let i = 0; i < own; i++) inA[docRuns[from + i] >>> 5] = 0;
  }
  return { candidates: out.candidates(), stats };
}

/** Where `rank` lies in the ascending `list[from..to)`, which holds it. */
function placeIn(list: Uint32Array, from: number, to: number, rank: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < rank) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether B's ascending ranks `list[bFrom..bTo)` hold at least `needed` of A's, which `inA` marks (a bit
 * a rank), none of them before A's entry `aFrom` (an index of `list`; A's list ends at `aTo`). One read
 * of B's list and a bit lookup a rank, no step that waits on the one before. Stops as soon as the answer
 * is known, checked every 16 steps: enough shared, or too few left in B, or in A past the last rank of
 * B's read so far (A's list is ascending too: a pointer into it follows B's, sixteen entries at a time),
 * to reach `needed`. Both conditions, once true, stay true.
 */
function sharesAtLeast(list: Uint32Array, inA: Uint32Array, aFrom: number, aTo: number, bFrom: number, bTo: number, needed: number, stats: ContainmentStats): boolean {
  let b = bFrom;
  let shared = 0;
  // A's entries before this can no longer be shared: their ranks are at most B's last one read.
  let a = aFrom;
  for (;;) {
    // Sixteen of A's entries at a time: a bound looser by under sixteen, for a sixteenth of the steps.
    if (b > bFrom) {
      const last = list[b - 1];
      while (a + 16 <= aTo && list[a + 15] <= last) a += 16;
    }
    const left = Math.min(aTo - a, bTo - b);
    if (shared >= needed || shared + left < needed) break;
    for (let s = Math.min(bTo - b, 16); s > 0; s--) {
      const rank = list[b++];
      shared += (inA[rank >>> 5] >>> (rank & 31)) & 1;
    }
  }
  stats.merged += b - bFrom;
  return shared >= needed;
}

/** Growable parallel arrays of candidate pairs. */
class CandidateBuffer {
  private inner = new Uint32Array(64);
  private outer = new Uint32Array(64);
  private count = 0;

  push(a: number, b: number): void {
    if (this.count === this.inner.length) {
      const inner = new Uint32Array(2 * this.count);
      const outer = new Uint32Array(2 * this.count);
      inner.set(this.inner);
      outer.set(this.outer);
      [this.inner, this.outer] = [inner, outer];
    }
    this.inner[this.count] = a;
    this.outer[this.count++] = b;
  }

  candidates(): ContainmentCandidates {
    return { inner: this.inner.slice(0, this.count), outer: this.outer.slice(0, this.count), count: this.count };
  }
}
