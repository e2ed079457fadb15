/**
 * Owns THE near-duplicate stage, after fingerprinting, that every path runs once (scan, cancelled
 * scan, restore, merge, regroup): exact classes (index worker) and candidate pairs within k (every
 * worker, split by tables: split-search.ts), exact Jaccard of every candidate not measured before
 * (verify-candidates.ts), the short-document join and grouping (index worker), and chaining checks
 * of components.
 */
import { buildDuplicateRelation } from '../core/groups/duplicate-relation.ts';
import type { PairList } from '../core/index/pair-list.ts';
import type { ExternalCandidates } from '../core/index/external-pairs.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { DuplicateSearchResult } from '../core/groups/exact-duplicates.ts';
import { gatherDocColumns, pickDocColumns, SEARCH_COLUMNS } from '../core/documents/doc-columns.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { GroupList } from '../core/groups/exact-groups.ts';
import type { PreviousGroups } from '../core/groups/relation-splice.ts';
import { emptyScoredPairs, type Grouping, type ScanDocs, type ScanResult, type SkippedFile, type VerificationStats } from './scan-result.ts';
import { DocStatus, tooShortMessage } from '../core/documents/document-status.ts';
import { checkChaining } from './chain-check.ts';
import { isMeasured, rememberJaccards, verifyCandidates } from './verify-candidates.ts';
import { setSizesOfReps, sketchesOfReps, type Candidates, type SearchCorpus } from './search-corpus.ts';
import { recordPhase } from './phase-timing.ts';
import { finishContained, noContained, startContained, type ContainedStart } from './contained-search.ts';
import { findDuplicatesSplit, searchCandidatesSplit } from './split-search.ts';
import { CONTAINMENT_DEFAULT_SETTING } from '../core/groups/contained-pairs.ts';
import type { KnownPairs } from '../core/index/pair-list.ts';
import type { PackedSets, SpilledSets } from '../core/groups/packed-sets.ts';
import { rememberCsvAhead } from './pairs-csv-ahead.ts';
import type { DocId } from '../core/ids.ts';

/** The near-duplicate fields of a ScanResult. */
export type NearDuplicateFields = Pick<
  ScanResult,
  'k' | 'similarityThreshold' | 'grouping' | 'pinned' | 'verified' | 'relation' | 'groups' | 'chained' | 'histogram' | 'short' | 'verification' | 'contained' | 'containmentThreshold' | 'passages'
>;

/** An empty Jaccard cache. */
export function emptyKnown(): KnownPairs {
  return { a: new Uint32Array(0), b: new Uint32Array(0), jaccard: new Float64Array(0), count: 0 };
}

/** Candidate pairs within k over the corpus' representatives (on every worker: split-search.ts), with cached Jaccards attached. */
export async function searchCandidates(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus, k: number): Promise<Candidates> {
  const { reps, docs } = corpus;
  const { hi, lo } = gatherDocColumns(docs, ['hi', 'lo'], reps);
  const found = await searchCandidatesSplit(workers, signal, { reps, hi, lo, k, known: corpus.known });
  return { k, pairs: found.candidates, jaccard: found.jaccard, histogram: found.histogram };
}

/**
 * From candidates to the result's near-duplicate fields: measures what is not known yet, decides and
 * groups in the index worker, checks components for chaining. `onGrouping` hears when measuring ends.
 * `started`: containment's candidate search, started by `findCandidates` at these options' thresholds.
 */
