/**
 * `simsift scan --cache FILE`: the second scan of a folder pays for what changed. A file whose path,
 * size, modification time, change time and inode equal the cache's record is not read; the rest are
 * scanned and merged into the cached corpus by the app's own merge step (corpus/merge-corpus.ts), so
 * the CSV is the one a scan without the cache writes.
 */
import type { StorageId, StorageIds } from '../core/ids.ts';
import { realpath } from 'node:fs/promises';
import { FINGERPRINT_RULE } from '../core/simhash/fingerprint-rule.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DocFlag, DocStatus } from '../core/documents/document-status.ts';
import { allocateDocColumns, concatDocColumns } from '../core/documents/doc-columns.ts';
import { DOC_FLAG_HAS_CONTENT_HASH, DOC_FLAG_SKIPPED, DOC_FLAG_TOO_SHORT } from '../storage/corpus-columns.ts';
import type { LoadedCorpus } from '../storage/corpus-repository.ts';
import { noContents, type ScanDocs, type ScanResult } from '../scan/scan-result.ts';
import { plainScan, type ScanRun, type ShownCorpus } from '../scan/scan-run.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { mergeCorpus, type MergeOutcome, type SavedCorpusPart, type SavedResult } from '../corpus/merge-corpus.ts';
import { fromSavedPairs, loadSmallSets, verifiedByStorageId } from '../corpus/restore-corpus.ts';
import { emptyKnown, findCandidates, type DuplicateSearchResult, type FoundCandidates, type SearchOptions } from '../scan/near-duplicate-search.ts';
import { concatSets } from '../core/groups/packed-sets.ts';
import { knownSetSize } from '../scan/verify-candidates.ts';
import type { SearchCorpus } from '../scan/search-corpus.ts';
import { restoredPositions, storedDocumentOf } from '../corpus/stored-documents.ts';
import { passagesAtPositions } from '../corpus/saved-passages.ts';
import { CacheProblem, readScanCache, type ScanCache } from './scan-cache.ts';
import type { ListedIdentities } from './stat-listing.ts';
import { positionsIn, sortedPaths } from '../scan/scan-docs.ts';
import { describeSettings } from './cli-common.ts';
import { SKETCH_BINS, sketchKnown } from '../core/groups/minhash-sketch.ts';

/** The cache as this scan can use it, or why it cannot (then every file is read and the cache rewritten). */
/** An opened cache (`note`: what it lacks and the scan does instead), or why there is none to use. */
export type CacheUse = { cache: ScanCache; problem: null; note?: string } | { cache: null; problem: string | null };

/** Reads `file` and checks that it describes `dir` scanned with `settings` by this version's fingerprint rule. */
export async function openCache(file: string, dir: string, settings: SimHashSettings, containment: number): Promise<CacheUse> {
  let cache: ScanCache | null;
  try {
    cache = await readScanCache(file);
  } catch (error) {
    if (error instanceof CacheProblem) return { cache: null, problem: error.message };
    throw error;
  }
  if (cache === null) return { cache: null, problem: null };
  const root = await realpath(dir);
  if (cache.dir !== root) return { cache: null, problem: `it holds another folder (${JSON.stringify(cache.dir)})` };
  if (cache.rule !== FINGERPRINT_RULE) return { cache: null, problem: 'it was made by an older version of SimSift' };
  if (describeSettings(cache.settings) !== describeSettings(settings)) {
    return { cache: null, problem: `it was made with ${describeSettings(cache.settings)}, this scan uses ${describeSettings(settings)}` };
  }
  // Containment starts from every document's sampled passages: a cache made with it off has none, so
  // its unchanged files are read again for them (sampled from the feature sets, not fingerprinted).
  if (containment > 0 && cache.passages === null) return { cache, problem: null, note: 'made with --containment 0: its unchanged files read again for their passages (not fingerprinted)' };
  return { cache, problem: null };
}

/**
 * A file whose times fall this close to the start of the scan that cached it is read again (git's
 * "racy clean" rule): file systems keep times in ticks (2 s on FAT), so an edit in the same tick as the
 * scan's read would keep every time the cache compares.
 */
const RACY_MS = 2000;

