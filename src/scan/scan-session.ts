/**
 * Runs scans: collects the files, plans batches, drives the ingest pool and the index worker,
 * publishes throttled progress and the final `ScanResult` to the scan store, and cancels (hard:
 * workers are terminated) within milliseconds. One session per app; a new scan may start at once.
 */
import { abortError, isAbortError } from '../workers/worker-bridge.ts';
import { errorMessage } from './scan-source.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { CollectedFiles } from './collect-files.ts';
import { rescanSource, type ScanSource } from './scan-source.ts';
import { emptyGroups, type Grouping, type ScanResult } from './scan-result.ts';
import { concatSets, PackedSetsJoin, type PackedSets } from '../core/groups/packed-sets.ts';
import { canShareMemory } from '../workers/claimed-hashes.ts';
import {
  decideNearDuplicates,
  noNearDuplicates,
  searchCandidates,
  searchDocs,
} from './near-duplicate-search.ts';
import { adoptResult, candidatesServe, type Candidates, type SearchCorpus, type ShownSearch } from './search-corpus.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { ScanSnapshot, ScanStore } from './scan-store.ts';
import { recordPhase } from './phase-timing.ts';
import { createScanMeter, type IngestOutput } from './scan-ingest.ts';
import { createScanRun, plainScan, type RunParts, type ScanStage, type ShownCorpus } from './scan-run.ts';
import type { DocId } from '../core/ids.ts';

export { KEPT_SETS_BUDGET_BYTES } from './scan-ingest.ts';

export type { ScanSource } from './scan-source.ts';

/** What a regroup may change; absent fields keep the store's current value. */
export interface RegroupOptions {
  k?: number;
  similarityThreshold?: number;
  /** "A is contained in B" at >= this (0: off). */
  containmentThreshold?: number;
  grouping?: Grouping;
  /** Documents marked as references (replaces the list; see buildDuplicateRelation). */
  pinned?: DocId[];
}

export interface ScanSession {
  /** Starts a scan (cancelling one that is running). Resolves when it has ended, however it ended. */
  start(source: ScanSource): Promise<void>;
  /** Cancels the running scan; the store says 'cancelled' before this returns. */
  cancel(): void;
  /** Stops the running scan for a reason the person must read (state 'cancelled', `stopped` = reason). */
  stop(reason: string): void;
  /**
   * Regroups the current result without fingerprinting again: the candidate search at the new k runs
   * in the index worker, only pairs never measured before are verified, then grouping; the store's
   * `regrouping` is true meanwhile and `result` is replaced at the end. Calls made while one runs are
   * coalesced (the latest options win). Without a result (or during a scan) it only sets the values
   * the next scan uses. Resolves when the store shows the new groups, with the last whole result
   * regrouped and its search state (null: none was), for the owner to keep.
   */
  regroup(options: RegroupOptions): Promise<ShownCorpus | null>;
  /**
   * Scans the last scan's files again with new fingerprint settings (features, weights, stop words):
   * fingerprints depend on them, so this is a full scan. Without an earlier scan it only stores them.
   */
  rescan(settings: SimHashSettings): Promise<void>;
  /** The result's documents read their kept copies now: a rescan reads those, and the listing's Files are let go (corpus/release-files.ts). Ignored while a scan runs. */
  forgetListing(): void;
  /**
   * Takes over a result grouped outside a scan (a restored or merged saved corpus) with the search
   * state behind it, so `regroup` works on it exactly as after a scan. Ignored while a scan runs.
   */
  adopt(search: { corpus: SearchCorpus; candidates: Candidates; result: ScanResult }): void;
  /**
   * Shows a result grouped outside a scan (a restored saved corpus) as 'done' and adopts its search
   * state. Ignored while a scan runs (the scan's result wins). This session is the only writer of the
   * scan state (the app root's data-scan-state).
   */
  show(search: { corpus: SearchCorpus; candidates: Candidates; result: ScanResult }): void;
  /** Cancels a running scan and forgets the result on show (the saved corpus was cleared): 'idle'. */
  reset(): void;
}

const PROGRESS_INTERVAL_MS = 100;



/** One session's state: what it runs on, the scan running, the result on show and its files. */
interface SessionState {
  readonly store: ScanStore;
  readonly workers: ScanWorkers;
  /** The owner's part of every scan (null: a scan nobody saves). */
  readonly stage: ScanStage | null;
  /** The running scan's controller (null: none runs). */
  current: AbortController | null;
  /** The search state of the result on show (for regroups). */
  last: ShownSearch | null;
  /** The files the last scan came from (for rescans). */
  lastCollected: CollectedFiles | null;
  /** The search over what a cancelled scan finished (or a regroup), running after the scan; a new scan aborts it. */
  afterCancel: AbortController | null;
  regroupRunning: Promise<ShownCorpus | null> | null;
  regroupWanted: boolean;
}

/** Cancels the running scan (hard: its workers are terminated); the store says 'cancelled' at once. */
function cancel(s: SessionState, reason: string | null = null): void {
  if (!s.current) return;
  const controller = s.current;
  s.current = null;
  controller.abort(abortError());
  // Hard cancel: the workers die now; the pool starts fresh ones for the next scan.
  s.workers.ingest.terminate();
  s.workers.index.terminate();
  s.store.update({ state: 'cancelled', stopped: reason });
}