export async function decideNearDuplicates(
  workers: ScanWorkers,
  signal: AbortSignal,
  corpus: SearchCorpus,
  candidates: Candidates,
  options: { similarityThreshold: number; grouping: Grouping; pinned?: readonly DocId[]; containmentThreshold?: number; previous?: PreviousGroups; csvAhead?: boolean },
  onGrouping?: () => void,
  started?: ContainedStart,
): Promise<NearDuplicateFields> {
  const { docs } = corpus;
  const t0 = performance.now();
  let unknown = 0;
  for (let p = 0; p < candidates.pairs.count; p++) if (!isMeasured(candidates.jaccard[p])) unknown++;
  // The containment candidates need no near-duplicate result: the index worker finds them while the ingest workers verify.
  const containmentThreshold = options.containmentThreshold ?? CONTAINMENT_DEFAULT_SETTING;
  const containment = started ?? startContained(workers, signal, corpus, containmentThreshold, options.similarityThreshold);
  // The CSV's paths go to the index worker while it waits for verification (see SearchOptions.csvAhead).
  const csvAhead = options.csvAhead === true && containmentThreshold === 0;
  if (csvAhead) workers.index.call(signal, (api) => api.holdPairsCsvPaths(docs.paths)).catch(() => {});
  const { measured, docsRead, sizeRejected, sketchRejected } = await verifyCandidates(workers, signal, corpus, candidates, options.similarityThreshold);
  rememberJaccards(corpus, candidates);
  // Left NaN by verification: a file's contents were not at hand (not kept, moved, unreadable).
  let unmeasured = 0;
  for (let p = 0; p < candidates.pairs.count; p++) if (Number.isNaN(candidates.jaccard[p])) unmeasured++;
  const t1 = performance.now();
  onGrouping?.();

  const n = docs.count;
  const hasFingerprint = new Uint8Array(n);
  for (let r = 0; r < corpus.reps.length; r++) hasFingerprint[corpus.reps[r]] = 1;
  const grouping = workers.index.call(signal, (api) =>
    api.groupNearDuplicates({
      n,
      candidates: candidates.pairs,
      jaccard: candidates.jaccard,
      threshold: options.similarityThreshold,
      grouping: options.grouping,
      words: docs.words,
      hi: docs.hi,
      lo: docs.lo,
      hasFingerprint,
      smallSets: corpus.smallSets,
      representative: corpus.representative,
      pinned: options.pinned ? [...options.pinned] : [],
      ...(options.previous ? { previous: options.previous } : {}),
      ...(csvAhead ? { csvAhead } : {}),
    }),
  );
  // Measured in the ingest workers while the index worker groups (it does once it has the candidates).
  const containing = finishContained(workers, signal, corpus, containment);
  containing.catch(() => {});
  const grouped = await grouping;
  if (csvAhead) rememberCsvAhead(grouped.relation, docs.paths, workers.index.call(signal, (api) => api.takePairsCsv()));
  const { verified, groups, relation } = grouped;
  const chained = options.grouping === 'components' ? await checkChaining(workers, signal, corpus, grouped, options.similarityThreshold) : null;
  const tGrouped = performance.now();
  const contained = await containing;
  const t2 = performance.now();
  recordPhase('verification', t0, t1, { candidates: candidates.pairs.count, measured, sizeRejected, sketchRejected, docsRead });
  recordPhase('grouping', t1, tGrouped, { verified: verified.count, groups: groups.count });
  // Containment runs beside verification and grouping; what it adds is the wait after them.
  if (containmentThreshold > 0) recordPhase('containment', tGrouped, t2, { contained: contained?.count ?? 0 });

  const verification: VerificationStats = {
    candidates: candidates.pairs.count,
    measured,
    sizeRejected,
    sketchRejected,
    cached: candidates.pairs.count - unknown,
    ...(unmeasured > 0 ? { unmeasured } : {}),
    docsRead,
    joinPairs: grouped.joinPairs,
    joinOnly: grouped.joinOnly,
    verifyMs: t1 - t0,
    groupMs: t2 - t1,
  };
  return {
    k: candidates.k,
    similarityThreshold: options.similarityThreshold,
    grouping: options.grouping,
    pinned: options.pinned ? [...options.pinned] : [],
    verified,
    relation,
    groups,
    chained,
    histogram: candidates.histogram,
    short: grouped.short,
    verification,
    contained,
    containmentThreshold,
    ...(corpus.passages ? { passages: corpus.passages } : {}),
  };
}

/** The search over a fingerprinted scan: exact groups, then near-duplicates (see `decideNearDuplicates`). */
export interface DocsSearch {
  /** The docs with every copy resolved to its original's status, fingerprint and words. */
  docs: ScanDocs;
  representative: Int32Array;
  exactGroups: GroupList;
  near: NearDuplicateFields;
  corpus: SearchCorpus;
  candidates: Candidates;
  indexingMs: number;
  groupingMs: number;
  /** With `options.external`: the pairs the scan's fingerprints contradict (not candidates). */
  mismatched?: ExternalCandidates['mismatched'];
}

export type { DuplicateSearchResult };

