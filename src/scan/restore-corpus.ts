/**
 * Turns stored or merged documents back into a full ScanResult: the restored corpus as the scan's
 * per-document arrays (with the stored contents as Files), and the near-duplicate stage of the pipeline
 * (exact groups, candidates, verification, grouping) run over them without fingerprinting anything again.
 */
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { getAllContentBatches, type LoadedCorpus, type NewDocument } from '../storage/corpus-repository.ts';
import { DOC_FLAG_SKIPPED, DOC_FLAG_TOO_SHORT } from '../storage/corpus-columns.ts';
import { forEachContent } from '../storage/content-batches.ts';
import { SMALL_SET_WORDS } from '../workers/ingest-protocol.ts';
import { DocFlag, DocStatus, EXTRACTION_STATUS, invalidUtf8Message, skipMessage, tooShortMessage, type SkipReason } from '../core/documents/document-status.ts';
import type { ExtractionSkip } from '../core/text/documents/extraction.ts';
import type { IngestItem, PackedSets } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { concatSets, decideNearDuplicates, emptyKnown } from './near-duplicate-search.ts';
import type { Candidates, SearchCorpus } from './near-duplicate-search.ts';
import type { KnownPairs } from '../workers/index-api.ts';
import type { VerifiedPairs } from '../storage/verified-pairs.ts';
import { docFile, noContents, type DocNote, type Grouping, type ScanDocs, type ScanResult, type SkippedFile } from './scan-result.ts';

const STATUS_FROM_REASON: Record<string, number> = {
  copy: DocStatus.copy,
  binary: DocStatus.binary,
  empty: DocStatus.empty,
  unreadable: DocStatus.unreadable,
  ...EXTRACTION_STATUS,
};

/**
 * The stored "skip reason" of a compared document whose invalid UTF-8 was replaced: not a skip, a note
 * (the document's status stays ok), kept so that the note survives a reload (without its byte count).
 */
export const INVALID_UTF8_NOTE = 'invalid-utf8';

/** Up to this many documents, the stored contents are read back as Files on restore (more would hold too many handles). */
export const RESTORE_FILES_LIMIT = 100_000;

/** The restored corpus as the scan's document arrays (position = index in ascending storage id). */
export function docsFromCorpus(c: LoadedCorpus, files: Blob[], ranges?: Float64Array): ScanDocs {
  const status = new Uint8Array(c.count);
  const flags = new Uint8Array(c.count);
  for (const [p, reason] of c.skipReasons) if (reason === INVALID_UTF8_NOTE) flags[p] = DocFlag.invalidUtf8;
  for (let p = 0; p < c.count; p++) {
    const f = c.flags[p]!;
    if (f & DOC_FLAG_TOO_SHORT) status[p] = DocStatus.tooShort;
    else if (f & DOC_FLAG_SKIPPED) status[p] = STATUS_FROM_REASON[c.skipReasons.get(p) ?? 'binary'] ?? DocStatus.binary;
    else status[p] = DocStatus.ok;
  }
  return {
    count: c.count,
    paths: c.paths,
    files,
    ...(ranges ? { ranges } : {}),
    sizes: c.sizes,
    status,
    flags,
    hi: c.hi,
    lo: c.lo,
    words: c.words,
    hashHi: c.hashHi,
    hashLo: c.hashLo,
  };
}

/** Restored documents' files: `ranges` (see ScanDocs) where an entry is a stored batch's Blob. */
export interface RestoredFiles {
  files: Blob[];
  ranges?: Float64Array;
}

/**
 * Files for the restored documents: each one's batch's stored Blob with its byte range (so the pair
 * view and verification can read it through `docFile`), or the shared `noContents()` File where the
 * contents were not kept (size 0: views ask for the file again). No Blob is made per document here
 * (see ScanDocs.ranges): a reload of 20,000 documents spent 12 s more making them than before.
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

/** Two document sets, a then b (b's doc ids shift by a.count). */
export function concatDocs(a: ScanDocs, b: ScanDocs): ScanDocs {
  const cat = <T extends Float64Array | Uint8Array | Uint32Array>(x: T, y: T, make: new (n: number) => T): T => {
    const out = new make(x.length + y.length);
    out.set(x, 0);
    out.set(y, x.length);
    return out;
  };
  return {
    count: a.count + b.count,
    paths: [...a.paths, ...b.paths],
    files: [...a.files, ...b.files],
    ...(a.ranges || b.ranges ? { ranges: catRanges(a, b) } : {}),
    sizes: cat(a.sizes, b.sizes, Float64Array),
    status: cat(a.status, b.status, Uint8Array),
    flags: cat(a.flags, b.flags, Uint8Array),
    hi: cat(a.hi, b.hi, Uint32Array),
    lo: cat(a.lo, b.lo, Uint32Array),
    words: cat(a.words, b.words, Uint32Array),
    hashHi: cat(a.hashHi, b.hashHi, Uint32Array),
    hashLo: cat(a.hashLo, b.hashLo, Uint32Array),
  };
}

