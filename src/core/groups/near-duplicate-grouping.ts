/**
 * Near-duplicate grouping: candidates with exact Jaccard >= threshold plus the short-document join,
 * made into the one duplicate relation and its groups (the index worker's `groupNearDuplicates`). Pure.
 */
import { hamming } from '../simhash/fingerprint64.ts';
import { SHORT_DOCUMENT_WORDS } from '../quality/defaults.ts';
import type { PairList } from '../index/pair-list.ts';
import { shortJoinMembers, similarityJoin } from './short-documents.ts';
import { buildDuplicateRelation, type DuplicateRelation } from './duplicate-relation.ts';
import { sortScoredPairs, type GroupTable, type ScoredPairs } from './group-table.ts';
import type { PreviousGroups } from './relation-splice.ts';
import type { PackedSets } from './packed-sets.ts';
import type { DocId } from '../ids.ts';

/** What grouping needs: every candidate with its exact Jaccard, and the small documents' feature sets. */
export interface GroupingInput {
  /** Number of documents (doc ids 0..n-1). */
  n: number;
  candidates: PairList;
  /** Exact Jaccard per candidate (all known by now). */
  jaccard: Float64Array;
  threshold: number;
  grouping: 'reference' | 'components';
  /** Per doc: words; fingerprint halves; 1 when the doc is a representative with a fingerprint. */
  words: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
  hasFingerprint: Uint8Array;
  /** Feature sets of small representatives (doc ids), for the short-document join. */
  smallSets: PackedSets;
  shortWords?: number;
  /** Per doc: the doc whose text stands for it (exact copies), -1 when not fingerprinted. */
  representative: Int32Array;
  /** Documents a person marked as references (see buildDuplicateRelation). */
  pinned?: readonly DocId[];
  /** A merge's saved groups and touched documents: only the touched components are grouped again. */
  previous?: PreviousGroups;
  /** Build the pairs CSV over the paths held for it (`holdPairsCsvPaths`) once the result is sent (it is then copied, not transferred). */
  csvAhead?: boolean;
}

export interface GroupingResult {
  /** Near-duplicate pairs: candidates with Jaccard >= threshold and short-document join pairs, sorted by (a, b). */
  verified: ScoredPairs;
  /** The one relation (exact copies + verified pairs) and its groups; `groups` is `relation.groups`. */
  relation: DuplicateRelation;
  groups: GroupTable;
  /** Per doc: 1 when it has fewer than `shortWords` words. */
  short: Uint8Array;
  /** Pairs the short-document join found, and how many of them the fingerprint search had missed. */
  joinPairs: number;
  joinOnly: number;
  /** Components mode: per group, 1 when some member pair is not a verified pair (chaining must be checked). */
  unchecked: Uint8Array;
}

/**
 * Decides near-duplicates and groups them: candidates with exact Jaccard >= threshold, plus the
 * short-document join (short documents are decided by exact Jaccard only, never by fingerprint);
 * reference-centred groups, or connected components (with the groups that still need a chaining check).
 */
export function groupNearDuplicates(input: GroupingInput): GroupingResult {
  const { n, candidates, jaccard, threshold, words } = input;
  const shortWords = input.shortWords ?? SHORT_DOCUMENT_WORDS;
  const short = new Uint8Array(n);
  for (let d = 0; d < n; d++) if (input.hasFingerprint[d] && words[d] < shortWords) short[d] = 1;

  // The short-document join, over the small representatives' feature sets.
  const sets = input.smallSets;
  const slot = new Int32Array(n).fill(-1);
  const featureCount = new Uint32Array(n);
  for (let i = 0; i < sets.docs.length; i++) {
    const d = sets.docs[i];
    if (!input.hasFingerprint[d]) continue;
    slot[d] = i;
    featureCount[d] = sets.offsets[i + 1] - sets.offsets[i];
  }
  const setOf = (d: number) => sets.keys.subarray(sets.offsets[slot[d]], sets.offsets[slot[d] + 1]);
  const join = similarityJoin(shortJoinMembers(words, featureCount, shortWords, threshold), setOf, threshold);
  const joinKeys = new Set<number>();
  for (let i = 0; i < join.count; i++) joinKeys.add(join.a[i] * n + join.b[i]);

  const cap = candidates.count + join.count;
  const out: ScoredPairs = { a: new Uint32Array(cap), b: new Uint32Array(cap), distance: new Uint8Array(cap), jaccard: new Float32Array(cap), count: 0 };
  const push = (a: number, b: number, distance: number, j: number) => {
    const i = out.count++;
    out.a[i] = a;
    out.b[i] = b;
    out.distance[i] = distance;
    out.jaccard[i] = j;
  };
  let joinOnly = join.count;
  for (let p = 0; p < candidates.count; p++) {
    const a = candidates.a[p];
    const b = candidates.b[p];
    if (joinKeys.has(a * n + b)) {
      joinOnly--;
      continue; // the join's entry (same pair, exact Jaccard) is added below
    }
    // Pairs with a short member too are decided by exact Jaccard (every candidate is).
    if (jaccard[p] >= threshold) push(a, b, candidates.distance[p], jaccard[p]);
  }
  for (let i = 0; i < join.count; i++) {
    const a = join.a[i];
    const b = join.b[i];
    push(a, b, hamming(input.hi[a], input.lo[a], input.hi[b], input.lo[b]), join.jaccard[i]);
  }
  const verified = sortScoredPairs({ a: out.a.subarray(0, out.count), b: out.b.subarray(0, out.count), distance: out.distance.subarray(0, out.count), jaccard: out.jaccard.subarray(0, out.count), count: out.count }, n);
  const relation = buildDuplicateRelation({
    count: n,
    representative: input.representative,
    verified,
    lengths: words,
    grouping: input.grouping,
    pinned: input.pinned,
    ...(input.previous ? { previous: input.previous } : {}),
  });
  const groups = relation.groups;
  // A component is a clique when every pair of its exact classes is a verified pair (copies are
  // identical to each other); only the others can chain.
  const unchecked = new Uint8Array(input.grouping === 'components' ? groups.count : 0);
  if (input.grouping === 'components') {
    const edges = new Float64Array(groups.count);
    const classes = new Float64Array(groups.count);
    for (let p = 0; p < verified.count; p++) {
      const g = groups.groupOf[verified.a[p]];
      if (g >= 0 && g === groups.groupOf[verified.b[p]]) edges[g]++;
    }
    for (let c = 0; c + 1 < relation.classOffsets.length; c++) classes[groups.groupOf[relation.classMembers[relation.classOffsets[c]]]]++;
    for (let g = 0; g < groups.count; g++) if (edges[g] < (classes[g] * (classes[g] - 1)) / 2) unchecked[g] = 1;
  }
  return { verified, relation, groups, short, joinPairs: join.count, joinOnly, unchecked };
}

