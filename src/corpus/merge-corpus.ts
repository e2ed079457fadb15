/**
 * The merge step: a scan's own result joined to the saved corpus it was scanned into. Only pairs with
 * a new member are searched for; every Jaccard known before (the saved verified pairs, and whatever the
 * saved corpus and the scan measured) is carried, and a document whose contents cannot be read is never
 * measured again (its new pairs stay unmeasured and are counted, never scored 0). Framework-free and
 * free of storage: it computes the merged result, the caller saves it.
 */
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { emptyKnown, searchDocs } from '../scan/near-duplicate-search.ts';
import { concatSets } from '../core/groups/packed-sets.ts';
import type { SearchCorpus } from '../scan/search-corpus.ts';
import { concatDocs, gatherDocs, indexInSorted, pathOrder, positionsIn } from '../scan/scan-docs.ts';
import { carriedHistogram, mergedCandidates } from './merge-candidates.ts';
import { savedClassesAt, savedGroupsAt, type SavedGrouped } from './merge-regroup.ts';
import type { GroupedCorpus, GroupingOptions } from './restore-corpus.ts';
import { docFile, type DocNote, type ScanDocs, type ScanResult, type SkippedFile } from '../scan/scan-result.ts';
import type { KnownPairs } from '../core/index/pair-list.ts';
import { NO_ID, type DocId, type StorageIds } from '../core/ids.ts';
import { mergedSets } from './merge-sets.ts';

/** A corpus on show: its result, each position's storage id, and the search state behind it when known. */
export interface CorpusPart {
  result: ScanResult;
  storageIds: StorageIds;
  /** Feature sets of small documents and every Jaccard measured so far (null: only `result.verified`). */
  search: SearchCorpus | null;
}

/** What the merge reads of the saved corpus's result: its documents and decided pairs, and its groups where kept (the untouched ones stand). */
export type SavedResult = Pick<ScanResult, 'docs' | 'representative' | 'verified' | 'histogram' | 'k' | 'similarityThreshold' | 'pinned' | 'skipped' | 'notes'> & SavedGrouped;

/** The saved corpus a merge joins: a part on show, or one restored without grouping (the CLI cache's). */
export type SavedCorpusPart = Omit<CorpusPart, 'result'> & { result: SavedResult };

/** What a merge produced. */
export interface MergeOutcome {
  merged: CorpusPart;
  grouped: GroupedCorpus;
  /** Candidate pairs with a new member that could not be measured: the saved member's contents are not kept. */
  unmeasured: number;
  /** New files whose path was saved already with the same contents: left out (never a copy of themselves). */
  unchanged: number;
  /** New files whose path was saved already with other contents: they replace the saved document. */
  updated: number;
  /** Their paths (in path order). */
  changed: string[];
  /** Paths of the new files whose path was not saved (in path order). */
  added: string[];
  /** With `sync`: saved documents (positions in `before`) and listed skips no longer in the chosen folder, by path order. */
  missing: { positions: DocId[]; paths: string[] };
}

/** A folder chosen again: its top-level names and every path its listing holds (documents and skips). */
export type FolderSync = { roots: ReadonlySet<string>; listed: ReadonlySet<string>; whole?: false };

/** The whole corpus is the one folder (the CLI's cache, whose paths are relative to DIR): any path not in `listed` (path order) left. */
export type WholeFolderSync = { whole: true; listed: readonly string[] };

/** The top-level folder of a path ('' for a bare file name, which no folder holds). */
export function rootOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** Whether `path` was under a chosen folder but is not in its listing now. */
function isMissing(sync: FolderSync | WholeFolderSync | undefined, path: string): boolean {
  if (!sync) return false;
  if (sync.whole) return indexInSorted(sync.listed, path) < 0;
  const root = rootOf(path);
  return root !== '' && sync.roots.has(root) && !sync.listed.has(path);
}