async function run(s: SessionState, source: ScanSource, controller: AbortController): Promise<void> {
  const signal = controller.signal;
  const isCurrent = () => s.current === controller;
  const t0 = performance.now();
  const { k, kAuto, settings, similarityThreshold, containmentThreshold, grouping } = s.store.getSnapshot();
  const m = createScanMeter(s.store, t0, isCurrent);
  const timer = setInterval(m.publish, PROGRESS_INTERVAL_MS);
  const p: RunParts = {
    store: s.store,
    workers: s.workers,
    source,
    settings,
    signal,
    meter: m,
    t0,
    k,
    kAuto,
    similarityThreshold,
    containmentThreshold,
    grouping,
    // What fingerprinting kept (filled as batches arrive, so a cancel keeps it for the partial search).
    ingested: { smallSets: [], keptSets: [], keptBytes: 0, sketches: new Uint16Array(0), setSizes: new Uint32Array(0), passages: new PackedSetsJoin(canShareMemory()) },
    skipped: [],
    notes: [],
    timings: { readingMs: 0, fingerprintingMs: 0, indexingMs: 0, groupingMs: 0, totalMs: 0 },
    docs: null,
    tEnd: 0,
    listed: (listing) => void (s.lastCollected = listing),
    saving: s.stage !== null,
    searched: (own) => void (s.last = own),
  };
  const partialResult = (): ScanResult | null =>
    p.docs && {
      settings,
      docs: p.docs,
      skipped: p.skipped,
      notes: p.notes,
      representative: new Int32Array(p.docs.count).fill(-1),
      exactGroups: emptyGroups(),
      ...noNearDuplicates(p.docs.count, p.k, similarityThreshold, grouping),
      partial: true,
      // Cancelled while reading: the time so far went to reading (0 would read "No file read" under the results).
      timings: { ...p.timings, readingMs: p.timings.readingMs || (m.filesRead > 0 ? performance.now() - t0 : 0), totalMs: performance.now() - t0 },
    };

  try {
    const scan = createScanRun(p);
    // The owner (the saved corpus, the CLI's cache) calls the stages and decides what to keep between them.
    const shown = s.stage ? await s.stage(scan) : await plainScan(scan);
    if (s.stage) recordPhase('finish', p.tEnd, performance.now());
    clearInterval(timer);
    if (!isCurrent()) return;
    m.publish();
    s.current = null;
    s.last = shown;
    s.store.update({ state: 'done', result: shown.result, pinned: shown.result.pinned });
  } catch (error) {
    clearInterval(timer);
    endWithoutResult(s, error, signal, isCurrent(), partialResult, p.ingested);
  }
}

/**
 * A scan that ended without its result: cancelled (what finished stays on show, searched in fresh
 * workers unless a new scan starts) or failed (the error, with what finished).
 */
function endWithoutResult(s: SessionState, error: unknown, signal: AbortSignal, isCurrent: boolean, partialResult: () => ScanResult | null, ingested: IngestOutput): void {
  if (isAbortError(error) || signal.aborted) {
    // cancel() already said 'cancelled'; keep what was finished (only if no newer scan began),
    // and search it in fresh workers (cancel terminated the old ones) unless a new scan starts.
    if (s.store.getSnapshot().state === 'cancelled' && !s.current) {
      const partial = partialResult();
      s.store.update({ result: partial });
      if (partial) void searchPartial(s, partial, concatSets(ingested.smallSets), ingested.keptSets, { sketches: ingested.sketches, setSizes: ingested.setSizes }, ingested.passages.count > 0 ? ingested.passages.packed() : undefined);
    }
    return;
  }
  if (!isCurrent) return;
  s.current = null;
  s.workers.ingest.terminate();
  s.workers.index.terminate();
  s.store.update({ state: 'error', error: `The scan stopped: ${errorMessage(error)}`, result: partialResult() });
}

/** Searches what a cancelled scan finished (exact and near-duplicates), publishing it still marked partial. */
async function searchPartial(
  s: SessionState,
  partial: ScanResult,
  sets: PackedSets,
  keptSets: ReadonlyArray<Uint32Array | undefined>,
  known: { sketches: Uint16Array; setSizes: Uint32Array },
  passages: PackedSets | undefined,
): Promise<void> {
  const controller = new AbortController();
  s.afterCancel = controller;
  try {
    const { k, similarityThreshold, grouping } = partial;
    const { containmentThreshold } = s.store.getSnapshot();
    const found = await searchDocs(s.workers, controller.signal, partial.docs, partial.settings, sets, { k, similarityThreshold, containmentThreshold, grouping, keptSets, ...known, ...(passages ? { passages } : {}) });
    if (s.afterCancel !== controller || s.current) return;
    const result: ScanResult = { ...partial, docs: found.docs, representative: found.representative, exactGroups: found.exactGroups, ...found.near };
    s.last = { corpus: found.corpus, candidates: found.candidates, result };
    s.store.update({ result });
  } catch (error) {
    // Aborted by a new scan, or failed: the unsearched partial result stays on show.
    if (!isAbortError(error) && s.afterCancel === controller && !s.current) s.store.update({ error: `Searching the finished files failed: ${errorMessage(error)}` });
  } finally {
    if (s.afterCancel === controller) s.afterCancel = null;
  }
}

