/** The points where a scan lets persistence (or anything else) take part, without the scan knowing about it. */
import type { BatchContents } from '../workers/ingest-protocol.ts';
import type { Candidates, SearchCorpus } from './search-corpus.ts';
import type { ScanDocs, ScanResult, SkippedFile } from './scan-result.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { UnchangedFiles, UnchangedTest } from './quick-check.ts';
import type { Exclusions } from '../core/documents/exclusions.ts';

/** A result on show and the search state behind it. */
export interface ShownCorpus {
  result: ScanResult;
  corpus: SearchCorpus;
  candidates: Candidates;
}

/** Optional callbacks a scan session calls; all of them may be absent. */
export interface ScanHooks {
  /**
   * The file list is known (docs allocated, nothing read yet); `listed` are the files skipped while
   * listing (hidden, unreadable folders), which have no doc. `sync`: the person chose a folder, so the
   * saved corpus follows it (its saved files missing from this listing leave; given as paths, the
   * folder's whole listing when this scan reads only part of it). `notRead`: listed files the quick
   * check left out (the saved corpus holds them as they are). May reject to stop the scan.
   */
  onStart?(docs: ScanDocs, signal: AbortSignal, listed?: readonly SkippedFile[], sync?: boolean | readonly string[], notRead?: UnchangedFiles): Promise<void>;
  /**
   * The quick check for a scan with `settings`: which listed files the saved corpus holds at the same
   * path, size and modification time (they are not read). Null: read every file.
   */
  unchangedTest?(settings: SimHashSettings): UnchangedTest | null;
  /**
   * One ingest batch finished: `ids` are the doc ids whose entries in `docs` are now final; with
   * `keepsBytes`, `contents` holds their bytes in one Blob (`ids[j]`'s range is empty when a worker
   * read the File).
   */
  onBatch?(docs: ScanDocs, ids: readonly number[], contents?: BatchContents): void;
  /**
   * The person's exclusions (the keep panel's): the listed files they match are left out before
   * anything is read. Not asked for a listing already chosen (a rescan of the corpus's own files).
   */
  exclusions?(): Promise<Exclusions>;
  /** How many documents the scan's result will be merged with (a saved corpus): k follows the total. */
  corpusSize?(): number;
  /** Whether `onBatch` wants the files' bytes in a Blob (asked once per scan, after `onStart`). */
  keepsBytes?(): boolean;
  /**
   * Turns the scan's own result into the one shown (e.g. merged with the saved corpus), with the search
   * state behind it (small feature sets, every Jaccard measured), so a merge measures nothing twice and
   * a later regroup works on the corpus as a whole. Called once per scan, never for a regroup.
   */
  finish?(own: ShownCorpus, signal: AbortSignal): Promise<ShownCorpus>;
  /**
   * The result on show was regrouped (k, threshold, grouping, references): same documents at the same
   * positions, new groups. The saved corpus keeps what the next load should show.
   */
  regrouped?(shown: ShownCorpus): void;
  /** The scan ended without a final result (cancelled or failed). */
  onEnd?(state: 'cancelled' | 'error', message?: string): void;
}
