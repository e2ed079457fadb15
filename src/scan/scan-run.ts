/**
 * One scan as the stages its owner calls in order: list, check, begin, read (the batches as an async
 * iterable), search. The scan never calls its owner: the owner (the saved corpus, the CLI's cache, or
 * `plainScan`) decides between the stages what to store and hands the scan what it needs as values.
 */
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { CollectedFiles } from './collect-files.ts';
import { checksOneByOne, collectSource, type ScanSource } from './scan-source.ts';
import type { DocNote, Grouping, ScanDocs, ScanResult, SkippedFile } from './scan-result.ts';
import { allocateSpilledSets, concatSets, type SpilledSets } from '../core/groups/packed-sets.ts';
import { searchDocs, shortCopiesSkipped } from './near-duplicate-search.ts';
import type { Candidates, SearchCorpus } from './search-corpus.ts';
import { installDocumentFrequencies } from './document-frequency-pass.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DEFAULT_K } from '../core/quality/defaults.ts';
import type { ScanStore } from './scan-store.ts';
import { openHandlesInWorkers } from './handle-source.ts';
import { recordPhase } from './phase-timing.ts';
import { allocateDocs, ingestAll, type IngestOutput, type ScanBatch, type ScanMeter } from './scan-ingest.ts';
import { quickCheck, type UnchangedFiles, type UnchangedTest } from './quick-check.ts';
import { leaveOutExcluded, pathsNotExcluded } from './scan-exclusions.ts';
import { NO_EXCLUSIONS, type Exclusions } from '../core/documents/exclusions.ts';
import { SKETCH_BINS } from '../core/groups/minhash-sketch.ts';

export type { ScanBatch } from './scan-ingest.ts';

/** A result on show and the search state behind it. */
export interface ShownCorpus {
  result: ScanResult;
  corpus: SearchCorpus;
  candidates: Candidates;
}

/** What `begin` allocated: the scan's documents and what its owner needs to know before any is read. */
export interface ScanStart {
  /** The file list (docs allocated, nothing read yet). */
  docs: ScanDocs;
  /** The files skipped while listing (hidden, unreadable folders), which have no doc. */
  listed: readonly SkippedFile[];
  /**
   * The person chose a folder, so the saved corpus follows it (its saved files missing from this listing
   * leave): true, or the folder's whole listing when this scan reads only part of it. False: no sync.
   */
  sync: boolean | readonly string[];
  /** Listed files the quick check left out (the saved corpus holds them as they are). */
  notRead: UnchangedFiles | undefined;
}

/** One scan's stages, called in this order by its owner (each at most once). */
export interface ScanRun {
  readonly source: ScanSource;
  readonly settings: SimHashSettings;
  readonly signal: AbortSignal;
  /**
   * Lists the files (walking dropped folders; handles handed to every ingest worker); `withStats`: a
   * quick check follows, so through handles the walk takes each file's size and time too.
   */
  list(withStats?: boolean): Promise<void>;
  /**
   * Leaves out the files `exclusions` match, then (the quick check) those `unchanged` says the saved
   * corpus holds at the same path, size and time. Null: read every file.
   */
  check(exclusions: Exclusions, unchanged: UnchangedTest | null): Promise<void>;
  /** Allocates the documents; k becomes the default (DEFAULT_K) unless the person set one. */
  begin(): ScanStart;
  /** Reads and fingerprints every file: each batch as it finishes, its bytes too with `keepBytes`. */
  read(keepBytes: boolean): AsyncIterable<ScanBatch>;
  /** Searches, verifies and groups the scan's own documents (small feature sets, every Jaccard measured). */
  search(): Promise<ShownCorpus>;
}

/**
 * What a session's owner does with a scan: calls its stages and returns the result to show (the scan's
 * own, or merged with a saved corpus), with the search state behind it so a later regroup works on it.
 */
export type ScanStage = (scan: ScanRun) => Promise<ShownCorpus>;

/** A scan nobody saves: every stage, nothing left out. */
export async function plainScan(scan: ScanRun): Promise<ShownCorpus> {
  await scan.list();
  await scan.check(NO_EXCLUSIONS, null);
  scan.begin();
  // Nobody keeps the batches: they are only read through.
  for await (const _ of scan.read(false));
  return scan.search();
}