/** One regroup at a time; requests that arrive meanwhile are folded into one more round. Resolves with the last whole result regrouped (null: none). */
async function regroupLoop(s: SessionState): Promise<ShownCorpus | null> {
  let regrouped: ShownCorpus | null = null;
  while (s.regroupWanted) {
    s.regroupWanted = false;
    const target = s.last;
    if (!target || s.current) break;
    const { k, similarityThreshold, containmentThreshold, grouping, pinned } = s.store.getSnapshot();
    const controller = new AbortController();
    s.afterCancel = controller;
    try {
      const candidates = candidatesServe(target.candidates, k, similarityThreshold) ? target.candidates : await searchCandidates(s.workers, controller.signal, target.corpus, k);
      const near = await decideNearDuplicates(s.workers, controller.signal, target.corpus, candidates, { similarityThreshold, containmentThreshold, grouping, pinned });
      const result: ScanResult = { ...target.result, ...near };
      if (s.last !== target || s.current) break;
      s.last = { ...target, candidates, result };
      s.store.update({ result });
      // The same documents, regrouped: the owner keeps the new view (not a cancelled scan's part).
      if (!result.partial) regrouped = s.last;
    } catch (error) {
      if (isAbortError(error) || s.last !== target || s.current) break;
      s.store.update({ error: `Regrouping failed: ${errorMessage(error)}` });
    } finally {
      if (s.afterCancel === controller) s.afterCancel = null;
    }
  }
  s.store.update({ regrouping: false });
  return regrouped;
}

/** Creates the session that writes into `store` and runs on `workers`; `stage` is its owner's part of every scan (see scan-run.ts). */
export function createScanSession(store: ScanStore, workers: ScanWorkers, stage: ScanStage | null = null): ScanSession {
  const s: SessionState = { store, workers, stage, current: null, last: null, lastCollected: null, afterCancel: null, regroupRunning: null, regroupWanted: false };
  const session: ScanSession = {
    cancel: () => cancel(s),
    stop: (reason) => cancel(s, reason),
    regroup(options) {
      const patch: Partial<ScanSnapshot> = {};
      if (options.k !== undefined && options.k !== s.store.getSnapshot().k) {
        // A k the person chose: no longer the default.
        patch.k = options.k;
        patch.kAuto = false;
      }
      if (options.similarityThreshold !== undefined) patch.similarityThreshold = options.similarityThreshold;
      if (options.containmentThreshold !== undefined) patch.containmentThreshold = options.containmentThreshold;
      if (options.grouping !== undefined) patch.grouping = options.grouping;
      if (options.pinned !== undefined) patch.pinned = options.pinned;
      const shownResult = s.store.getSnapshot().result;
      if (!s.current && shownResult && (!s.last || (s.last.adopted && s.last.result !== shownResult))) {
        // A result this session did not search (restored from storage): regroup over it as it is.
        s.last = adoptResult(shownResult);
      }
      if (!s.last || s.current) {
        s.store.update(patch);
        return Promise.resolve(null);
      }
      s.store.update({ ...patch, regrouping: true });
      s.regroupWanted = true;
      s.regroupRunning ??= regroupLoop(s).finally(() => (s.regroupRunning = null));
      return s.regroupRunning;
    },
    adopt(search) {
      if (s.current) return;
      s.last = { corpus: search.corpus, candidates: search.candidates, result: search.result };
    },
    show(search) {
      if (s.current) return;
      s.last = { corpus: search.corpus, candidates: search.candidates, result: search.result };
      s.store.update({ state: 'done', result: search.result, progress: null, error: null });
    },
    reset() {
      cancel(s);
      s.afterCancel?.abort(abortError());
      s.afterCancel = null;
      s.last = null;
      s.lastCollected = null;
      s.store.update({ state: 'idle', result: null, progress: null, error: null });
    },
    forgetListing() {
      if (!s.current) s.lastCollected = null;
    },
    rescan(settings) {
      // After a reload the files are not at hand: the kept contents are read, or the person is told why not.
      const source = s.lastCollected ?? rescanSource(s.store.getSnapshot().result);
      s.store.update({ settings, rescanNote: typeof source === 'string' ? source : null });
      if (!source || typeof source === 'string') return Promise.resolve();
      return session.start({ kind: 'collected', collected: source });
    },
    start(source) {
      if (s.current) cancel(s);
      s.afterCancel?.abort(abortError());
      s.afterCancel = null;
      s.last = null;
      const controller = new AbortController();
      s.current = controller;
      s.store.update({ state: 'scanning', progress: null, result: null, error: null, stopped: null, rescanNote: null, pinned: [] });
      return run(s, source, controller);
    },
  };
  return session;
}
