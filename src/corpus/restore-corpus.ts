/**
 * Turns stored or merged documents back into a full ScanResult: the restored corpus as the scan's
 * per-document arrays (with the stored contents as Files), and the near-duplicate stage of the pipeline
 * (exact groups, candidates, verification, grouping) run over them without fingerprinting anything again.
 */
import type { DocId, StorageId, StorageIds } from '../core/ids.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { type LoadedCorpus } from '../storage/corpus-repository.ts';
import { getAllContentBatches } from '../storage/corpus-reads.ts';
import { forEachContent } from '../storage/content-batches.ts';
import { SMALL_SET_WORDS } from '../workers/ingest-protocol.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import { restoredPositions } from './stored-documents.ts';
import type { IngestItem } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { emptyKnown, searchDocs, shortCopiesSkipped } from '../scan/near-duplicate-search.ts';
import { concatSets, type PackedSets } from '../core/groups/packed-sets.ts';
import type { DocsSearch, SearchOptions } from '../scan/near-duplicate-search.ts';
import type { Candidates, SearchCorpus } from '../scan/search-corpus.ts';
import type { VerifiedPairs } from '../storage/verified-pairs.ts';
import { pairsAtPositions } from './position-pairs.ts';
import { readUpTo } from '../scan/read-file-bytes.ts';
import { passagesAtPositions, passagesByStorageId } from './saved-passages.ts';
import { decisionCounts } from '../core/groups/candidate-decisions.ts';
import { decisionsOf, docFile, noContents, type Grouping, type ScanDocs, type ScanResult, type SkippedFile } from '../scan/scan-result.ts';
import type { KnownPairs } from '../core/index/pair-list.ts';

/** Up to this many documents, the stored contents are read back as Files on restore (more would hold too many handles). */
export const RESTORE_FILES_LIMIT = 100_000;

/** Restored documents' files: `ranges` (see ScanDocs) where an entry is a stored batch's Blob. */
export interface RestoredFiles {
  files: Blob[];
  ranges?: Float64Array;
}

/**
 * Files for the restored documents: each one's batch's stored Blob with its byte range (so the pair
 * view and verification can read it through `docFile`), or the shared `noContents()` File where the
 * contents were not kept (size 0: views ask for the file again). No Blob is made per document here
 * (see ScanDocs.ranges): making them was most of a reload's time.
 */
export async function restoreFiles(c: LoadedCorpus, keepContents: boolean): Promise<RestoredFiles> {
  const files = new Array<Blob>(c.count).fill(noContents());
  if (!keepContents || c.count > RESTORE_FILES_LIMIT) return { files };
  const records = await getAllContentBatches();
  const ranges = new Float64Array(2 * c.count).fill(Number.NaN);
  // Records come in key order and hold ascending ids, as do the corpus positions: one merge walk.
  let p = 0;
  for (const record of records) {
    forEachContent(record, (id, start, end) => {
      while (p < c.count && c.ids[p]! < id) p++;
      if (p >= c.count || c.ids[p] !== id) return;
      files[p] = record.blob;
      ranges[2 * p] = start;
      ranges[2 * p + 1] = end;
    });
  }
  return { files, ranges };
}

/** What a restore is doing, for the corpus panel (a search over a big corpus takes minutes). */
export type RestorePhase = 'loading the corpus' | 'reading short documents' | 'searching near-duplicates' | 'verifying and grouping' | 'grouping saved pairs';

/** The grouping parameters of a result. */
export interface GroupingOptions {
  settings: SimHashSettings;
  k: number;
  similarityThreshold: number;
  grouping: Grouping;
  /** Documents marked as references. */
  pinned?: readonly DocId[];
  /** "A is contained in B" at >= this (0: off; absent: the default). */
  containmentThreshold?: number;
  /** Sampled passages (positions) for the containment search, from the saved pairs; absent: none kept. */
  passages?: PackedSets;
  /** See SearchOptions.csvAhead (near-duplicate-search.ts). */
  csvAhead?: boolean;
}