/**
 * Whether doc `i` of `a` and doc `j` of `b` hold the same contents: equal content hashes, or (files
 * without one: binary, empty, unreadable) both without a hash and of equal size. The batch writer and
 * the merge decide with this one rule, so storage and the shown corpus agree.
 */
export function sameContents(a: ScanDocs, i: number, b: ScanDocs, j: number): boolean {
  const hashedA = a.hashHi[i] !== 0 || a.hashLo[i] !== 0;
  const hashedB = b.hashHi[j] !== 0 || b.hashLo[j] !== 0;
  if (hashedA !== hashedB) return false;
  return hashedA ? a.hashHi[i] === b.hashHi[j] && a.hashLo[i] === b.hashLo[j] : a.sizes[i] === b.sizes[j];
}

/** Saved positions by path (the saved corpus never holds a path twice once merges update in place). */
export function positionsByPath(docs: ScanDocs): Map<string, DocId> {
  const at = new Map<string, DocId>();
  for (let p = 0; p < docs.count; p++) at.set(docs.paths[p]!, p as DocId);
  return at;
}

/**
 * The pairs a part knows a Jaccard for, at merged positions (`at`: -1 for a dropped document), sorted by
 * (a, b) without repeats: its search cache, then its verified pairs (the short-document join's pairs are
 * in them, not always in the cache). A mapping keeps order (saved and merged positions are both in path
 * order), so sorted sources stay sorted and the merge below is linear; a source out of order is sorted.
 */
function knownPairsOf(part: SavedCorpusPart, at: Int32Array): KnownPairs {
  const v = part.result.verified;
  const known = part.search?.known;
  const fromCache = known ? mappedPairs(known.a, known.b, known.jaccard, known.count, at) : emptyKnown();
  // Restored from saved pairs (the CLI's cache), the cache is the verified pairs: the first list would win every tie.
  if (known && known.a === v.a && known.b === v.b && known.count === v.count) return fromCache;
  return mergeKnown(fromCache, mappedPairs(v.a, v.b, v.jaccard, v.count, at));
}

/** Pairs [x, y] mapped through `at` (dropped where either side is -1), as (min, max), sorted by (a, b). */
function mappedPairs(xs: ArrayLike<number>, ys: ArrayLike<number>, js: ArrayLike<number>, count: number, at: Int32Array): KnownPairs {
  const out = { a: new Uint32Array(count), b: new Uint32Array(count), jaccard: new Float64Array(count), count: 0 };
  let sorted = true;
  for (let p = 0; p < count; p++) {
    const x = at[xs[p]!]!;
    const y = at[ys[p]!]!;
    if (x < 0 || y < 0) continue;
    const n = out.count++;
    out.a[n] = Math.min(x, y);
    out.b[n] = Math.max(x, y);
    out.jaccard[n] = js[p]!;
    if (n > 0 && (out.a[n - 1]! > out.a[n]! || (out.a[n - 1] === out.a[n] && out.b[n - 1]! > out.b[n]!))) sorted = false;
  }
  if (sorted) return out;
  // Stable, so the first of two rows for one pair stays first (and wins in mergeKnown).
  const order = Array.from({ length: out.count }, (_, i) => i).sort((i, j) => out.a[i]! - out.a[j]! || out.b[i]! - out.b[j]! || i - j);
  return { a: Uint32Array.from(order, (i) => out.a[i]!), b: Uint32Array.from(order, (i) => out.b[i]!), jaccard: Float64Array.from(order, (i) => out.jaccard[i]!), count: out.count };
}

