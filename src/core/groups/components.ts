/**
 * Connected-component groups over verified pairs (the optional grouping) and the detection of
 * chaining: a component whose members are linked A~B~C although A and C are not near-duplicates.
 */
import { DEFAULT_SIMILARITY_THRESHOLD } from '../quality/defaults.ts';
import { GroupTableBuilder, UNKNOWN_DISTANCE, buildPairGraph, type GroupTable, type ScoredPairs } from './group-table.ts';
import { jaccardSorted, type FeatureSetSource } from './jaccard.ts';
import { createUnionFind, find, union } from './union-find.ts';

/**
 * Connected components of the verified-pair graph (singletons left out: groupOf = -1). Each
 * component's reference is its best-connected member (then the lowest id); members follow by id.
 * A member not directly paired with the reference has Jaccard NaN and distance 255 until
 * `detectChaining` computes it.
 */
export function connectedComponents(n: number, pairs: ScoredPairs): GroupTable {
  const uf = createUnionFind(n);
  for (let i = 0; i < pairs.count; i++) union(uf, pairs.a[i], pairs.b[i]);
  const { offsets, neighbour, edge } = buildPairGraph(n, pairs);

  // Bucket documents by root (counting sort, ascending ids inside each bucket).
  const root = new Int32Array(n);
  const bucketSize = new Int32Array(n);
  for (let d = 0; d < n; d++) {
    root[d] = find(uf, d);
    bucketSize[root[d]]++;
  }
  const start = new Int32Array(n + 1);
  for (let r = 0; r < n; r++) start[r + 1] = start[r] + bucketSize[r];
  const fill = start.slice(0, n);
  const byRoot = new Int32Array(n);
  for (let d = 0; d < n; d++) byRoot[fill[root[d]]++] = d;

  const builder = new GroupTableBuilder(n);
  const toRef = new Int32Array(n).fill(-1); // per document: the pair linking it to the current reference
  // Components in order of their smallest member, which is stable and independent of union order.
  for (let d = 0; d < n; d++) {
    const r = root[d];
    if (bucketSize[r] < 2 || byRoot[start[r]] !== d) continue;
    let reference = d;
    let bestDegree = -1;
    for (let i = start[r]; i < start[r + 1]; i++) {
      const m = byRoot[i];
      const degree = offsets[m + 1] - offsets[m];
      if (degree > bestDegree) {
        bestDegree = degree;
        reference = m;
      }
    }
    for (let s = offsets[reference]; s < offsets[reference + 1]; s++) toRef[neighbour[s]] = edge[s];
    builder.open(reference);
    for (let i = start[r]; i < start[r + 1]; i++) {
      const m = byRoot[i];
      if (m === reference) continue;
      const e = toRef[m];
      if (e >= 0) builder.add(m, pairs.jaccard[e], pairs.distance[e]);
      else builder.add(m, Number.NaN, UNKNOWN_DISTANCE);
    }
    builder.close();
    for (let s = offsets[reference]; s < offsets[reference + 1]; s++) toRef[neighbour[s]] = -1;
  }
  return builder.build();
}

/** Chaining status of a component. */
export const CHAIN_NONE = 0;
/** Some member pair was measured below the threshold: the component chains. */
export const CHAIN_FOUND = 1;
/** The check budget ran out before every unpaired member pair was measured. */
export const CHAIN_UNKNOWN = 2;

/** Per component: whether it chains, with one witness pair (A, C not near-duplicates). */
export interface ChainingReport {
  /** CHAIN_NONE, CHAIN_FOUND or CHAIN_UNKNOWN per group. */
  status: Uint8Array;
  /** Witness pair per group (-1 when none) and its Jaccard. */
  witnessA: Int32Array;
  witnessB: Int32Array;
  witnessJaccard: Float32Array;
  /** Number of groups with CHAIN_FOUND. */
  chained: number;
  /** Jaccard computations spent. */
  checks: number;
}

export interface ChainingOptions {
  /** Most member pairs measured per component (default 2000); beyond it the status is CHAIN_UNKNOWN. */
  maxChecksPerGroup?: number;
}

/**
 * Finds the components that chain. A component in which every member pair is a verified pair
 * (a clique) does not chain. Otherwise the member pairs that are not verified pairs (their
 * fingerprints may be farther than k) are measured by exact Jaccard, first each member against the
 * reference (filling the table's missing Jaccard values), then the remaining pairs, until one falls
 * below `threshold` or the budget is spent.
 */
export function detectChaining(
  groups: GroupTable,
  pairs: ScoredPairs,
  getFeatureSet: FeatureSetSource,
  threshold: number = DEFAULT_SIMILARITY_THRESHOLD,
  options: ChainingOptions = {},
): ChainingReport {
  const budget = options.maxChecksPerGroup ?? 2000;
  const g = groups.count;
  const status = new Uint8Array(g);
  const witnessA = new Int32Array(g).fill(-1);
  const witnessB = new Int32Array(g).fill(-1);
  const witnessJaccard = new Float32Array(g).fill(Number.NaN);
  let chained = 0;
  let checks = 0;

  const n = groups.groupOf.length;
  const { offsets, neighbour } = buildPairGraph(n, pairs);
  const adjacent = new Uint8Array(n); // marks the neighbours of one document at a time

  for (let group = 0; group < g; group++) {
    const from = groups.offsets[group];
    const to = groups.offsets[group + 1];
    const size = to - from;
    let edges = 0;
    for (let i = from; i < to; i++) {
      const m = groups.members[i];
      edges += offsets[m + 1] - offsets[m];
    }
    if (edges / 2 === (size * (size - 1)) / 2) continue; // a clique: every member pair is verified

    const sets = new Map<number, Uint32Array>();
    const setOf = (doc: number): Uint32Array => {
      let s = sets.get(doc);
      if (s === undefined) sets.set(doc, (s = getFeatureSet(doc)));
      return s;
    };
    let spent = 0;
    let found = false;
    let complete = true;
    // Reference first (its slot is `from`), then every other member as the left side of a pair.
    outer: for (let i = from; i < to; i++) {
      const x = groups.members[i];
      for (let s = offsets[x]; s < offsets[x + 1]; s++) adjacent[neighbour[s]] = 1;
      for (let j = i + 1; j < to; j++) {
        const y = groups.members[j];
        if (adjacent[y]) continue;
        if (spent === budget) {
          complete = false;
          for (let s = offsets[x]; s < offsets[x + 1]; s++) adjacent[neighbour[s]] = 0;
          break outer;
        }
        spent++;
        const jac = jaccardSorted(setOf(x), setOf(y));
        if (i === from) groups.jaccardToReference[j] = jac;
        if (jac < threshold && !found) {
          found = true;
          witnessA[group] = x;
          witnessB[group] = y;
          witnessJaccard[group] = jac;
          // Keep going through the reference's row so every member shows its Jaccard to the reference.
          if (i !== from) {
            for (let s = offsets[x]; s < offsets[x + 1]; s++) adjacent[neighbour[s]] = 0;
            break outer;
          }
        }
      }
      for (let s = offsets[x]; s < offsets[x + 1]; s++) adjacent[neighbour[s]] = 0;
      if (found) break;
    }
    checks += spent;
    if (found) {
      status[group] = CHAIN_FOUND;
      chained++;
    } else if (!complete) status[group] = CHAIN_UNKNOWN;
  }
  return { status, witnessA, witnessB, witnessJaccard, chained, checks };
}