/** Options of the near-duplicate stage (see `searchDocs`). */
export interface SearchOptions {
  k: number;
  similarityThreshold: number;
  grouping: Grouping;
  pinned?: readonly DocId[];
  keptSets?: ReadonlyArray<Uint32Array | undefined>;
  /** Where the sets past the kept budget were spilled (SearchCorpus.spilledSets). */
  spilledSets?: SpilledSets;
  /** Feature-set sizes known without the sets (SearchCorpus.setSizes). */
  setSizes?: Uint32Array;
  /** MinHash sketches per doc (SearchCorpus.sketches). */
  sketches?: Uint16Array;
  /**
   * Sampled passages (doc ids) for the containment search; `containmentThreshold` (0: off) decides it.
   * Absent when none were collected: an empty set would tell a saved copy (the CLI's cache) there were none.
   */
  passages?: PackedSets;
  containmentThreshold?: number;
  external?: PairList;
  known?: KnownPairs;
  searchK?: number;
  /** Per doc: 1 when its pairs must be searched; absent, every pair (see DuplicateSearchInput.queries). */
  queries?: Uint8Array;
  candidates?: (found: DuplicateSearchResult, known: KnownPairs) => { candidates: Candidates; known: KnownPairs };
  /** A merge's saved groups at these positions and the documents it touched (see GroupingInput.previous). */
  previous?: PreviousGroups;
  /** A merge's saved exact classes at these positions (see DuplicateSearchInput.classes). */
  classes?: { label: Int32Array; labels: number };
  /**
   * Have the index worker build the pairs CSV right after grouping, while the caller takes the result
   * (scan/pairs-csv-ahead.ts takeCsvAhead); containment off only (its rows come after grouping).
   */
  csvAhead?: boolean;
}

/**
 * The stage's first half: exact groups and candidates, nothing verified or grouped yet; `containment`,
 * containment's candidate search when `findCandidates` started it.
 */
export type FoundCandidates = Omit<DocsSearch, 'near' | 'groupingMs'> & { containment?: ContainedStart };

/**
 * The first half of `searchDocs`: exact grouping in the index worker, the candidate search on every
 * worker (split-search.ts), and the search corpus behind them. A caller that only needs the saved pairs back at their positions (the
 * CLI cache's restore, merged right after) stops here. `containmentEarly` (a caller that goes on to
 * `decideNearDuplicates`): containment's candidate search starts in the index worker as soon as the exact
 * groups are known, beside the table search (kept off the index worker) and verification; it ran after
 * both, mostly alone, the ingest workers idle.
 */
export async function findCandidates(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  settings: SimHashSettings,
  smallSets: PackedSets,
  options: SearchOptions,
  containmentEarly = false,
): Promise<FoundCandidates> {
  const t0 = performance.now();
  const { external } = options;
  const searchK = options.searchK ?? options.k;
  const known0 = options.known ?? emptyKnown();
  const input = {
    // Structured-cloned, not transferred: the caller's columns stay as they are.
    ...pickDocColumns(docs, SEARCH_COLUMNS),
    k: searchK,
    ...(options.known ? { known: options.known } : {}),
    ...(options.queries ? { queries: options.queries } : {}),
    ...(options.classes ? { classes: options.classes } : {}),
  };
  const corpusOf = (exact: Pick<DuplicateSearchResult, 'status' | 'hi' | 'lo' | 'words' | 'reps' | 'representative'>, known: KnownPairs): SearchCorpus => ({
    docs: { ...docs, status: exact.status, hi: exact.hi, lo: exact.lo, words: exact.words },
    settings,
    reps: exact.reps,
    representative: exact.representative,
    smallSets,
    known,
    ...(options.keptSets ? { keptSets: options.keptSets } : {}),
    ...(options.spilledSets ? { spilledSets: options.spilledSets } : {}),
    ...(options.setSizes ? { setSizes: setSizesOfReps(options.setSizes, exact.representative) } : {}),
    ...(options.sketches && options.sketches.length > 0 ? { sketches: sketchesOfReps(options.sketches, exact.representative) } : {}),
    ...(options.passages ? { passages: options.passages } : {}),
  });
  let early: { corpus: SearchCorpus; containment: ContainedStart } | undefined;
  const containmentThreshold = options.containmentThreshold ?? CONTAINMENT_DEFAULT_SETTING;
  const afterExact =
    containmentEarly && containmentThreshold > 0 && options.passages
      ? (exact: Parameters<typeof corpusOf>[0]) => {
          const corpus = corpusOf(exact, known0);
          early = { corpus, containment: startContained(workers, signal, corpus, containmentThreshold, options.similarityThreshold) };
          return true;
        }
      : undefined;
  // Pairs found outside replace the search (the index worker maps them); the search runs on every worker.
  const found = external
    ? await workers.index.call(signal, (api) => api.findDuplicates({ ...input, external }))
    : await findDuplicatesSplit(workers, signal, input, afterExact);
  const t1 = performance.now();
  // Exact grouping on the index worker's clock; the candidate search's wall time (split-search.ts) ends at t1.
  recordPhase('exact-grouping', t0, t0 + found.exactMs, { exactGroups: found.exactGroups.count, distinct: found.reps.length });
  recordPhase('search', t1 - found.pairsMs, t1, { k: searchK, candidates: found.candidates.count });
  const own: Candidates = { k: options.k, pairs: found.candidates, jaccard: found.jaccard, histogram: found.histogram };
  const chosen = options.candidates ? options.candidates(found, known0) : { candidates: own, known: known0 };
  // The corpus containment's search started with, if it did: the one the stage goes on with.
  const started = early as { corpus: SearchCorpus; containment: ContainedStart } | undefined;
  const corpus = started?.corpus ?? corpusOf(found, chosen.known);
  corpus.known = chosen.known;
  return {
    docs: corpus.docs,
    representative: found.representative,
    exactGroups: found.exactGroups,
    corpus,
    candidates: chosen.candidates,
    indexingMs: t1 - t0,
    ...(found.mismatched ? { mismatched: found.mismatched } : {}),
    ...(started ? { containment: started.containment } : {}),
  };
}

