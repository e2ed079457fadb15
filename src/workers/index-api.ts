/**
 * The index worker's API: exact-duplicate grouping by content hash, the all-pairs search over the
 * distinct texts with the permuted-table index (src/core/index), and near-duplicate grouping, all
 * off the main thread. Inputs are copies of the scan's arrays; outputs are transferred.
 */
import { transfer } from 'comlink';
import { allPairs } from '../core/index/all-pairs.ts';
import { queryPairs } from '../core/index/brute-force-pairs.ts';
import { queryPairsCheaper } from '../core/index/block-layout.ts';
import { buildIndex, type PermutedIndex } from '../core/index/permuted-index.ts';
import { concatPairLists, sortPairs, type PairList } from '../core/index/pair-list.ts';
import { candidatesFromPairs, type ExternalCandidates } from '../core/index/external-pairs.ts';
import { groupExact, groupExactKnown, type ExactGrouping, type GroupList } from '../core/groups/exact-groups.ts';
import { pairsApi } from './pairs-api.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import { hamming } from '../core/simhash/fingerprint64.ts';
import { mergeDocumentFrequencies, type DocumentFrequencies } from '../core/simhash/document-frequencies.ts';
import { SHORT_DOCUMENT_WORDS } from '../core/quality/defaults.ts';
import { shortJoinMembers, similarityJoin } from '../core/groups/short-documents.ts';
import { buildDuplicateRelation, type DuplicateRelation } from '../core/groups/duplicate-relation.ts';
import { sortScoredPairs, type GroupTable, type ScoredPairs } from '../core/groups/group-table.ts';
import type { PreviousGroups } from '../core/groups/relation-splice.ts';
import type { ContainedRelation, ContainmentCandidates, ContainmentOptions, PassageSamples } from '../core/groups/contained-pairs.ts';
import { containmentCandidates } from '../core/groups/containment-candidates.ts';
import type { PackedSets } from '../core/groups/packed-sets.ts';
import type { KnownPairs } from '../core/index/pair-list.ts';
import { pairsCsvBytes } from '../core/export/pairs-csv-bytes.ts';
import { buildCsvAfterGrouping, holdCsvPaths, takeCsv } from './pairs-csv-ahead.ts';
import type { DocColumns, SearchColumnName } from '../core/documents/doc-columns.ts';

/** What the index worker needs: the scan's per-doc columns (`DocStatus` codes). */
export interface DuplicateSearchInput extends DocColumns<SearchColumnName> {
  k: number;
  /** Block count m for the permuted tables; chosen automatically when absent. */
  blocks?: number;
  /** Exact Jaccards already measured (a regroup, or a rescan's cache): attached to the candidates. */
  known?: KnownPairs;
  /**
   * Candidate pairs of documents found outside (doc ids; `simsift scan --pairs`): they replace the
   * search, reduced to pairs of representatives by `candidatesFromPairs`.
   */
  external?: PairList;
  /**
   * Per doc: 1 when the search must cover its pairs. Given, only pairs of representatives with at least
   * one such member are searched (a merge into a saved corpus whose other pairs were decided before).
   */
  queries?: Uint8Array;
  /**
   * A merge's exact classes known already (core/groups/exact-groups.ts groupExactKnown): `label[i]`
   * names doc i's saved class, -1 for a doc to place by its hash; the whole corpus is then not sorted.
   */
  classes?: { label: Int32Array; labels: number };
}

/** Exact groups and candidate pairs over doc ids. */
export interface DuplicateSearchResult extends DocColumns<'status' | 'hi' | 'lo' | 'words'> {
  /** (The columns: the input's with every `copy` resolved to its original's status, fingerprint and words.) */
  representative: Int32Array;
  exactGroups: GroupList;
  /** Representatives (distinct fingerprinted texts), ascending doc ids. */
  reps: Uint32Array;
  /** Candidate pairs of representatives (doc ids, a < b, sorted by a then b) within k. */
  candidates: PairList;
  /** Per candidate: its exact Jaccard when `known` had it, else NaN. */
  jaccard: Float64Array;
  /** Candidates per Hamming distance 0..k. */
  histogram: Uint32Array;
  /** Worker-side milliseconds per step. */
  exactMs: number;
  pairsMs: number;
  /** With `external`: the pairs the scan's fingerprints contradict (left out of `candidates`). */
  mismatched?: ExternalCandidates['mismatched'];
}

