/**
 * Owns what the containment stage knows before it measures (contained-search.ts): the exact counts
 * |A ∩ B|, |A|, |B| of candidate pairs, from counts measured before (`KnownContainment`), from the
 * near-duplicate stage's exact Jaccards (with both feature-set sizes a Jaccard gives |A ∩ B| back),
 * and the order the rest is measured in.
 */
import type { ContainmentCandidates } from '../core/groups/contained-pairs.ts';
import { commonFromJaccard, countIsBelow, neededCommon } from '../core/groups/contained-pairs.ts';
import { COUNT_BELOW } from '../core/simhash/simhash.ts';
import { encodedSetSize } from '../core/groups/feature-set-codec.ts';
import type { KnownContainment, SearchCorpus } from './search-corpus.ts';
import type { KnownPairs } from '../core/index/pair-list.ts';
import { breadthFirstRanks, stableOrderByKey } from '../core/groups/pair-locality.ts';

/** No counts known. */
export function noKnownContainment(): KnownContainment {
  return { a: new Uint32Array(0), b: new Uint32Array(0), common: new Uint32Array(0), sizeA: new Uint32Array(0), sizeB: new Uint32Array(0), count: 0 };
}

/** Per doc, the size of its feature set kept (or spilled) from fingerprinting (0: none kept, size unknown). */
export function keptSetSizes(corpus: SearchCorpus): Uint32Array {
  const sizes = new Uint32Array(corpus.docs.count);
  const kept = corpus.keptSets;
  if (kept) for (let d = 0; d < sizes.length; d++) sizes[d] = kept[d] ? encodedSetSize(kept[d]!) : 0;
  const { spilledSets: spilled, setSizes } = corpus;
  if (spilled && setSizes) for (let d = 0; d < sizes.length; d++) if (spilled.fd[d] !== 0 && !kept?.[d]) sizes[d] = setSizes[d];
  return sizes;
}

/**
 * Where each first member's pairs start in a list sorted by (a, b) (`starts[a]..starts[a + 1]`): a
 * lookup then searches one document's few pairs, not the whole list (a binary search over a million
 * pairs missed the cache at each of its first steps, for each of a million candidates).
 */
function pairStarts(listA: Uint32Array, count: number): Uint32Array {
  const docs = count > 0 ? listA[count - 1] + 1 : 0;
  const starts = new Uint32Array(docs + 1);
  for (let i = 0; i < count; i++) starts[listA[i] + 1]++;
  for (let d = 0; d < docs; d++) starts[d + 1] += starts[d];
  return starts;
}

/** The index of pair (a, b) in a list sorted by (a, b) whose `pairStarts` are `starts`, or -1. */
function indexOfPair(listB: Uint32Array, starts: Uint32Array, a: number, b: number): number {
  if (a + 1 >= starts.length) return -1;
  let lo = starts[a];
  let hi = starts[a + 1];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (listB[mid] < b) lo = mid + 1;
    else hi = mid;
  }
  return lo < starts[a + 1] && listB[lo] === b ? lo : -1;
}

/** `knownCounts`' mark of a candidate whose exact Jaccard reaches the near-duplicate threshold: never contained, nothing to measure. */
export const NEAR_DUPLICATE = -2;

/**
 * Fills `counts` (three a candidate: |A ∩ B|, |A|, |B|; zeros stay where nothing is known) from what is known, and returns
 * per candidate the index of its entry in `known`, or -1 (a pair not remembered yet). A candidate the
 * near-duplicate stage measured (`jaccards`, a < b) gets its count from the Jaccard and `sizes`; when a size
 * is unknown (a saved corpus after a reload) and the Jaccard reaches `jaccardThreshold`, it is marked
 * `NEAR_DUPLICATE` (its files are not read for a count the relation would refuse). A
 * remembered count that stopped early (`COUNT_BELOW`, measured at a higher threshold) whose bound could
 * reach `threshold` is left to measure again (its index still returned: `remember` replaces it).
 */
export function knownCounts(candidates: ContainmentCandidates, known: KnownContainment, jaccards: KnownPairs, sizes: Uint32Array, counts: Float64Array, threshold: number, jaccardThreshold = Infinity): Int32Array {
  const at = new Int32Array(candidates.count).fill(-1);
  const knownStarts = pairStarts(known.a, known.count);
  const jaccardStarts = pairStarts(jaccards.a, jaccards.count);
  for (let p = 0; p < candidates.count; p++) {
    const a = candidates.inner[p];
    const b = candidates.outer[p];
    const k = indexOfPair(known.b, knownStarts, a, b);
    if (k >= 0) {
      at[p] = k;
      const common = known.common[k];
      if (countIsBelow(common) && (common & ~COUNT_BELOW) >= neededCommon(threshold, Math.min(known.sizeA[k], known.sizeB[k]))) continue;
      counts[3 * p] = known.common[k];
      counts[3 * p + 1] = known.sizeA[k];
      counts[3 * p + 2] = known.sizeB[k];
      continue;
    }
    const j = indexOfPair(jaccards.b, jaccardStarts, Math.min(a, b), Math.max(a, b));
    const common = j < 0 ? -1 : commonFromJaccard(jaccards.jaccard[j], sizes[a], sizes[b]);
    if (common < 0) {
      // As ContainedBuffer.judge refuses it.
      if (j >= 0 && jaccards.jaccard[j] >= jaccardThreshold - 1e-9) at[p] = NEAR_DUPLICATE;
      continue;
    }
    counts[3 * p] = common;
    counts[3 * p + 1] = sizes[a];
    counts[3 * p + 2] = sizes[b];
  }
  return at;
}