/**
 * THE near-duplicate stage, the one every path runs (a scan, a cancelled scan's finished part, a
 * restore, a merge into the saved corpus): exact grouping (index worker) and the candidate search
 * (every worker) over the docs fingerprinted so far (any status other than ok takes no part), then
 * verification and grouping (`decideNearDuplicates`). With `options.external` (pairs of doc ids found
 * outside, e.g. by DuckDB or Spark) those pairs are the candidates instead of the search's. `known`:
 * Jaccards measured before (never measured again). `searchK`: the radius the search covers
 * (default k; a restore from saved pairs searches 0 and takes the saved pairs as its candidates
 * through `candidates`, which may replace the found candidates and the known Jaccards).
 * `onPhase` hears 'grouping' when verification starts.
 */
export async function searchDocs(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  settings: SimHashSettings,
  smallSets: PackedSets,
  options: SearchOptions,
  onPhase?: (phase: 'grouping') => void,
): Promise<DocsSearch> {
  const { containment, ...found } = await findCandidates(workers, signal, docs, settings, smallSets, options, true);
  const t1 = performance.now();
  onPhase?.('grouping');
  const near = await decideNearDuplicates(workers, signal, found.corpus, found.candidates, options, undefined, containment);
  return { ...found, near, groupingMs: performance.now() - t1 };
}

/** The near-duplicate fields of a result in which nothing was searched. */
export function noNearDuplicates(n: number, k: number, similarityThreshold: number, grouping: Grouping): NearDuplicateFields {
  const verified = emptyScoredPairs();
  const relation = buildDuplicateRelation({ count: n, representative: new Int32Array(n).fill(-1), verified, lengths: new Uint32Array(n), grouping });
  return {
    k,
    similarityThreshold,
    grouping,
    pinned: [],
    verified,
    relation,
    groups: relation.groups,
    chained: null,
    histogram: new Uint32Array(k + 1),
    short: new Uint8Array(n),
    verification: { candidates: 0, measured: 0, sizeRejected: 0, sketchRejected: 0, cached: 0, docsRead: 0, joinPairs: 0, joinOnly: 0, verifyMs: 0, groupMs: 0 },
    contained: noContained(),
  };
}

/**
 * The copies of a too-short document, skipped as it is: a copy's status becomes its original's only in
 * the search (`found`), so each one is listed here, from a scan and from a restore alike.
 */
export function shortCopiesSkipped(before: ScanDocs, found: ScanDocs): SkippedFile[] {
  const out: SkippedFile[] = [];
  for (let d = 0; d < before.count; d++) {
    if (before.status[d] === DocStatus.copy && found.status[d] === DocStatus.tooShort) {
      out.push({ docId: d, path: before.paths[d]!, size: before.sizes[d]!, reason: 'too-short', message: tooShortMessage(found.words[d]!) });
    }
  }
  return out;
}
