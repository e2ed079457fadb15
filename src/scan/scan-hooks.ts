/** The points where a scan lets persistence (or anything else) take part, without the scan knowing about it. */
import type { BatchContents } from '../workers/ingest-protocol.ts';
import type { SearchCorpus } from './search-corpus.ts';
import type { ScanDocs, ScanResult, SkippedFile } from './scan-result.ts';

/** Optional callbacks a scan session calls; all of them may be absent. */
export interface ScanHooks {
  /**
   * The file list is known (docs allocated, nothing read yet); `listed` are the files skipped while
   * listing (hidden, unreadable folders), which have no doc. `sync`: the person chose a folder, so the
   * saved corpus follows it (its saved files missing from this listing leave). May reject to stop the scan.
   */
  onStart?(docs: ScanDocs, signal: AbortSignal, listed?: readonly SkippedFile[], sync?: boolean): Promise<void>;
  /**
   * One ingest batch finished: `ids` are the doc ids whose entries in `docs` are now final; with
   * `keepsBytes`, `contents` holds their bytes in one Blob (`ids[j]`'s range is empty when a worker
   * read the File).
   */
  onBatch?(docs: ScanDocs, ids: readonly number[], contents?: BatchContents): void;
  /** How many documents the scan's result will be merged with (a saved corpus): k follows the total. */
  corpusSize?(): number;
  /** Whether `onBatch` wants the files' bytes in a Blob (asked once per scan, after `onStart`). */
  keepsBytes?(): boolean;
  /**
   * Turns the scan's own result into the one shown (e.g. merged with the saved corpus). `search` is the
   * search state behind `result` (small feature sets, every Jaccard measured), so a merge measures nothing twice.
   */
  finish?(result: ScanResult, signal: AbortSignal, search?: SearchCorpus): Promise<ScanResult>;
  /** The scan ended without a final result (cancelled or failed). */
  onEnd?(state: 'cancelled' | 'error', message?: string): void;
}