/** Two sorted pair lists as one, sorted, each pair once (the first list's Jaccard wins a tie, as does a list's first row). */
function mergeKnown(x: KnownPairs, y: KnownPairs): KnownPairs {
  const cap = x.count + y.count;
  const out = { a: new Uint32Array(cap), b: new Uint32Array(cap), jaccard: new Float64Array(cap), count: 0 };
  let i = 0;
  let j = 0;
  while (i < x.count || j < y.count) {
    const fromX = j >= y.count || (i < x.count && (x.a[i]! < y.a[j]! || (x.a[i] === y.a[j] && x.b[i]! <= y.b[j]!)));
    const src = fromX ? x : y;
    const p = fromX ? i++ : j++;
    const n = out.count;
    if (n > 0 && out.a[n - 1] === src.a[p] && out.b[n - 1] === src.b[p]) continue;
    out.a[n] = src.a[p]!;
    out.b[n] = src.b[p]!;
    out.jaccard[n] = src.jaccard[p]!;
    out.count++;
  }
  // Without repeats (the usual case: the two lists know different pairs) the columns are whole: no copy.
  if (out.count === cap) return out;
  return { a: out.a.slice(0, out.count), b: out.b.slice(0, out.count), jaccard: out.jaccard.slice(0, out.count), count: out.count };
}

/** Which saved and which new documents the merged corpus holds, and what the person is told about it. */
interface Partition {
  keepSaved: number[];
  keepOwn: number[];
  unchanged: number;
  updated: number;
  changed: string[];
  added: string[];
  missing: MergeOutcome['missing'];
  /** Per saved document kept because a new file at its path has the same contents: that file's doc in `own` (else -1). */
  sameOwn: Int32Array;
  /** Saved positions read again with the same contents and another modification time: [position, time]. */
  retimed: [number, number][];
}

/**
 * Decides per path: a new path is added; a saved path with the same contents keeps the saved document,
 * with other contents the new one replaces it; with `sync`, saved paths the chosen folder no longer
 * lists leave.
 */
function partition(before: SavedCorpusPart, own: CorpusPart, sync: FolderSync | WholeFolderSync | undefined): Partition {
  const savedDocs = before.result.docs;
  const ownDocs = own.result.docs;
  const savedAt = positionsIn(ownDocs.paths, savedDocs.paths);
  const dropSaved = new Uint8Array(savedDocs.count);
  const keepOwn: number[] = [];
  const sameOwn = new Int32Array(savedDocs.count).fill(-1);
  let unchanged = 0;
  let updated = 0;
  const changed: string[] = [];
  const added: string[] = [];
  const retimed: [number, number][] = [];
  for (let d = 0; d < ownDocs.count; d++) {
    const q = savedAt[d];
    if (q < 0) {
      keepOwn.push(d);
      added.push(ownDocs.paths[d]!);
    } else if (before.storageIds[q] === NO_ID && own.storageIds[d] !== NO_ID) {
      // Shown but never saved (its batch did not fit in the storage): the new copy is the saved one.
      dropSaved[q] = 1;
      keepOwn.push(d);
    } else if (sameContents(savedDocs, q, ownDocs, d)) {
      unchanged++;
      sameOwn[q] = d;
      // The saved document stays; its time follows the file (touched, or saved without one).
      const time = ownDocs.modified?.[d] ?? 0;
      if (time > 0 && time !== (savedDocs.modified?.[q] ?? 0)) retimed.push([q, time]);
    } else {
      dropSaved[q] = 1;
      updated++;
      changed.push(ownDocs.paths[d]!);
      keepOwn.push(d);
    }
  }
  // A folder chosen again: what it no longer holds leaves the corpus (and is listed to the person).
  const missing: Partition['missing'] = { positions: [], paths: [] };
  const listedAt = sync?.whole ? positionsIn(savedDocs.paths, sync.listed) : null;
  for (let q = 0; q < savedDocs.count; q++) {
    if (dropSaved[q] || !(listedAt ? listedAt[q] < 0 : isMissing(sync, savedDocs.paths[q]!))) continue;
    dropSaved[q] = 1;
    missing.positions.push(q as DocId);
    missing.paths.push(savedDocs.paths[q]!);
  }
  const keepSaved: number[] = [];
  for (let q = 0; q < savedDocs.count; q++) if (!dropSaved[q]) keepSaved.push(q);
  return { keepSaved, keepOwn, unchanged, updated, changed, added, missing, sameOwn, retimed };
}

