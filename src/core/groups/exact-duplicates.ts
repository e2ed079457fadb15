/**
 * The duplicate search's input and result (the index worker's `findDuplicates`), and its first step:
 * exact duplicates by content hash, each `copy` resolved to its original, and the distinct texts'
 * fingerprints gathered for the candidate search (core/index/candidate-search.ts). Pure.
 */
import type { PairList, KnownPairs } from '../index/pair-list.ts';
import type { ExternalCandidates } from '../index/external-pairs.ts';
import { groupExact, groupExactKnown, type ExactGrouping, type GroupList } from './exact-groups.ts';
import { DocStatus } from '../documents/document-status.ts';
import type { DocColumns, SearchColumnName } from '../documents/doc-columns.ts';

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
export function exactDuplicates(input: Omit<DuplicateSearchInput, 'external' | 'known' | 'queries'>): ExactDuplicates {
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

