/**
 * Saving a scan into the corpus: the corpus's stage of every scan (scan-run.ts), calling the scan's
 * stages in order. The quick check is corpus-quick-check.ts, everything before the first batch
 * corpus-scan-start.ts, the merge and the writes behind the results corpus-scan-finish.ts.
 */
import { NO_EXCLUSIONS } from '../core/documents/exclusions.ts';
import { getKeepExclusions } from '../storage/keep-marks.ts';
import type { ScanStage } from '../scan/scan-run.ts';
import { errorMessage } from '../scan/scan-source.ts';
import { isAbortError } from '../workers/worker-bridge.ts';
import type { CorpusContext } from './corpus-context.ts';
import { startSaving } from './corpus-scan-start.ts';
import { endSaving, finishSaving } from './corpus-scan-finish.ts';
import { quickCheckApplies, unchangedTest } from './corpus-quick-check.ts';

/**
 * The saved corpus's part of every scan: it calls the scan's stages in order and saves between them.
 * Listing, then the quick check against the corpus on show; before the first batch the settings
 * question, the writer lock and the batch writer; each batch its commit; at the end the merge with the
 * corpus on show, the files a chosen folder no longer holds, the pairs and tables.
 */
export function createScanSaving(c: CorpusContext): ScanStage {
  return async (scan) => {
    try {
      await scan.list(quickCheckApplies(c, scan.settings));
      // Saved beside the corpus (the keep panel's): a storage that cannot answer leaves nothing out.
      const exclusions = scan.source.kind === 'collected' ? NO_EXCLUSIONS : await getKeepExclusions().catch(() => NO_EXCLUSIONS);
      await scan.check(exclusions, unchangedTest(c, scan.settings));
      const plan = await startSaving(c, scan.begin(), exclusions, scan.signal);
      for await (const batch of scan.read(c.writing !== null && c.snapshot.keepContents)) {
        c.writing?.writer.write(batch, c.snapshot.keepContents, c.tables);
      }
      return await finishSaving(c, await scan.search(), plan, scan.signal);
    } catch (error) {
      endSaving(c, isAbortError(error) || scan.signal.aborted ? 'cancelled' : 'error', errorMessage(error));
      throw error;
    }
  };
}