/** Feature-set sizes and sketches a restored corpus knows without its sets (SearchOptions'), for verification's bounds. */
export type KnownSetColumns = Pick<SearchOptions, 'setSizes' | 'sketches'>;

/**
 * Ingest items for docs `ids`, read here as verification reads them (verify-candidates.ts): a Node
 * thread cannot be posted a file-backed Blob, and these documents are small. A file that cannot be read
 * goes with its error, for the worker to report.
 */
async function itemsOf(docs: ScanDocs, ids: readonly number[], readLimit: number): Promise<IngestItem[]> {
  const items: IngestItem[] = [];
  for (const d of ids) {
    const file = docFile(docs, d);
    const read = await readUpTo(file, readLimit);
    const name = docs.paths[d]!;
    items.push(read.kind === 'bytes' ? { name, bytes: read.bytes } : read.kind === 'large' ? { name, file } : { name, error: read.message });
  }
  return items;
}

/**
 * Feature sets of the small fingerprinted documents (the short-document join needs them): the ingest
 * workers read only those documents (from their stored Blobs) and return their sets.
 */
async function smallSetsOf(workers: ScanWorkers, signal: AbortSignal, docs: ScanDocs, settings: SimHashSettings): Promise<PackedSets> {
  const small: number[] = [];
  for (let d = 0; d < docs.count; d++) {
    if (docs.status[d] === DocStatus.ok && docs.words[d]! < SMALL_SET_WORDS && docs.files[d]!.size > 0) small.push(d);
  }
  const parts: PackedSets[] = [];
  const tasks: Promise<void>[] = [];
  for (let from = 0; from < small.length; from += 256) {
    const ids = small.slice(from, from + 256);
    tasks.push(
      itemsOf(docs, ids, workers.readLimit)
        .then((items) => workers.ingest.run(signal, (api) => api.ingestBatch(items, settings, {})))
        .then((r) => {
          const mapped = r.sets.docs.map((i) => ids[i]!);
          parts.push({ docs: mapped, offsets: r.sets.offsets, keys: r.sets.keys });
        }),
    );
  }
  await Promise.all(tasks);
  return concatSets(parts);
}

/**
 * The pipeline's near-duplicate stage (near-duplicate-search.ts `searchDocs`) over restored `docs`,
 * whose fingerprints are given: with the verified pairs saved by the last grouping as `known`, a
 * restore reads no file to verify them (see verified-pairs.ts). Nothing is fingerprinted again.
 */
export async function groupDocs(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  skipped: SkippedFile[],
  options: GroupingOptions & KnownSetColumns,
  known: KnownPairs = emptyKnown(),
  onPhase?: (phase: RestorePhase) => void,
): Promise<GroupedCorpus> {
  const t0 = performance.now();
  onPhase?.('reading short documents');
  const smallSets = await smallSetsOf(workers, signal, docs, options.settings);
  const t1 = performance.now();
  onPhase?.('searching near-duplicates');
  const found = await searchDocs(workers, signal, docs, options.settings, smallSets, { ...options, known }, () => onPhase?.('verifying and grouping'));
  return groupedOf(docs, found, skipped, options, t1 - t0);
}

/** A stage's outcome over restored `docs` as a result (notes are filled in by the caller). */
function groupedOf(docs: ScanDocs, found: DocsSearch, skipped: SkippedFile[], options: GroupingOptions, readingMs: number): GroupedCorpus {
  const result: ScanResult = {
    settings: options.settings,
    ...found.near,
    docs: found.docs,
    skipped: [...skipped, ...shortCopiesSkipped(docs, found.docs)],
    notes: [],
    representative: found.representative,
    exactGroups: found.exactGroups,
    partial: false,
    timings: { readingMs, fingerprintingMs: 0, indexingMs: found.indexingMs, groupingMs: found.groupingMs, totalMs: readingMs + found.indexingMs + found.groupingMs },
  };
  return { result, corpus: found.corpus, candidates: found.candidates };
}