/** Whether the file at cache position `p` still has the identity the cache recorded (listed at `i` of `now`), recorded safely before its scan. */
function sameFile(cache: ScanCache, p: number, now: ListedIdentities, i: number): boolean {
  const c = cache.corpus;
  const mtime = c.modified?.[p] ?? 0;
  return (
    c.sizes[p] === now.size[i] &&
    mtime === now.mtimeMs[i] &&
    mtime !== 0 &&
    cache.ctimeMs[p] === now.ctimeMs[i] &&
    cache.ino[p] === now.ino[i] &&
    Math.max(mtime, cache.ctimeMs[p]!) < cache.startedMs - RACY_MS
  );
}

/**
 * Which of the folder's listed files (`paths`, identities by position) the cache stands for
 * (`unchanged`: their cache positions; `unchangedAt`: their listing positions) and which must be read
 * (`read`: listing positions, in order).
 */
export function quickCheck(cache: ScanCache, paths: readonly string[], identity: ListedIdentities): { unchanged: number[]; unchangedAt: number[]; read: number[] } {
  const at = positionsIn(paths, cache.corpus.paths);
  const unchanged: number[] = [];
  const unchangedAt: number[] = [];
  const read: number[] = [];
  for (let i = 0; i < paths.length; i++) {
    const p = at[i];
    if (p >= 0 && sameFile(cache, p, identity, i)) {
      unchanged.push(p);
      unchangedAt.push(i);
    } else read.push(i);
  }
  return { unchanged, unchangedAt, read };
}

/**
 * The cached corpus as the saved corpus a scan merges into: its documents at their positions, exact
 * classes, and verified pairs as decided (no search, no grouping: the merge groups the whole folder
 * once). Needs no stat of the folder, so it runs while the threads take them; every document is the
 * empty stand-in until `lendUnchanged` gives the files the quick check kept their Blobs.
 */
export async function restoreCache(workers: ScanWorkers, signal: AbortSignal, cache: ScanCache): Promise<SavedCorpusPart> {
  const files = new Array<Blob>(cache.corpus.count).fill(noContents());
  const { pairs } = cache;
  const options = { settings: cache.settings, k: pairs.k, similarityThreshold: pairs.threshold, grouping: pairs.grouping === 'components' ? 'components' as const : 'reference' as const };
  const { docs, storageIds, skipped, notes, pinned, setSizes, sketches } = restoredPositions(cache.corpus, { files }, [], pairs.pinned);
  const search = fromSavedPairs(pairs, storageIds, { ...options, pinned });
  const found = cachedClasses(docs, storageIds, cache, search) ?? (await findCandidates(workers, signal, docs, cache.settings, concatSets([]), search));
  if (cache.passages) found.corpus.passages = passagesAtPositions(cache.passages, storageIds);
  found.corpus.setSizes = setSizes;
  found.corpus.sketches = sketches;
  // The saved pairs are all verified (accepted at this threshold, lifted to it), in (a, b) order: as the grouping would list them.
  const c = found.candidates;
  const verified = { a: c.pairs.a, b: c.pairs.b, distance: c.pairs.distance, jaccard: new Float32Array(c.jaccard), count: c.pairs.count };
  const relation = groupsAtPositions(cache.groups, storageIds);
  const result: SavedResult = { docs: found.docs, representative: found.representative, verified, histogram: c.histogram, k: options.k, similarityThreshold: options.similarityThreshold, pinned, skipped, notes, grouping: options.grouping, ...(relation ? { relation } : {}) };
  return { result, storageIds, search: found.corpus };
}

/**
 * The restore's search stage from the cache's exact classes: the saved pairs as candidates over the
 * classes the last scan found, with no grouping and no search on the index thread (the merge groups
 * the folder once). Null when the restored order or a copy left unresolved asks for the index thread's
 * grouping (findCandidates), which gives the same classes from the same documents.
 */
function cachedClasses(docs: ScanDocs, storageIds: StorageIds, cache: ScanCache, search: SearchOptions): FoundCandidates | null {
  const n = docs.count;
  for (let p = 0; p < n; p++) if (storageIds[p] !== p || docs.status[p] === DocStatus.copy) return null;
  const representative = cache.representative.slice();
  let count = 0;
  for (let d = 0; d < n; d++) if (representative[d] === d) count++;
  const reps = new Uint32Array(count);
  for (let d = 0, r = 0; d < n; d++) if (representative[d] === d) reps[r++] = d;
  const chosen = search.candidates!({ representative } as DuplicateSearchResult, emptyKnown());
  const corpus: SearchCorpus = { docs, settings: cache.settings, reps, representative, smallSets: concatSets([]), known: chosen.known };
  // No exact groups listed: the restored result keeps only the classes (the merge lists the groups).
  return { docs, representative, exactGroups: { start: new Uint32Array(1), members: new Uint32Array(0), count: 0 }, corpus, candidates: chosen.candidates, indexingMs: 0 };
}