/**
 * Exact duplicates alone (`groupExactDuplicates`): a DuplicateSearchResult without the search, plus the
 * representatives' fingerprints (`repHi[r]`, `repLo[r]` of `reps[r]`) for a search run elsewhere.
 */
export type ExactDuplicates = Pick<DuplicateSearchResult, 'status' | 'hi' | 'lo' | 'words' | 'representative' | 'exactGroups' | 'reps' | 'exactMs'> & {
  repHi: Uint32Array;
  repLo: Uint32Array;
};

/** A candidate search over representatives whose fingerprints are given (`hi[r]`, `lo[r]` of `reps[r]`). */
export interface CandidateSearchInput {
  reps: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
  k: number;
  blocks?: number;
  known?: KnownPairs;
  /** Per doc id (not per rep): see DuplicateSearchInput.queries. */
  queries?: Uint8Array;
  /**
   * The tables' pairs (rep indexes), when the caller searched them in table ranges on several workers
   * (scan/split-search.ts): in table order they concatenate to `allPairs`' result at `blocks`, so only
   * the sort (and the queries' filter) is left to do here.
   */
  found?: PairList[];
}

export interface CandidateSearchResult {
  candidates: PairList;
  jaccard: Float64Array;
  histogram: Uint32Array;
}

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
  pinned?: number[];
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

const { ok: OK, tooShort: TOO_SHORT, copy: COPY } = DocStatus;

/** Restricts an exact grouping to docs whose (resolved) status is ok. */
function groupExactOk(grouped: ExactGrouping, status: Uint8Array): ExactGrouping {
  const representative = grouped.representative.slice();
  for (let i = 0; i < representative.length; i++) if (status[i] !== OK) representative[i] = -1;
  let kept = 0;
  for (const rep of grouped.distinct) if (status[rep] === OK) kept++;
  const distinct = new Uint32Array(kept);
  kept = 0;
  for (const rep of grouped.distinct) if (status[rep] === OK) distinct[kept++] = rep;
  // All members of a group share one text, hence one status: keep or drop whole groups.
  const g = grouped.groups;
  const start: number[] = [0];
  const members: number[] = [];
  for (let k = 0; k < g.count; k++) {
    if (status[g.members[g.start[k]]] !== OK) continue;
    for (let m = g.start[k]; m < g.start[k + 1]; m++) members.push(g.members[m]);
    start.push(members.length);
  }
  return { representative, distinct, groups: { start: Uint32Array.from(start), members: Uint32Array.from(members), count: start.length - 1 } };
}

/** Docs a merge may place by hash beside its known classes: beyond it, a sort of the whole corpus costs less. */
const MAX_PLACED = 256;

/**
 * Whether the known classes stand for the grouping: given, no copy left to resolve (they take their
 * original's results from the grouping), and few ok docs to place. Other docs end with no
 * representative either way, so only ok docs are grouped.
 */
function knownClassesApply(input: Omit<DuplicateSearchInput, 'external' | 'known' | 'queries'>): boolean {
  const { classes, status } = input;
  if (!classes || classes.label.length !== status.length) return false;
  let placed = 0;
  for (let i = 0; i < status.length; i++) {
    if (status[i] === COPY) return false;
    if (status[i] === OK && classes.label[i]! < 0 && ++placed > MAX_PLACED) return false;
  }
  return true;
}

/**
 * Exact grouping (see `findDuplicates`): resolves every `copy` to its original's status, fingerprint and
 * words (in the input arrays), groups the fingerprinted docs by content hash and gathers the
 * representatives' fingerprints.
 */
