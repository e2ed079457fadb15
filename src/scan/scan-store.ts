/**
 * The scan store: the one shared, framework-free state of a scan session (state, phase and
 * progress, the result, k and the SimHash settings). React reads it with `useSyncExternalStore`;
 * snapshots are immutable and replaced on every change.
 */
import { CONTAINMENT_DEFAULT_SETTING } from '../core/groups/contained-pairs.ts';
import { DEFAULT_SETTINGS, type SimHashSettings } from '../core/simhash/settings.ts';
import { DEFAULT_K as CORE_DEFAULT_K } from '../core/quality/defaults.ts';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../core/quality/defaults.ts';
import type { Grouping, ScanResult } from './scan-result.ts';
import type { DocId } from '../core/ids.ts';

/** The automation contract: mirrored on the app root as `data-scan-state`. */
export type ScanState = 'idle' | 'scanning' | 'done' | 'error' | 'cancelled';

/**
 * What a running scan does now: `listing` the files (walking folders), `reading` them (fingerprinting
 * alongside), `fingerprinting` the last batches, `indexing` (searching candidate pairs), `grouping`
 * (verifying pairs, grouping), `saving` (writing the result to the saved corpus).
 */
export type ScanPhase = 'listing' | 'checking' | 'reading' | 'fingerprinting' | 'indexing' | 'grouping' | 'saving';

/** What the progress view shows; published at most about 10 times a second. */
export interface ScanProgress {
  phase: ScanPhase;
  filesDone: number;
  /** Files to read (hidden ones and folders that could not be listed are not among them). */
  filesTotal: number;
  /** Files listed but never read: hidden files and folders, unreadable folders (all in the Skipped list). */
  filesListedOnly: number;
  /** Listed files the person's exclusions left out: never read, not documents (as files not in the folder). */
  filesExcluded: number;
  /** Listed files the quick check found unchanged since they were saved: not read, the saved corpus stands for them. */
  filesUnchanged: number;
  /**
   * The quick check asks each file its size and time one at a time on the page (a folder input's Files:
   * one synchronous browser call each in Chromium), where a dropped folder's walk takes them in the workers.
   */
  checkingOneByOne: boolean;
  bytesDone: number;
  /** Exact once every file has been read (`bytesTotalKnown`); extrapolated from the files read until then. */
  bytesTotal: number;
  bytesTotalKnown: boolean;
  /** Bytes per second over the fingerprinting phase so far (0 until measurable). */
  bytesPerSecond: number;
  /** Estimated seconds until fingerprinting ends; null when unknown. */
  secondsLeft: number | null;
  elapsedMs: number;
}

export interface ScanSnapshot {
  state: ScanState;
  progress: ScanProgress | null;
  result: ScanResult | null;
  /** A message for people when state is 'error'. */
  error: string | null;
  /**
   * Why a scan stopped that the person did not cancel (state 'cancelled', e.g. the storage is full):
   * shown as an error, never as "Scan cancelled". Null after Cancel and when a scan starts.
   */
  stopped: string | null;
  /**
   * Why new fingerprint settings were not applied (a rescan after a reload without the files' contents):
   * they wait for the next scan. Null once a scan starts or settings are applied.
   */
  rescanNote: string | null;
  /** Candidate search radius (Hamming distance) for the next scan or regroup. */
  k: number;
  /** True while k is the default (DEFAULT_K); false once the person chose a k. */
  kAuto: boolean;
  /** Exact-Jaccard threshold for the next scan or regroup. */
  similarityThreshold: number;
  /** Containment threshold for the next scan or regroup ("A is contained in B" at >= this; 0: off). */
  containmentThreshold: number;
  grouping: Grouping;
  /** Documents of the current result the person marked as references (emptied by a new scan). */
  pinned: DocId[];
  settings: SimHashSettings;
  /** True while a regroup (new k, threshold or grouping over the current result) runs. */
  regrouping: boolean;
}

/** The scan's default k: the core's tuned default (src/core/quality/defaults.ts). */
export const DEFAULT_K = CORE_DEFAULT_K;

/** The snapshot without the scan's progress: what the page's shell renders from. */
export type ScanShell = Omit<ScanSnapshot, 'progress'>;

/** A store holding one snapshot; `subscribe`/`getSnapshot` fit `useSyncExternalStore` as they are. */
export interface ScanStore {
  getSnapshot(): ScanSnapshot;
  /**
   * The snapshot without `progress`, the same object until another field changes: progress changes
   * ten times a second during a scan, and only the progress panel reads it, so the rest of the page
   * subscribes to this and is not rendered again on every tick.
   */
  getShell(): ScanShell;
  subscribe(listener: () => void): () => void;
  /** Shallow-merges `patch` into a new snapshot and notifies listeners. */
  update(patch: Partial<ScanSnapshot>): void;
}

/** Creates a store starting idle with the given (or default) k and settings. */
export function createScanStore(initial: Partial<ScanSnapshot> = {}): ScanStore {
  let snapshot: ScanSnapshot = {
    state: 'idle',
    progress: null,
    result: null,
    error: null,
    stopped: null,
    rescanNote: null,
    k: DEFAULT_K,
    // A store made with a k keeps it; otherwise k follows each corpus' size.
    kAuto: initial.k === undefined,
    similarityThreshold: DEFAULT_SIMILARITY_THRESHOLD,
    containmentThreshold: CONTAINMENT_DEFAULT_SETTING,
    grouping: 'reference',
    pinned: [],
    settings: DEFAULT_SETTINGS,
    regrouping: false,
    ...initial,
  };
  const listeners = new Set<() => void>();
  const shellOf = ({ progress: _progress, ...rest }: ScanSnapshot): ScanShell => rest;
  let shell = shellOf(snapshot);
  return {
    getSnapshot: () => snapshot,
    getShell: () => shell,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update(patch) {
      snapshot = { ...snapshot, ...patch };
      for (const key in patch) {
        if (key === 'progress') continue;
        shell = shellOf(snapshot);
        break;
      }
      for (const listener of [...listeners]) listener();
    },
  };
}
