/**
 * The shape of a scan's output, the contract between ingest and everything built on it (the
 * results UI, persistence, export): documents as parallel typed arrays indexed by doc id, the
 * skipped list, exact-duplicate groups, near-duplicate pairs and groups.
 */
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { PairList } from '../core/index/pair-list.ts';
import type { SkipReason } from '../workers/ingest-protocol.ts';

/** Groups in compressed form: group g's members are `members[start[g] .. start[g + 1])`. */
export interface GroupList {
  /** `count + 1` offsets into `members`. */
  start: Uint32Array;
  /** Doc ids, ascending within a group. Groups are ordered largest first. */
  members: Uint32Array;
  count: number;
}

/** Every file the scan read (not hidden ones), by doc id (0..count-1, in the order the files were listed). */
export interface ScanDocs {
  count: number;
  /** Path relative to the dropped/chosen root, `/`-separated (e.g. `notes/a.txt`). */
  paths: string[];
  /** The files themselves, so views can read a document's text again later. */
  files: File[];
  /** Size in bytes. */
  sizes: Float64Array;
  /** `DocStatus` code per doc (ok, too-short, binary, unreadable, empty, pending). */
  status: Uint8Array;
  /** `DocFlag` bits per doc (truncated, html). */
  flags: Uint8Array;
  /** Fingerprint halves; meaningful where status is ok. */
  hi: Uint32Array;
  lo: Uint32Array;
  /** Words in the decoded text. */
  words: Uint32Array;
  /** XXH64 of the normalized text, halves (0 where nothing was decoded). */
  hashHi: Uint32Array;
  hashLo: Uint32Array;
}

/** A file that takes no part in the near-duplicate search, with a message for people. */
export interface SkippedFile {
  /** The doc id, or -1 for hidden files/folders that were never read. */
  docId: number;
  path: string;
  size: number;
  reason: SkipReason;
  message: string;
}

/** The complete output of one scan. */
export interface ScanResult {
  settings: SimHashSettings;
  /** Largest Hamming distance counted as near-duplicate. */
  k: number;
  docs: ScanDocs;
  skipped: SkippedFile[];
  /**
   * Per doc: the doc id whose text stands for it (among docs with the same normalized text, the
   * one that was fingerprinted), or -1 if the doc is not ok. Only representatives
   * (`representative[i] === i`) are indexed and appear in `pairs`.
   */
  representative: Int32Array;
  /** Docs with identical normalized text (2+ members each, status ok). */
  exactGroups: GroupList;
  /** Pairs of representatives within distance k (a < b are doc ids, sorted by a then b). */
  pairs: PairList;
  /** For each pair, the index of its near-duplicate group. */
  pairGroup: Uint32Array;
  /** Connected components of `pairs` (representatives only; add each one's exact copies to show all). */
  nearGroups: GroupList;
  /** True when the scan was cancelled: docs still `pending` were never read, and no pairs were searched. */
  partial: boolean;
  timings: ScanTimings;
}

/** Wall-clock milliseconds per phase, measured on the main thread; the phases follow each other. */
export interface ScanTimings {
  /** From the start until every file is read (workers fingerprint meanwhile). */
  readingMs: number;
  /** From the last read until every file is fingerprinted. */
  fingerprintingMs: number;
  /** Exact grouping + all-pairs search (in the index worker). */
  indexingMs: number;
  groupingMs: number;
  totalMs: number;
}

/** The empty group list. */
export function emptyGroups(): GroupList {
  return { start: new Uint32Array(1), members: new Uint32Array(0), count: 0 };
}