/** The cache's groups (by stored id) at restored positions; null when a member was not restored (the merge then groups everything). */
function groupsAtPositions(saved: ScanCache['groups'], storageIds: StorageIds): SavedResult['relation'] | null {
  // The cache is written in path order, so its ids usually are the positions: its table stands as it is.
  let same = storageIds.length === saved.table.groupOf.length;
  for (let p = 0; same && p < storageIds.length; p++) same = storageIds[p] === p;
  if (same) return { groups: saved.table, identical: saved.identical };
  const positionOf = new Int32Array(saved.table.groupOf.length).fill(-1);
  storageIds.forEach((id, p) => (positionOf[id] = p));
  const t = saved.table;
  const members = Int32Array.from(t.members, (id) => positionOf[id]!);
  if (members.some((p) => p < 0)) return null;
  const groupOf = Int32Array.from(storageIds, (id) => t.groupOf[id] ?? -1);
  return { groups: { ...t, members, groupOf, reference: Int32Array.from(t.reference, (id) => positionOf[id]!) }, identical: saved.identical };
}

/**
 * Document d's feature-set size, or -1: an exact copy keeps no set of its own, but its text (hence its
 * set) is its representative's, so it takes that size and is not read again when it comes to stand for
 * its text (its original edited or gone).
 */
function setSizeOf(search: SearchCorpus, representative: Int32Array, d: number): number {
  const own = knownSetSize(search, d);
  const r = representative[d] ?? -1;
  return own >= 0 || r < 0 || r === d ? own : knownSetSize(search, r);
}

/** Where document d's sketch is known: itself, else its representative (an exact copy's text is its), else -1. */
function sketchSourceOf(sketches: Uint16Array, representative: Int32Array, d: number): number {
  if (sketchKnown(sketches, d)) return d;
  const r = representative[d] ?? -1;
  return r >= 0 && r !== d && sketchKnown(sketches, r) ? r : -1;
}

/**
 * Gives the restored documents the quick check kept (`unchanged`: cache positions) their files on disk
 * (`fileOf(k)`: the file of `unchanged[k]`), so a pair that needs one's exact Jaccard reads that one
 * file, then reads the short documents' feature sets for the short-document join.
 */
export async function lendUnchanged(workers: ScanWorkers, signal: AbortSignal, before: SavedCorpusPart, unchanged: readonly number[], fileOf: (k: number) => Blob): Promise<void> {
  // One array behind the result and the search corpus (findCandidates spreads the docs, not their files).
  const docs = before.result.docs;
  // A cache position is its document's stored id: the restored position holding it (the same unless the path order moved it).
  const ids = before.storageIds;
  let moved = false;
  for (let p = 0; p < ids.length && !moved; p++) moved = ids[p] !== p;
  const positionOf = moved ? new Int32Array(ids.length) : null;
  if (positionOf) ids.forEach((id, p) => (positionOf[id] = p));
  for (let k = 0; k < unchanged.length; k++) {
    const q = unchanged[k];
    docs.files[positionOf ? positionOf[q]! : q] = fileOf(k);
  }
  await loadSmallSets(workers, signal, before.search!);
}

/** What the merge did, for the summary line. */
export type CacheOutcome = Pick<MergeOutcome, 'unchanged' | 'updated' | 'added' | 'missing'> & { notRead: number };

/**
 * A scan merged into the cached corpus `before`: the scan runs whole (`notRead` files are in the
 * folder without being scanned: for the summary); its own result is then merged into the cached
 * corpus, the folder's listing (`listed`) deciding which cached files left. Returns the corpus to show
 * and what the merge did. `csvAhead`: the index thread builds the pairs CSV right after grouping (SearchOptions.csvAhead).
 */