/**
 * A saved document kept for a new file of the same contents takes that file as its bytes: a saved
 * document whose contents were not kept could not be measured against a new one otherwise (its time
 * follows the file through `retimed`).
 */
function refreshFromOwn(joined: ScanDocs, keepSaved: readonly number[], sameOwn: Int32Array, ownDocs: ScanDocs): void {
  keepSaved.forEach((q, i) => {
    const d = sameOwn[q]!;
    if (d < 0) return;
    joined.files[i] = docFile(ownDocs, d);
    if (joined.ranges) joined.ranges[2 * i] = joined.ranges[2 * i + 1] = Number.NaN;
  });
}

/**
 * Merges `own` (a scan's result, positions after the saved ones) into `before` (the saved corpus) and
 * groups the union with `options`. A path saved already is updated in place: with the same contents
 * the new file is left out, with other contents it replaces the saved document. Candidates: every pair within k with a new member, plus the saved
 * corpus' pairs as they were decided (with their Jaccards); saved-vs-saved pairs are searched again only
 * when k or the threshold changed since they were decided (a regroup), and then measured only where
 * both contents can be read.
 */
export async function mergeCorpus(
  workers: ScanWorkers,
  signal: AbortSignal,
  before: SavedCorpusPart,
  own: CorpusPart,
  options: GroupingOptions,
  sync?: FolderSync | WholeFolderSync,
): Promise<MergeOutcome> {
  const t0 = performance.now();
  const savedDocs = before.result.docs;
  const ownDocs = own.result.docs;
  const { keepSaved, keepOwn, unchanged, updated, changed, added, missing, sameOwn, retimed } = partition(before, own, sync);
  // Merged positions in path order (see scan-docs.ts pathOrder): saved and new documents interleave.
  const joined = concatDocs(gatherDocs(savedDocs, keepSaved), gatherDocs(ownDocs, keepOwn));
  refreshFromOwn(joined, keepSaved, sameOwn, ownDocs);
  const order = pathOrder(joined.paths);
  const docs = gatherDocs(joined, order);
  const positionOf = new Int32Array(order.length);
  order.forEach((j, i) => (positionOf[j] = i));
  const offset = keepSaved.length;
  const savedTo = new Int32Array(savedDocs.count).fill(-1);
  keepSaved.forEach((q, i) => (savedTo[q] = positionOf[i]!));
  const ownTo = new Int32Array(ownDocs.count).fill(-1);
  keepOwn.forEach((d, i) => (ownTo[d] = positionOf[offset + i]!));
  /**
   * Per merged position: 1 for a saved document that was its text's representative (its pairs with other
   * such documents were decided before). A saved copy whose original left (removed, or replaced by a new
   * version) stands for its text now: its pairs were never searched, so they are searched like a new file's.
   */
  if (retimed.length > 0) {
    docs.modified ??= new Float64Array(docs.count);
    for (const [q, time] of retimed) docs.modified[savedTo[q]!] = time;
  }
  const wasSaved = new Uint8Array(docs.count);
  const storageIds = new Uint32Array(docs.count) as StorageIds;
  keepSaved.forEach((q) => {
    storageIds[savedTo[q]!] = before.storageIds[q]!;
    if (before.result.representative[q] === q) wasSaved[savedTo[q]!] = 1;
  });
  keepOwn.forEach((d) => (storageIds[ownTo[d]!] = own.storageIds[d]!));
  const skipped: SkippedFile[] = [];
  // Files skipped while listing have no doc: a folder chosen again lists them again, once is enough.
  const listed = new Set<string>();
  for (const [part, to] of [[before, savedTo], [own, ownTo]] as const) {
    for (const s of part.result.skipped) {
      if (s.docId < 0) {
        if (part === before && isMissing(sync, s.path)) {
          missing.paths.push(s.path);
          continue;
        }
        if (!listed.has(s.path)) skipped.push(s);
        listed.add(s.path);
      } else if (to[s.docId]! >= 0) skipped.push({ ...s, docId: to[s.docId]! });
    }
  }
  skipped.sort((x, y) => (x.docId < 0 || y.docId < 0 ? 0 : x.docId - y.docId));
  missing.paths.sort();
  const notes: DocNote[] = [];
  for (const [part, to] of [[before, savedTo], [own, ownTo]] as const) {
    for (const n of part.result.notes) if (to[n.docId]! >= 0) notes.push({ ...n, docId: to[n.docId]! });
  }
  const known = mergeKnown(knownPairsOf(before, savedTo), knownPairsOf(own, ownTo));

  const { parts, keptSets, passages, setSizes, sketches } = mergedSets({ search: before.search, representative: before.result.representative }, { search: own.search, representative: own.result.representative }, savedTo, ownTo, sameOwn, docs.count, options.settings);
  // Saved-vs-saved candidates were all decided under the same k and threshold: the accepted ones are
  // in `known`, the others were rejected (or could not be measured) and stay so.
  const decided = before.result.k === options.k && before.result.similarityThreshold === options.similarityThreshold;
  // The references a person chose in the saved corpus stay references.
  const pinned = (options.pinned ?? before.result.pinned).flatMap((q) => (savedTo[q]! >= 0 ? [savedTo[q]! as DocId] : []));
  // Saved pairs decided at this k and threshold are carried: only pairs with a new member are searched
  // (each new document compared with every other when that is cheaper than a search of all pairs), and
  // the histogram of all candidates is carried (merge-candidates.ts carriedHistogram).
  const carry = decided && before.search !== null && before.result.histogram.length === options.k + 1;
  const queries = carry ? wasSaved.map((saved) => 1 - saved) : undefined;
  const found = await searchDocs(workers, signal, docs, options.settings, concatSets(parts), {
    ...options,
    ...(queries ? { queries } : {}),
    pinned,
    known,
    keptSets,
    ...(setSizes ? { setSizes } : {}),
    ...(sketches ? { sketches } : {}),
    passages,
    previous: savedGroupsAt(before, savedTo, ownTo, docs.count, options, carry),
    classes: savedClassesAt(before, savedTo, docs.count),
    candidates: (search) => {
      // Decided saved-vs-saved pairs are only the accepted ones: a regroup at a lower threshold searches again.
      const candidates = { ...mergedCandidates(search, before, savedTo, wasSaved, decided, options.k), ...(decided ? { acceptedAt: options.similarityThreshold } : {}) };
      return { candidates: carry ? { ...candidates, histogram: carriedHistogram(before, savedTo, search, options.k) } : candidates, known };
    },
  });
  const { candidates } = found;
  // The carried histogram counts the saved corpus's rejected candidates too, which were not checked again.
  const decidedBefore = carry ? Math.max(0, candidates.histogram.reduce((n, c) => n + c, 0) - candidates.pairs.count) : 0;
  if (decidedBefore > 0) found.near.verification = { ...found.near.verification, decidedBefore };
  let unmeasured = 0;
  for (let p = 0; p < candidates.pairs.count; p++) if (Number.isNaN(candidates.jaccard[p]!)) unmeasured++;
  const result: ScanResult = {
    settings: options.settings,
    ...found.near,
    docs: found.docs,
    skipped,
    notes,
    representative: found.representative,
    exactGroups: found.exactGroups,
    partial: false,
    timings: { ...own.result.timings, indexingMs: found.indexingMs, groupingMs: found.groupingMs, totalMs: own.result.timings.totalMs + (performance.now() - t0) },
  };
  return { merged: { result, storageIds, search: found.corpus }, grouped: { result, corpus: found.corpus, candidates }, unmeasured, unchanged, updated, changed: changed.sort(), added: added.sort(), missing };
}