/**
 * A grouped corpus with the search state behind it: the scan session adopts it (`adopt`) so a
 * regroup of a restored or merged corpus runs the pipeline's own regroup, exactly as after a scan.
 */
export interface GroupedCorpus {
  result: ScanResult;
  corpus: SearchCorpus;
  candidates: Candidates;
}

/** A result's verified pairs by stored id (pairs with an unsaved member are left out), with its grouping parameters. */
export function verifiedByStorageId(result: ScanResult, storageIds: StorageIds, missing: StorageId): VerifiedPairs {
  const v = result.verified;
  const decided = decisionsOf(result.verification);
  // Typed columns, counted then filled (number arrays grown pair by pair cost a tenth of a second at 200,000 pairs).
  let count = 0;
  for (let p = 0; p < v.count; p++) if (storageIds[v.a[p]!] !== missing && storageIds[v.b[p]!] !== missing) count++;
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  const distance = new Uint8Array(count);
  const jaccard = new Float32Array(count);
  let n = 0;
  for (let p = 0; p < v.count; p++) {
    const ia = storageIds[v.a[p]!]!;
    const ib = storageIds[v.b[p]!]!;
    if (ia === missing || ib === missing) continue;
    a[n] = Math.min(ia, ib);
    b[n] = Math.max(ia, ib);
    distance[n] = v.distance[p]!;
    jaccard[n++] = v.jaccard[p]!;
  }
  return {
    k: result.k,
    threshold: result.similarityThreshold,
    grouping: result.grouping,
    a,
    b,
    distance,
    jaccard,
    histogram: result.histogram.slice(),
    count,
    pinned: Uint32Array.from(result.pinned.filter((p) => storageIds[p] !== undefined && storageIds[p] !== missing), (p) => storageIds[p]!) as StorageIds,
    containment: result.containmentThreshold ?? 0,
    ...(result.passages ? { passages: passagesByStorageId(result.passages, result.representative, storageIds, missing) } : {}),
    // Of the whole histogram, as it is saved whole (pairs with an unsaved member included).
    ...(decided !== 'not known' ? { decisions: decisionCounts(decided) } : {}),
  };
}

/**
 * The fast restore: when the saved pairs were decided with the current k, threshold and grouping, the
 * candidate search is skipped (the index worker groups exact duplicates only, k = 0) and the saved
 * pairs are the candidates, every Jaccard known: no file is read and no fingerprint compared.
 * `storageIds`: each position's stored id.
 */
export async function groupFromSavedPairs(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  skipped: SkippedFile[],
  options: GroupingOptions & KnownSetColumns,
  saved: VerifiedPairs,
  storageIds: StorageIds,
): Promise<GroupedCorpus> {
  // smallSets stay empty here (no file is read): the caller fills them in with `loadSmallSets`.
  const found = await searchDocs(workers, signal, docs, options.settings, concatSets([]), fromSavedPairs(saved, storageIds, options));
  // This search only took the saved pairs: how they were decided is what was saved with them, if anything.
  found.near.verification = { ...found.near.verification, restored: saved.decisions ?? 'not known' };
  return groupedOf(docs, found, skipped, options, 0);
}

/**
 * Search options under which the saved pairs are the candidates (nothing searched: radius 0) and
 * their Jaccards the known ones, each member replaced by its exact class's representative.
 */
export function fromSavedPairs(saved: VerifiedPairs, storageIds: StorageIds, options: GroupingOptions & KnownSetColumns): SearchOptions {
  return {
    ...options,
    searchK: 0,
    candidates: (exact) => {
      const pairs = pairsAtPositions(saved, storageIds, options.similarityThreshold, exact.representative, true);
      // The saved Jaccards also seed the cache a later regroup looks up (pairs are sorted by (a, b)).
      return {
        candidates: { k: options.k, pairs: { a: pairs.a, b: pairs.b, distance: pairs.distance, count: pairs.count }, jaccard: pairs.jaccard, histogram: saved.histogram, acceptedAt: saved.threshold },
        known: { a: pairs.a, b: pairs.b, jaccard: pairs.jaccard, count: pairs.count },
      };
    },
  };
}