export async function scanIntoCache(scan: ScanRun, workers: ScanWorkers, before: SavedCorpusPart, notRead: number, listed: readonly string[], csvAhead = false): Promise<{ grouped: ShownCorpus; outcome: CacheOutcome }> {
  const own = await plainScan(scan);
  // Storage ids after the cached ones (never NO_ID: the merge then treats them as saved, as the app's).
  const storageIds = new Uint32Array(own.result.docs.count) as StorageIds;
  for (let d = 0; d < storageIds.length; d++) storageIds[d] = before.result.docs.count + d;
  const r = own.result;
  const options = { settings: r.settings, k: r.k, similarityThreshold: r.similarityThreshold, grouping: r.grouping, containmentThreshold: r.containmentThreshold ?? 0, csvAhead };
  const outcome = await mergeCorpus(workers, scan.signal, before, { result: r, storageIds, search: own.corpus }, options, { whole: true, listed: sortedPaths(listed) });
  return { grouped: outcome.grouped, outcome: { unchanged: outcome.unchanged, updated: outcome.updated, added: outcome.added, missing: outcome.missing, notRead } };
}

/**
 * The cache of a finished scan: its documents in path order (position = stored id), each file's
 * identity (`identity` at `listedAt[d]`, none at -1), its verified pairs, and the feature-set sizes
 * its search corpus (`search`) knows. Null when a document never finished (the scan was not whole).
 */
export function cacheOfResult(dir: string, startedMs: number, result: ScanResult, identity: ListedIdentities, listedAt: Int32Array, search: SearchCorpus | null): ScanCache | null {
  const docs = result.docs;
  const n = docs.count;
  const corpus: LoadedCorpus = {
    count: n,
    ids: new Uint32Array(n),
    storedFlags: new Uint8Array(n),
    paths: docs.paths.slice(),
    // Copied whole; the fingerprint and the time are set per document below.
    ...concatDocColumns(['sizes', 'words', 'hashHi', 'hashLo'], [docs]),
    ...allocateDocColumns(['hi', 'lo', 'modified'], n),
    skipReasons: new Map(),
    setSizes: new Uint32Array(n),
    // Each document's sketch, a copy its representative's (search corpora fill representatives, not copies).
    sketches: new Uint16Array(n * SKETCH_BINS),
    documentCount: n,
    nextId: n,
    revision: 0,
  };
  const { setSizes, sketches } = corpus;
  const ctimeMs = new Float64Array(n);
  const ino = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    if (docs.status[d] === DocStatus.pending) return null;
    const at = listedAt[d];
    corpus.ids[d] = d;
    const hashed = docs.hashHi[d] !== 0 || docs.hashLo[d] !== 0;
    if (docs.status[d] === DocStatus.ok && !(docs.flags[d]! & DocFlag.invalidUtf8)) {
      // storedDocumentOf's mapping of a plain fingerprinted document, without a record per document.
      corpus.hi[d] = docs.hi[d]!;
      corpus.lo[d] = docs.lo[d]!;
      corpus.storedFlags[d] = hashed ? DOC_FLAG_HAS_CONTENT_HASH : 0;
    } else {
      // The app's own mapping of a scanned document to a stored one (status, skip reason, copies).
      const stored = storedDocumentOf(docs, d, d)!;
      if (stored.status === 'ok') {
        corpus.hi[d] = stored.hi;
        corpus.lo[d] = stored.lo;
      }
      corpus.storedFlags[d] =
        (stored.status === 'too-short' ? DOC_FLAG_TOO_SHORT : 0) | (stored.status === 'skipped' ? DOC_FLAG_SKIPPED : 0) | (stored.contentHash !== null ? DOC_FLAG_HAS_CONTENT_HASH : 0);
      if (stored.skipReason !== undefined) corpus.skipReasons.set(d, stored.skipReason);
    }
    corpus.modified![d] = at < 0 ? 0 : identity.mtimeMs[at];
    ctimeMs[d] = at < 0 ? 0 : identity.ctimeMs[at];
    ino[d] = at < 0 ? 0 : identity.ino[at];
    if (search) setSizes[d] = Math.max(0, setSizeOf(search, result.representative, d));
    const from = search?.sketches ? sketchSourceOf(search.sketches, result.representative, d) : -1;
    if (from >= 0) sketches.set(search!.sketches!.subarray(from * SKETCH_BINS, (from + 1) * SKETCH_BINS), d * SKETCH_BINS);
  }
  // Positions are the stored ids here, so the passages are kept as they are.
  const passages = result.passages ?? null;
  const groups = { table: result.relation.groups, identical: result.relation.identical };
  return { dir, startedMs, settings: result.settings, rule: FINGERPRINT_RULE, corpus, ctimeMs, ino, pairs: verifiedByStorageId(result, corpus.ids as StorageIds, -1 as StorageId), passages, groups, representative: result.representative };
}