/** The ranges of a then b (NaN, a whole file, for a part without ranges). */
function catRanges(a: ScanDocs, b: ScanDocs): Float64Array {
  const out = new Float64Array(2 * (a.count + b.count)).fill(Number.NaN);
  if (a.ranges) out.set(a.ranges, 0);
  if (b.ranges) out.set(b.ranges, 2 * a.count);
  return out;
}

/** What a restore is doing, for the corpus panel (a search over a big corpus takes minutes). */
export type RestorePhase = 'loading the corpus' | 'reading short documents' | 'searching near-duplicates' | 'verifying and grouping' | 'grouping saved pairs';

/** The grouping parameters of a result. */
export interface GroupingOptions {
  settings: SimHashSettings;
  k: number;
  similarityThreshold: number;
  grouping: Grouping;
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
    const items: IngestItem[] = ids.map((d) => ({ name: docs.paths[d]!, file: docFile(docs, d) }));
    tasks.push(
      workers.ingest
        .run(signal, (api) => api.ingestBatch(items, settings, {}))
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
 * Runs the pipeline's near-duplicate stage over `docs`, whose fingerprints are given: exact groups and
 * candidates within k (index worker), exact Jaccard of the candidates not in `known` (the ingest
 * workers re-read those files), grouping. With the verified pairs saved by the last grouping as
 * `known`, a restore reads no file to verify them (see verified-pairs.ts). Nothing is fingerprinted again.
 */
export async function groupDocs(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  skipped: SkippedFile[],
  options: GroupingOptions,
  known: KnownPairs = emptyKnown(),
  onPhase?: (phase: RestorePhase) => void,
): Promise<GroupedCorpus> {
  const t0 = performance.now();
  onPhase?.('reading short documents');
  const smallSets = await smallSetsOf(workers, signal, docs, options.settings);
  const t1 = performance.now();
  onPhase?.('searching near-duplicates');
  const found = await workers.index.call(signal, (api) =>
    api.findDuplicates({
      status: docs.status.slice(),
      hi: docs.hi.slice(),
      lo: docs.lo.slice(),
      words: docs.words.slice(),
      hashHi: docs.hashHi,
      hashLo: docs.hashLo,
      k: options.k,
      known,
    }),
  );
  const t2 = performance.now();
  const resolved: ScanDocs = { ...docs, status: found.status, hi: found.hi, lo: found.lo, words: found.words };
  const corpus: SearchCorpus = { docs: resolved, settings: options.settings, reps: found.reps, representative: found.representative, smallSets, known };
  const candidates: Candidates = { k: options.k, pairs: found.candidates, jaccard: found.jaccard, histogram: found.histogram };
  onPhase?.('verifying and grouping');
  const near = await decideNearDuplicates(workers, signal, corpus, candidates, options);
  const t3 = performance.now();
  const result: ScanResult = {
    settings: options.settings,
    ...near,
    docs: resolved,
    skipped,
    // Notes (invalid UTF-8 replaced...) are not saved with the corpus.
    notes: [],
    representative: found.representative,
    exactGroups: found.exactGroups,
    partial: false,
    timings: { readingMs: t1 - t0, fingerprintingMs: 0, indexingMs: t2 - t1, groupingMs: t3 - t2, totalMs: t3 - t0 },
  };
  return { result, corpus, candidates };
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
export function verifiedByStorageId(result: ScanResult, storageIds: Uint32Array, missing: number): VerifiedPairs {
  const v = result.verified;
  const a: number[] = [];
  const b: number[] = [];
  const d: number[] = [];
  const j: number[] = [];
  for (let p = 0; p < v.count; p++) {
    const ia = storageIds[v.a[p]!]!;
    const ib = storageIds[v.b[p]!]!;
    if (ia === missing || ib === missing) continue;
    a.push(Math.min(ia, ib));
    b.push(Math.max(ia, ib));
    d.push(v.distance[p]!);
    j.push(v.jaccard[p]!);
  }
  return {
    k: result.k,
    threshold: result.similarityThreshold,
    grouping: result.grouping,
    a: Uint32Array.from(a),
    b: Uint32Array.from(b),
    distance: Uint8Array.from(d),
    jaccard: Float32Array.from(j),
    histogram: result.histogram.slice(),
    count: a.length,
  };
}

/** Saved pairs over restored positions, sorted by (a, b), with exact-verdict Jaccards (see below). */
export interface PositionPairs {
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
  jaccard: Float64Array;
  count: number;
}

/**
 * Saved verified pairs over restored positions (`ids` = stored id per position, ascending); each member
 * is replaced by `representative[position]` when given (copies share their text). Float32 values are
 * lifted to the threshold they were verified at, so a pair verified exactly at the threshold keeps its
 * verdict when the threshold is unchanged.
 */
export function pairsAtPositions(saved: VerifiedPairs, ids: Uint32Array, threshold: number, representative?: Int32Array): PositionPairs {
  const at = (id: number): number => {
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] === id) return representative ? representative[mid]! : mid;
      if (ids[mid]! < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
  const rows: [number, number, number, number][] = [];
  for (let p = 0; p < saved.count; p++) {
    const a = at(saved.a[p]!);
    const b = at(saved.b[p]!);
    if (a < 0 || b < 0 || a === b) continue;
    const j = saved.threshold === threshold ? Math.max(saved.jaccard[p]!, threshold) : saved.jaccard[p]!;
    rows.push([Math.min(a, b), Math.max(a, b), saved.distance[p]!, j]);
  }
  rows.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: [number, number, number, number][] = [];
  for (const r of rows) if (out.length === 0 || out[out.length - 1]![0] !== r[0] || out[out.length - 1]![1] !== r[1]) out.push(r);
  return {
    a: Uint32Array.from(out, (r) => r[0]),
    b: Uint32Array.from(out, (r) => r[1]),
    distance: Uint8Array.from(out, (r) => r[2]),
    jaccard: Float64Array.from(out, (r) => r[3]),
    count: out.length,
  };
}

/**
 * The fast restore: when the saved pairs were decided with the current k, threshold and grouping, the
 * candidate search is skipped (the index worker groups exact duplicates only, k = 0) and the saved
 * pairs are the candidates, every Jaccard known: no file is read and no fingerprint compared.
 */
export async function groupFromSavedPairs(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  skipped: SkippedFile[],
  options: GroupingOptions,
  saved: VerifiedPairs,
  ids: Uint32Array,
): Promise<GroupedCorpus> {
  const t0 = performance.now();
  const found = await workers.index.call(signal, (api) =>
    api.findDuplicates({ status: docs.status.slice(), hi: docs.hi.slice(), lo: docs.lo.slice(), words: docs.words.slice(), hashHi: docs.hashHi, hashLo: docs.hashLo, k: 0 }),
  );
  const t1 = performance.now();
  const resolved: ScanDocs = { ...docs, status: found.status, hi: found.hi, lo: found.lo, words: found.words };
  const pairs = pairsAtPositions(saved, ids, options.similarityThreshold, found.representative);
  // The saved Jaccards also seed the cache a later regroup looks up (pairs are sorted by (a, b)).
  // smallSets stay empty here (no file is read): the caller fills them in with `loadSmallSets`.
  const known: KnownPairs = { a: pairs.a, b: pairs.b, jaccard: pairs.jaccard, count: pairs.count };
  const corpus: SearchCorpus = { docs: resolved, settings: options.settings, reps: found.reps, representative: found.representative, smallSets: concatSets([]), known };
  const candidates: Candidates = { k: options.k, pairs: { a: pairs.a, b: pairs.b, distance: pairs.distance, count: pairs.count }, jaccard: pairs.jaccard, histogram: saved.histogram };
  const near = await decideNearDuplicates(workers, signal, corpus, candidates, options);
  const t2 = performance.now();
  const result: ScanResult = {
    settings: options.settings,
    ...near,
    docs: resolved,
    skipped,
    // Notes (invalid UTF-8 replaced...) are not saved with the corpus.
    notes: [],
    representative: found.representative,
    exactGroups: found.exactGroups,
    partial: false,
    timings: { readingMs: 0, fingerprintingMs: 0, indexingMs: t1 - t0, groupingMs: t2 - t1, totalMs: t2 - t0 },
  };
  return { result, corpus, candidates };
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

/**
 * The scan's doc `d` as a stored document with id `id`, or null when it never finished (pending).
 * Copies are stored as skipped with reason 'copy': their fingerprint is their original's, resolved by
 * content hash when the corpus is grouped (docsFromCorpus maps the reason back to DocStatus.copy).
 */
export function storedDocumentOf(docs: ScanDocs, d: number, id: number): NewDocument | null {
  const status = docs.status[d]!;
  if (status === DocStatus.pending) return null;
  const hashed = docs.hashHi[d] !== 0 || docs.hashLo[d] !== 0;
  const base: NewDocument = {
    id,
    path: docs.paths[d]!.replaceAll('\0', ''),
    size: docs.sizes[d]!,
    // Not File.lastModified: for a File from a folder input Chromium fetches it with a synchronous
    // IPC on the main thread (measured: 150 us per file, 3 s of a 20,000-file scan's main thread),
    // and nothing reads it back. 0 means "not recorded".
    lastModified: 0,
    contentHash: hashed ? hex8(docs.hashHi[d]!) + hex8(docs.hashLo[d]!) : null,
    status: 'ok',
    hi: docs.hi[d]!,
    lo: docs.lo[d]!,
    words: docs.words[d]!,
    features: 0,
  };
  if (status === DocStatus.ok) {
    return docs.flags[d]! & DocFlag.invalidUtf8 ? { ...base, skipReason: INVALID_UTF8_NOTE, skipMessage: invalidUtf8Message() } : base;
  }
  if (status === DocStatus.tooShort) return { ...base, status: 'too-short', skipReason: 'too-short', skipMessage: tooShortMessage(docs.words[d]!) };
  // A copy's fingerprint is its original's, resolved by content hash when the corpus is grouped.
  const extraction = (Object.keys(EXTRACTION_STATUS) as ExtractionSkip[]).find((r) => EXTRACTION_STATUS[r] === status);
  const reason = status === DocStatus.copy ? 'copy' : extraction ?? (status === DocStatus.binary ? 'binary' : status === DocStatus.empty ? 'empty' : 'unreadable');
  return { ...base, status: 'skipped', skipReason: reason, skipMessage: reason === 'copy' ? 'Same text as another file.' : skipMessage(reason) };
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** The saved corpus grouped for display: what `groupSavedCorpus` returns. */
export interface RestoredCorpus {
  grouped: GroupedCorpus;
  /** Storage id per position (ascending). */
  storageIds: Uint32Array;
  /** True when the saved pairs stood for the search (no file read): the small sets come later (loadSmallSets). */
  fast: boolean;
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
): Promise<RestoredCorpus> {
  const docs = docsFromCorpus(loaded, files.files, files.ranges);
  const skipped: SkippedFile[] = [];
  const notes: DocNote[] = [];
  for (const [p, reason] of loaded.skipReasons) {
    if (reason === 'copy') continue;
    if (reason === INVALID_UTF8_NOTE) {
      notes.push({ docId: p, path: docs.paths[p]!, message: invalidUtf8Message() });
      continue;
    }
    skipped.push({ docId: p, path: docs.paths[p]!, size: docs.sizes[p]!, reason: reason as SkipReason, message: skipMessage(reason as SkipReason) });
  }
  // Files the scans listed but never stored (hidden files...): skipped as after the scan, each path once.
  const listed = new Set(docs.paths);
  for (const [path, reason, message] of notSaved) {
    if (listed.has(path)) continue;
    listed.add(path);
    skipped.push({ docId: -1, path, size: 0, reason: reason as SkipReason, message });
  }
  const withNotes = (grouped: GroupedCorpus): GroupedCorpus => ({ ...grouped, result: { ...grouped.result, notes } });
  if (saved && savedPairsFit(saved, options)) {
    onPhase?.('grouping saved pairs');
    const grouped = await groupFromSavedPairs(workers, signal, docs, skipped, options, saved, loaded.ids);
    return { grouped: withNotes(grouped), storageIds: loaded.ids, fast: true };
  }
  const knownFrom = saved ?? carried;
  const known = knownFrom ? pairsAtPositions(knownFrom, loaded.ids, options.similarityThreshold) : undefined;
  return { grouped: withNotes(await groupDocs(workers, signal, docs, skipped, options, known, onPhase)), storageIds: loaded.ids, fast: false };
}