/**
 * Reads the small documents' feature sets into a fast-restored corpus (groupFromSavedPairs skips
 * them), so a later regroup at another k finds short-document pairs as after a scan.
 */
export async function loadSmallSets(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus): Promise<void> {
  corpus.smallSets = await smallSetsOf(workers, signal, corpus.docs, corpus.settings);
}

/** True when pairs saved with these parameters can stand for a new search (see groupFromSavedPairs). */
export function savedPairsFit(saved: VerifiedPairs, options: GroupingOptions): boolean {
  return saved.k === options.k && saved.threshold === options.similarityThreshold && saved.grouping === options.grouping;
}

/** The saved corpus grouped for display: what `groupSavedCorpus` returns. */
export interface RestoredCorpus {
  grouped: GroupedCorpus;
  /** Storage id per position (ascending). */
  storageIds: StorageIds;
  /** True when the saved pairs stood for the search (no file read): the small sets come later (loadSmallSets). */
  fast: boolean;
  /** The references the person chose, as positions (the scan store's `pinned`). */
  pinned: DocId[];
}

/**
 * The restore step, free of storage and app state: the loaded corpus (with its Files, see
 * restoreFiles) grouped with `options`. Saved pairs decided with these options are the groups (fast);
 * otherwise the search runs again with the saved (or `carried`) Jaccards known, and documents whose
 * contents are not kept are never measured (near-duplicate-search.ts), so no saved verdict turns into 0.
 */
export async function groupSavedCorpus(
  workers: ScanWorkers,
  signal: AbortSignal,
  loaded: LoadedCorpus,
  files: RestoredFiles,
  saved: VerifiedPairs | null,
  options: GroupingOptions,
  carried?: VerifiedPairs,
  onPhase?: (phase: RestorePhase) => void,
  notSaved: readonly [string, string, string][] = [],
  savedPins: StorageIds | null = null,
): Promise<RestoredCorpus> {
  const pinnedFrom = saved ? saved.pinned : (carried?.pinned ?? savedPins ?? undefined);
  const { docs, storageIds, skipped, notes, pinned, setSizes, sketches } = restoredPositions(loaded, files, notSaved, pinnedFrom);
  const withNotes = (grouped: GroupedCorpus): GroupedCorpus => ({ ...grouped, result: { ...grouped.result, notes } });
  const passagesFrom = (saved ?? carried)?.passages;
  // A saved view's passages (by stored id) come back at positions: containment needs no file read.
  // The saved set sizes and sketches: a pair with a saved document is decided by the size bound or the
  // sketch test where they rule it out, without reading the document (verify-candidates.ts).
  const chosen = { ...options, pinned, setSizes, sketches, ...(passagesFrom ? { passages: passagesAtPositions(passagesFrom, storageIds) } : {}) };
  if (saved && savedPairsFit(saved, options)) {
    onPhase?.('grouping saved pairs');
    const grouped = await groupFromSavedPairs(workers, signal, docs, skipped, chosen, saved, storageIds);
    return { grouped: withNotes(grouped), storageIds, fast: true, pinned };
  }
  // The saved pairs must fit the stored corpus (damage is said, never guessed around); carried ones may name removed documents.
  if (saved) pairsAtPositions(saved, storageIds, saved.threshold, undefined, true);
  const knownFrom = saved ?? carried;
  const known = knownFrom ? pairsAtPositions(knownFrom, storageIds, options.similarityThreshold) : undefined;
  return { grouped: withNotes(await groupDocs(workers, signal, docs, skipped, chosen, known, onPhase)), storageIds, fast: false, pinned };
}