/**
 * An inner document in more containers than this (a navigation page inside every page of a manual) is a
 * hub: its pairs are placed by their containers alone.
 */
export const HUB_CONTAINERS = 64;

/**
 * The candidates `todo` (ascending indexes) in the order to measure them, so that each measuring chunk
 * (which decodes every set it names once) holds neighbours in the graph of the pairs: documents ranked
 * breadth-first over the pairs (core `breadthFirstRanks`; a large corpus's pairs can form one component,
 * where candidate order brought back about one set a pair), each pair placed at the lower rank of its
 * two, then in candidate order. A hub's pairs (`HUB_CONTAINERS`) are left out of the ranking and placed
 * at their container's rank: a hub is small and decoded again in each chunk, where walking through it
 * would pull its containers, a whole component, into one chunk after another.
 */
export function measuringOrder(candidates: ContainmentCandidates, todo: ArrayLike<number>, n: number): Uint32Array {
  const { inner, outer } = candidates;
  const m = todo.length;
  const containers = new Uint32Array(n);
  for (let t = 0; t < m; t++) containers[inner[todo[t]]]++;
  const ranking = new Uint32Array(m);
  let rankingCount = 0;
  for (let t = 0; t < m; t++) if (containers[inner[todo[t]]] <= HUB_CONTAINERS) ranking[rankingCount++] = todo[t];
  const { rank, ranked } = breadthFirstRanks(n, inner, outer, ranking.subarray(0, rankingCount));
  // Containers met only through hubs, ranked after the rest in the order the pairs name them.
  let ranks = ranked;
  for (let t = 0; t < m; t++) if (rank[outer[todo[t]]] < 0) rank[outer[todo[t]]] = ranks++;
  const key = new Uint32Array(m);
  for (let t = 0; t < m; t++) {
    const p = todo[t];
    key[t] = containers[inner[p]] > HUB_CONTAINERS ? rank[outer[p]] : Math.min(rank[inner[p]], rank[outer[p]]);
  }
  return stableOrderByKey(todo, key, ranks);
}

/**
 * `known` with the counts of `candidates` added (those measured: sizes above 0), still sorted by (a, b);
 * a remembered pair measured again (`knownCounts` left it to measure) takes its new count, in place.
 */
export function remember(known: KnownContainment, candidates: ContainmentCandidates, at: Int32Array, counts: Float64Array): KnownContainment {
  let freshCount = 0;
  for (let p = 0; p < candidates.count; p++) {
    if (at[p] >= 0 && counts[3 * p + 1] > 0) known.common[at[p]] = counts[3 * p];
    else if (at[p] < 0 && counts[3 * p + 1] > 0) freshCount++;
  }
  if (freshCount === 0) return known;
  const { inner, outer } = candidates;
  const fresh = new Uint32Array(freshCount);
  for (let p = 0, f = 0; p < candidates.count; p++) if (at[p] < 0 && counts[3 * p + 1] > 0) fresh[f++] = p;
  let freshSorted = true;
  for (let f = 1; f < freshCount && freshSorted; f++) {
    const x = fresh[f - 1];
    const y = fresh[f];
    freshSorted = inner[x] < inner[y] || (inner[x] === inner[y] && outer[x] < outer[y]);
  }
  // Candidates come by (inner, outer): sorted already but where a caller's were not.
  if (!freshSorted) fresh.sort((x, y) => inner[x] - inner[y] || outer[x] - outer[y]);
  const n = known.count + freshCount;
  const out: KnownContainment = { a: new Uint32Array(n), b: new Uint32Array(n), common: new Uint32Array(n), sizeA: new Uint32Array(n), sizeB: new Uint32Array(n), count: n };
  // Both lists sorted and apart (a fresh pair is not known): one merge.
  for (let r = 0, i = 0, f = 0; r < n; r++) {
    const p = f < freshCount ? fresh[f] : 0;
    if (f === freshCount || (i < known.count && (known.a[i] < inner[p] || (known.a[i] === inner[p] && known.b[i] < outer[p])))) {
      out.a[r] = known.a[i];
      out.b[r] = known.b[i];
      out.common[r] = known.common[i];
      out.sizeA[r] = known.sizeA[i];
      out.sizeB[r] = known.sizeB[i];
      i++;
    } else {
      out.a[r] = inner[p];
      out.b[r] = outer[p];
      out.common[r] = counts[3 * p];
      out.sizeA[r] = counts[3 * p + 1];
      out.sizeB[r] = counts[3 * p + 2];
      f++;
    }
  }
  return out;
}