function exactDuplicates(input: Omit<DuplicateSearchInput, 'external' | 'known' | 'queries'>): ExactDuplicates {
  const t0 = performance.now();
  const { status, hi, lo, words } = input;
  const n = status.length;
  // Fingerprinted docs (ok, too short) are preferred representatives; copies take their results.
  const include = new Uint8Array(n);
  for (let i = 0; i < n; i++) include[i] = status[i] === OK || status[i] === TOO_SHORT ? 2 : status[i] === COPY ? 1 : 0;
  const grouped = knownClassesApply(input) ? groupExactKnown(input.hashHi, input.hashLo, Uint8Array.from(status, (st) => (st === OK ? 2 : 0)), input.classes!.label, input.classes!.labels) : groupExact(input.hashHi, input.hashLo, include);
  for (let i = 0; i < n; i++) {
    if (status[i] !== COPY) continue;
    const rep = grouped.representative[i];
    // A copy whose original never finished (a cancelled scan) stays a copy.
    if (rep === i || status[rep] === COPY) continue;
    status[i] = status[rep];
    hi[i] = hi[rep];
    lo[i] = lo[rep];
    words[i] = words[rep];
  }
  // Exact groups and distinct texts count fingerprinted (ok) docs only.
  const exact = groupExactOk(grouped, status);
  const reps = exact.distinct;
  const repHi = new Uint32Array(reps.length);
  const repLo = new Uint32Array(reps.length);
  for (let r = 0; r < reps.length; r++) {
    repHi[r] = hi[reps[r]];
    repLo[r] = lo[reps[r]];
  }
  return { status, hi, lo, words, representative: exact.representative, exactGroups: exact.groups, reps, repHi, repLo, exactMs: performance.now() - t0 };
}

/** The buffers of an exact grouping's arrays (the docs' columns included), to transfer them. */
function exactBuffers(exact: Omit<ExactDuplicates, 'repHi' | 'repLo'>): ArrayBuffer[] {
  const { status, hi, lo, words, representative, exactGroups, reps } = exact;
  return [status.buffer, hi.buffer, lo.buffer, words.buffer, representative.buffer, exactGroups.start.buffer, exactGroups.members.buffer, reps.buffer] as ArrayBuffer[];
}

