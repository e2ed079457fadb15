/**
 * Modification times of the files a scan read without asking them first (new paths: the quick check
 * asks only saved ones; every path after Re-read every file). In Chromium a folder input's File answers `lastModified` with a synchronous
 * IPC to the browser process; asked while the scan reads, each waits behind the reads and the results
 * come far later. So they are asked once the results show, in small tasks, and
 * stored a slice per transaction: a page reloaded before the last keeps the times stored so far, and
 * the next quick check reads only the files still without one.
 */
import { retimeDocuments } from '../storage/corpus-repository.ts';
import { statFiles } from '../scan/quick-check.ts';
import type { ScanDocs } from '../scan/scan-result.ts';
import { NO_ID, type StorageIds } from '../core/ids.ts';

/** Times stored per transaction. */
export const TIMES_PER_TRANSACTION = 2048;

/**
 * Asks the times of `docs` that are Files the page holds (named: the stand-ins of handle-read and
 * not-kept documents are nameless; a File asked before answers from its snapshot, with no IPC) and
 * stored (`storageIds`; `lost`: ids whose batch never committed); sets those that differ in `docs`
 * and stores them, `TIMES_PER_TRANSACTION` at a time. Aborted by `signal` (a new scan), the documents
 * not yet stored keep no time, and the next quick check reads them again.
 */
export async function saveFileTimes(docs: ScanDocs, storageIds: StorageIds, lost: ReadonlySet<number>, signal: AbortSignal): Promise<void> {
  const at: number[] = [];
  for (let d = 0; d < docs.count; d++) {
    const file = docs.files[d];
    const id = storageIds[d]!;
    if (file instanceof File && file.name !== '' && id !== NO_ID && !lost.has(id)) at.push(d);
  }
  for (let from = 0; from < at.length; from += TIMES_PER_TRANSACTION) {
    const part = at.slice(from, from + TIMES_PER_TRANSACTION);
    const { modified } = await statFiles(docs.files, part, signal);
    docs.modified ??= new Float64Array(docs.count);
    const times = new Map<number, number>();
    for (const d of part) {
      if (!(modified[d]! > 0) || modified[d] === docs.modified[d]) continue;
      docs.modified[d] = modified[d]!;
      times.set(storageIds[d]!, modified[d]!);
    }
    await retimeDocuments(times);
  }
}
