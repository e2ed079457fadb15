/**
 * Where a scan's listing comes from: the person's files, folders and drops as a flat list, and for a
 * rescan with other fingerprint settings after a reload, the saved corpus's kept contents.
 */
import { collectFromDrop, collectFromFileList, countDropFiles, type CollectedFiles, type DropSnapshot } from './collect-files.ts';
import { collectFromHandles, dropHandles } from './handle-source.ts';
import { docSourceKind, type ScanResult, type SkippedFile } from './scan-result.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { PairList } from '../core/index/pair-list.ts';
import type { ListedStats } from './quick-check.ts';

/** Where a scan's files come from. */
export type ScanSource =
  /** `sync`: a chosen folder's files, which the corpus follows (ScanStart.sync, scan-run.ts); `folderPaths`: its whole listing when a resume reads part. */
  | { kind: 'file-list'; files: ArrayLike<File>; sync?: boolean; folderPaths?: readonly string[] }
  /** A drop: in Chromium its items' File System Access handles, which the ingest workers walk and read (handle-source.ts). */
  | { kind: 'drop'; drop: DropSnapshot }
  /**
   * Files already collected (a rescan with other settings, the CLI). `pairs`: candidate pairs found
   * outside (doc ids = positions in `collected`), used instead of the scan's own search.
   */
  | { kind: 'collected'; collected: CollectedFiles; pairs?: PairList };

/**
 * Whether a quick check of `source` asks each File its size and time on the page, for a folder chosen
 * through the folder input (`sync`): not a drop (its handle is walked in the workers; read through its
 * entries, it was dragged already) nor files chosen one by one.
 */
export function checksOneByOne(source: ScanSource): boolean {
  return source.kind === 'file-list' && source.sync === true;
}

/** An error's message for people. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * The scan's file list from its source (walking dropped folders), hidden files left out; folders a drop
 * could not read, as skips. Through handles, `withStats` (a quick check will follow): each file's size
 * and time too, taken by the walk (`stats`; null otherwise: the quick check asks later).
 */
export async function collectSource(
  workers: ScanWorkers,
  source: ScanSource,
  signal: AbortSignal,
  withStats = false,
): Promise<{ collected: CollectedFiles; unreadable: SkippedFile[]; stats: ListedStats | null }> {
  const unreadable: SkippedFile[] = [];
  const handles = source.kind === 'drop' ? await dropHandles(source.drop) : null;
  if (handles && source.kind === 'drop') {
    // A handle never lists a name Chromium's File System Access refuses (any of \ : * ? " < > |, control or
    // format characters, a leading or trailing space, dot or tilde); the drop's entries list every file.
    // Fewer files through the handles than in the entries: the drop is read through its entries.
    const [listed, inEntries] = await Promise.all([collectFromHandles(workers, handles, signal, withStats), countDropFiles(source.drop, signal)]);
    if (inEntries === null || inEntries <= listed.collected.paths.length) return { ...listed, unreadable };
  }
  const collected =
    source.kind === 'collected'
      ? source.collected
      : source.kind === 'file-list'
        ? await collectFromFileList(source.files, signal)
        : source.kind === 'drop'
          ? await collectFromDrop(source.drop, signal, (path, error) =>
              unreadable.push({ docId: -1, path, size: 0, reason: 'unreadable', message: `Could not be read (${errorMessage(error)}).` }),
            )
          : { files: [], paths: [], hidden: [] };
  return { collected, unreadable, stats: null };
}


/**
 * What a rescan with other fingerprint settings reads when the scanned files are no longer at hand (the
 * page was reloaded): the documents' kept contents, as the saved corpus holds them. Every document needs
 * its contents (fingerprints of the rest could not be made); otherwise a sentence saying why the folder
 * must be chosen again. Null: nothing on show.
 */
export function rescanSource(result: ScanResult | null): CollectedFiles | string | null {
  if (!result || result.docs.count === 0) return null;
  const { docs } = result;
  let missing = 0;
  for (let d = 0; d < docs.count; d++) {
    const kind = docSourceKind(docs, d);
    if (kind === 'none' || kind === 'handle') missing++;
  }
  if (missing > 0) {
    const n = missing.toLocaleString('en');
    return (
      `These settings were not applied: new fingerprints need every file read again, and the saved corpus keeps no contents of ${n} ` +
      `file${missing === 1 ? '' : 's'} (or the page was reloaded since they were read). Choose the folder again to scan it with these settings.`
    );
  }
  const hidden: SkippedFile[] = result.skipped.filter((skip) => skip.docId < 0);
  return {
    files: docs.files as File[],
    paths: docs.paths,
    hidden,
    ...(docs.ranges ? { ranges: docs.ranges } : {}),
    modified: docs.modified ?? new Float64Array(docs.count),
  };
}