/** The index worker's API object (exposed as-is by `index.worker.ts`). */
export const indexApi = {
  /**
   * Groups exact duplicates and searches candidate pairs (within k) among distinct texts.
   * `onPhase` (a comlink proxy, optional) hears 'indexing'.
   */
  async findDuplicates(input: DuplicateSearchInput, onPhase?: (phase: 'indexing') => void): Promise<DuplicateSearchResult> {
    const { repHi, repLo, ...exact } = exactDuplicates(input);
    const { reps, hi, lo } = exact;
    void onPhase?.('indexing');
    const t1 = performance.now();
    const external = input.external ? candidatesFromPairs(input.external, exact.representative, hi, lo) : null;
    const found = external
      ? withKnown(external.candidates, input.k, input.known)
      : searchCandidates({ reps, hi: repHi, lo: repLo, k: input.k, blocks: input.blocks, known: input.known, ...(input.queries ? { queries: input.queries } : {}) });
    const result: DuplicateSearchResult = {
      ...exact,
      ...found,
      pairsMs: performance.now() - t1,
      ...(external ? { mismatched: external.mismatched } : {}),
    };
    return transfer(result, [...exactBuffers(exact), ...candidateBuffers(found)]);
  },

  /**
   * `findDuplicates` without the search: exact groups and the representatives with their
   * fingerprints, for a candidate search split over several workers (scan/split-search.ts).
   */
  groupExactDuplicates(input: Omit<DuplicateSearchInput, 'external' | 'known' | 'queries'>): ExactDuplicates {
    const exact = exactDuplicates(input);
    return transfer(exact, [...exactBuffers(exact), exact.repHi.buffer, exact.repLo.buffer] as ArrayBuffer[]);
  },

  /** Pairs of a range of the tables (pairs-api.ts): this worker's part of a search split by tables. */
  pairsForTables: pairsApi.pairsForTables,

  /** Sums the ingest workers' document-frequency tables (TF-IDF first pass). */
  mergeFrequencies(parts: DocumentFrequencies[]): DocumentFrequencies {
    const df = mergeDocumentFrequencies(parts);
    return transfer(df, [df.keys.buffer, df.counts.buffer]);
  },

  /** Builds the permuted tables kept in IndexedDB for one-fingerprint queries (persistence), off the main thread. */
  buildTables(input: { hi: Uint32Array; lo: Uint32Array; k: number; blocks: number }): PermutedIndex {
    const index = buildIndex(input.hi, input.lo, input.k, { blocks: input.blocks });
    const buffers = [index.hi.buffer, index.lo.buffer];
    for (const t of index.tables) buffers.push(t.keyHi.buffer, t.keyLo.buffer, t.docs.buffer);
    return transfer(index, buffers as ArrayBuffer[]);
  },

  /** The candidate search alone (a regroup at a new k): pairs of `reps` within k, known Jaccards attached. */
  searchCandidates(input: CandidateSearchInput): CandidateSearchResult {
    const found = searchCandidates(input);
    return transfer(found, candidateBuffers(found));
  },

  /**
   * Decides near-duplicates and groups them: candidates with exact Jaccard >= threshold, plus the
   * short-document join (short documents are decided by exact Jaccard only, never by fingerprint);
   * reference-centred groups, or connected components (with the groups that still need a chaining check).
   */
  groupNearDuplicates(input: GroupingInput): GroupingResult {
    const out = groupNearDuplicates(input);
    if (input.csvAhead) {
      buildCsvAfterGrouping(out.relation);
      return out;
    }
    return transfer(out, [...relationBuffers(out.relation), out.short.buffer, out.unchecked.buffer] as ArrayBuffer[]);
  },

  /** The paths of the next grouping's pairs CSV (pairs-csv-ahead.ts), sent while this worker waits for verification. */
  holdPairsCsvPaths(paths: readonly string[]): void {
    holdCsvPaths(paths);
  },

  /** The pairs CSV built after the last grouping asked for it (`csvAhead`), or null. */
  takePairsCsv(): Uint8Array[] | null {
    const chunks = takeCsv();
    return chunks ? transfer(chunks, chunks.map((c) => c.buffer as ArrayBuffer)) : null;
  },

  /**
   * The pairs CSV (no rows left out) as UTF-8 chunks (core/export/pairs-csv-bytes.ts), built off
   * the caller's thread: `simsift scan` writes its cache meanwhile. Names must be well-formed text.
   */
  pairsCsvBytes(relation: DuplicateRelation, paths: readonly string[], contained?: ContainedRelation): Uint8Array[] {
    const chunks = pairsCsvBytes(relation, paths, contained);
    return transfer(chunks, chunks.map((c) => c.buffer as ArrayBuffer));
  },

  /**
   * The containment search's candidates (core/groups/containment-candidates.ts) over `n` documents' sampled
   * passages: pairs whose passages say one may lie in the other, sorted by (inner, outer); `sizes`: the
   * documents' feature-set sizes where known (0 elsewhere).
   */
  containmentCandidates(input: { n: number; passages: PassageSamples; options: ContainmentOptions; sizes?: Uint32Array }): ContainmentCandidates {
    const { candidates } = containmentCandidates(input.n, input.passages, input.options, input.sizes);
    return transfer(candidates, [candidates.inner.buffer, candidates.outer.buffer] as ArrayBuffer[]);
  },
};