/** The batches `produce` hands out, as an async iterable: those that came are given before its failure. */
export async function* streamed(produce: (push: (batch: ScanBatch) => void) => Promise<void>): AsyncGenerator<ScanBatch> {
  const queue: ScanBatch[] = [];
  let wake: (() => void) | null = null;
  let ended: { error: unknown } | null | undefined;
  const push = (batch: ScanBatch) => void (queue.push(batch), wake?.());
  produce(push).then(
    () => void ((ended = null), wake?.()),
    (error: unknown) => void ((ended = { error }), wake?.()),
  );
  for (;;) {
    for (let i = 0; i < queue.length; i++) yield queue[i]!;
    queue.length = 0;
    if (ended === null) return;
    if (ended) throw ended.error;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
}

/** What a run works with and fills: the session's store and workers, the scan's meter and partial output. */
export interface RunParts {
  store: ScanStore;
  workers: ScanWorkers;
  source: ScanSource;
  settings: SimHashSettings;
  signal: AbortSignal;
  meter: ScanMeter;
  t0: number;
  /** k, as the store had it when the scan started; `begin` may set it by corpus size. */
  k: number;
  kAuto: boolean;
  /** The grouping values as the store had them when the scan started (a regroup meanwhile is for the next). */
  similarityThreshold: number;
  containmentThreshold: number;
  grouping: Grouping;
  ingested: IngestOutput;
  skipped: SkippedFile[];
  notes: DocNote[];
  timings: { readingMs: number; fingerprintingMs: number; indexingMs: number; groupingMs: number; totalMs: number };
  /** The documents so far (for a partial result), set by `begin` and `search`. */
  docs: ScanDocs | null;
  /** When the search ended (the owner's part of the scan starts there). */
  tEnd: number;
  /** Keeps the files listed as the session's (for a rescan). */
  listed(listing: CollectedFiles): void;
  /** Takes the scan's own search as the session's (regroups work on it) once `search` ends. */
  searched(own: ShownCorpus): void;
  /** The search ended and the owner saves it (the phase shown). */
  saving: boolean;
}

/** The stages of the scan `p` describes; `p` holds what they found (the session reads it when the scan ends). */
export function createScanRun(p: RunParts): ScanRun {
  const { workers, source, settings, signal, meter: m, t0, ingested, skipped, notes, timings } = p;
  let listed: Awaited<ReturnType<typeof collectSource>> | null = null;
  let handleToken: string | null = null;
  let checked: { listing: CollectedFiles; exclusions: Exclusions; check: Awaited<ReturnType<typeof quickCheck>> } | null = null;
  let scanDocs: ScanDocs | null = null;
  return {
    source,
    settings,
    signal,
    async list(withStats = false) {
      m.setPhase('listing');
      listed = await collectSource(workers, source, signal, withStats);
      signal.throwIfAborted();
      handleToken = listed.collected.roots ? await openHandlesInWorkers(workers, listed.collected.roots, signal) : null;
    },
    async check(given, unchanged) {
      // A listing already chosen (a rescan of the corpus's own files, the CLI) is taken as it is.
      const exclusions = source.kind === 'collected' ? NO_EXCLUSIONS : given;
      const { listing, excluded } = await leaveOutExcluded(workers, listed!.collected, exclusions, handleToken, signal);
      const tCheck = performance.now();
      const oneByOne = checksOneByOne(source);
      const check = await quickCheck(workers, listing, handleToken, unchanged, signal, (done, total) => m.checked(done, total, oneByOne), listed!.stats);
      m.leftOut(excluded, check.unchanged);
      recordPhase('quick-check', tCheck, performance.now(), { unchanged: check.unchanged });
      recordPhase('listing', t0, performance.now(), { files: listing.paths.length, leftOut: listing.hidden.length, excluded, handles: handleToken === null ? 0 : 1, unchanged: check.unchanged });
      checked = { listing, exclusions, check };
    },
    begin() {
      const { listing, exclusions, check } = checked!;
      const collected = check.toRead;
      p.listed(listing);
      skipped.push(...collected.hidden, ...listed!.unreadable);
      m.filesTotal = collected.files.length;
      m.filesListedOnly = collected.hidden.length + listed!.unreadable.length;
      // A corpus saved when the default followed its size may hold another k.
      if (p.kAuto && p.k !== DEFAULT_K) {
        p.k = DEFAULT_K;
        p.store.update({ k: p.k });
      }
      scanDocs = allocateDocs(collected);
      p.docs = scanDocs;
      ingested.keptSets = new Array<Uint32Array | undefined>(scanDocs.count);
      if (workers.spillSets) ingested.spilled = allocateSpilledSets(scanDocs.count);
      ingested.sketches = new Uint16Array(scanDocs.count * SKETCH_BINS);
      ingested.setSizes = new Uint32Array(scanDocs.count);
      if (check.stats) scanDocs.modified!.set(check.stats.modified);
      const folderPaths = (source.kind === 'file-list' && source.folderPaths && pathsNotExcluded(source.folderPaths, exclusions)) || (check.unchanged > 0 ? listing.paths : null);
      const sync = 'sync' in source && source.sync === true && (folderPaths ?? true);
      return { docs: scanDocs, listed: skipped.slice(), sync, notRead: 'left' in check ? check.left : undefined };
    },
    read(keepBytes) {
      return streamed(async (onBatch) => {
        signal.throwIfAborted();
        const docs = scanDocs!;
        if (settings.weights === 'tfidf') {
          // TF-IDF needs the corpus' document frequencies before any fingerprint: a first reading pass.
          await installDocumentFrequencies(workers, signal, docs, settings, (bytes) => m.inflightBytes.set(-1, bytes / 2), handleToken);
          m.inflightBytes.delete(-1);
          signal.throwIfAborted();
        }
        m.fingerprintStart = performance.now();
        m.setPhase('reading');
        // Once every file is read (or sent to a worker), fingerprinting is what remains.
        const onSent = () => void ((timings.readingMs = performance.now() - t0), m.setPhase('fingerprinting'));
        const modified = checked!.check.stats?.modified;
        const passages = p.containmentThreshold > 0;
        await ingestAll({ workers, signal, settings, keepBytes, onBatch, scanDocs: docs, handleToken, meter: m, skipped, notes, onSent, passages, ...(modified ? { modified } : {}) }, ingested);
        signal.throwIfAborted();
      });
    },
    search: () => searchOwn(p, scanDocs!),
  };
}

/** How many sets were spilled and their bytes (the phase record's counts). */
function spilledCounts(spilled: SpilledSets): { spilledSets: number; spilledSetBytes: number } {
  let sets = 0;
  let bytes = 0;
  for (let d = 0; d < spilled.fd.length; d++) if (spilled.fd[d] !== 0) (sets++, (bytes += 4 * spilled.words[d]));
  return { spilledSets: sets, spilledSetBytes: bytes };
}

/** The scan's own search, verification and grouping, off the main thread (the `search` stage). */
async function searchOwn(p: RunParts, scanDocs: ScanDocs): Promise<ShownCorpus> {
  const { workers, source, settings, signal, meter: m, t0, ingested, skipped, notes, timings } = p;
  timings.fingerprintingMs = performance.now() - t0 - timings.readingMs;
  recordPhase('reading', t0, t0 + timings.readingMs, { files: m.filesTotal, bytes: m.bytesRead });
  const kept = { keptSets: ingested.keptSets.reduce((n) => n + 1, 0), keptSetBytes: ingested.keptBytes, ...(ingested.spilled ? spilledCounts(ingested.spilled) : {}) };
  recordPhase('fingerprinting', t0 + timings.readingMs, t0 + timings.readingMs + timings.fingerprintingMs, kept);

  // Indexing (exact groups, candidates within k), verification and grouping, off the main thread.
  const tIndex = performance.now();
  m.setPhase('indexing');
  const { similarityThreshold, containmentThreshold, grouping } = p;
  const sets = concatSets(ingested.smallSets);
  ingested.smallSets = [];
  const external = source.kind === 'collected' ? source.pairs : undefined;
  const options = {
    k: p.k,
    similarityThreshold,
    containmentThreshold,
    grouping,
    keptSets: ingested.keptSets,
    ...(ingested.spilled ? { spilledSets: ingested.spilled } : {}),
    sketches: ingested.sketches,
    setSizes: ingested.setSizes,
    // In shared memory where it can be: the index worker's candidate search reads it without a copy.
    ...(containmentThreshold > 0 ? { passages: ingested.passages.packed() } : {}),
    external,
  };
  const found = await searchDocs(workers, signal, scanDocs, settings, sets, options, () => m.setPhase('grouping'));
  ingested.keptSets = [];
  delete ingested.spilled;
  ingested.sketches = new Uint16Array(0);
  ingested.setSizes = new Uint32Array(0);
  signal.throwIfAborted();
  const tEnd = performance.now();
  p.tEnd = tEnd;
  timings.indexingMs = found.indexingMs;
  timings.groupingMs = tEnd - tIndex - found.indexingMs;
  timings.totalMs = tEnd - t0;
  skipped.push(...shortCopiesSkipped(scanDocs, found.docs));
  p.docs = found.docs;
  const result: ScanResult = {
    settings,
    docs: found.docs,
    skipped,
    notes,
    representative: found.representative,
    exactGroups: found.exactGroups,
    ...found.near,
    partial: false,
    timings,
    ...(found.mismatched ? { externalMismatched: found.mismatched } : {}),
  };
  const own = { corpus: found.corpus, candidates: found.candidates, result };
  p.searched(own);
  if (p.saving) m.setPhase('saving');
  return own;
}