/** Every buffer of a relation (its verified pairs and groups included), to transfer it whole. */
export function relationBuffers(r: DuplicateRelation): ArrayBufferLike[] {
  const g = r.groups;
  const v = r.verified;
  return [
    ...new Set([
      r.classOf.buffer, r.classOffsets.buffer, r.classMembers.buffer, r.graphOffsets.buffer, r.graphNeighbour.buffer, r.graphEdge.buffer,
      r.identical.buffer, r.exactGroup.buffer, r.outside.buffer,
      v.a.buffer, v.b.buffer, v.distance.buffer, v.jaccard.buffer,
      g.groupOf.buffer, g.offsets.buffer, g.members.buffer, g.reference.buffer, g.jaccardToReference.buffer, g.distanceToReference.buffer,
    ]),
  ];
}

function candidateBuffers(found: CandidateSearchResult): ArrayBuffer[] {
  const c = found.candidates;
  return [c.a.buffer, c.b.buffer, c.distance.buffer, found.jaccard.buffer, found.histogram.buffer] as ArrayBuffer[];
}

/** Candidate pairs of representatives within k (doc ids, sorted), with known Jaccards merged in. */
export function searchCandidates(input: CandidateSearchInput): CandidateSearchResult {
  const { reps, k } = input;
  const local = reps.length >= 2 ? searchReps(input) : null;
  const count = local?.count ?? 0;
  // Representatives are ascending doc ids, so mapping keeps a < b and the (a, b) order.
  const candidates: PairList = { a: new Uint32Array(count), b: new Uint32Array(count), distance: new Uint8Array(count), count };
  for (let p = 0; p < count; p++) {
    candidates.a[p] = reps[local!.a[p]];
    candidates.b[p] = reps[local!.b[p]];
    candidates.distance[p] = local!.distance[p];
  }
  return withKnown(candidates, k, input.known);
}

/**
 * Pairs of representatives within k (rep indexes, sorted): all of them, or with `queries` those with a
 * query member, each query compared with every representative when that costs less than the tables'
 * search of all pairs (then filtered). With `found`, the tables were searched by the caller.
 */
function searchReps(input: CandidateSearchInput): PairList {
  const { reps, k, queries, found: parts } = input;
  const all = () => sortPairs(parts ? concatPairLists(parts) : allPairs(input.hi, input.lo, k, input.blocks ? { blocks: input.blocks } : {}));
  if (!queries) return all();
  const isQuery = new Uint8Array(reps.length);
  let q = 0;
  for (let r = 0; r < reps.length; r++) if (queries[reps[r]]) (isQuery[r] = 1), q++;
  if (!parts && queryPairsCheaper(q, reps.length, k)) return queryPairs(input.hi, input.lo, isQuery, k);
  const found = all();
  let kept = 0;
  for (let p = 0; p < found.count; p++) {
    if (!isQuery[found.a[p]] && !isQuery[found.b[p]]) continue;
    found.a[kept] = found.a[p];
    found.b[kept] = found.b[p];
    found.distance[kept] = found.distance[p];
    kept++;
  }
  return { a: found.a.subarray(0, kept), b: found.b.subarray(0, kept), distance: found.distance.subarray(0, kept), count: kept };
}

/**
 * Candidates (doc ids, sorted by (a, b)) with their distance histogram and the Jaccards already
 * known attached: the search's own, or pairs found outside (`DuplicateSearchInput.external`).
 */
function withKnown(candidates: PairList, k: number, known: KnownPairs | undefined): CandidateSearchResult {
  const count = candidates.count;
  const histogram = new Uint32Array(k + 1);
  for (let p = 0; p < count; p++) histogram[candidates.distance[p]]++;
  const jaccard = new Float64Array(count).fill(Number.NaN);
  if (known && known.count > 0) {
    // Both lists are sorted by (a, b): one merge pass.
    let q = 0;
    for (let p = 0; p < count && q < known.count; p++) {
      const a = candidates.a[p];
      const b = candidates.b[p];
      while (q < known.count && (known.a[q] < a || (known.a[q] === a && known.b[q] < b))) q++;
      if (q < known.count && known.a[q] === a && known.b[q] === b) jaccard[p] = known.jaccard[q];
    }
  }
  return { candidates, jaccard, histogram };
}

/** See `indexApi.groupNearDuplicates`. */
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

export type IndexApi = typeof indexApi;
