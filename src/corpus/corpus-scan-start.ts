/**
 * The start of a scan's saving, before its first batch: the folder the corpus follows, the settings
 * question, the writer lock and the batch writer; a full storage stops the scan and keeps the rest
 * for a resume.
 */
import { clearCorpus } from '../storage/corpus-repository.ts';
import { putSettings, settingsChange, type CorpusSettings } from '../storage/settings-repository.ts';
import { isStorageError } from '../storage/storage-error.ts';
import { getStorageUsage, requestPersistentStorage } from '../storage/storage-quota.ts';
import type { Exclusions } from '../core/documents/exclusions.ts';
import { forgetFolderHandles, putFolderHandles } from '../storage/folder-handles.ts';
import type { ScanStart } from '../scan/scan-run.ts';
import type { ScanDocs, SkippedFile } from '../scan/scan-result.ts';
import type { UnchangedFiles } from '../scan/quick-check.ts';
import { LOCK_WAIT_MS, openBatchWriter, tryLock, type BatchWriter } from './corpus-writer.ts';
import { NO_ID } from '../core/ids.ts';
import { positionsByPath, rootOf, type FolderSync } from './merge-corpus.ts';
import { refreshBase } from './corpus-loading.ts';
import type { CorpusContext } from './corpus-context.ts';
import { mayWrite } from './corpus-state.ts';
import type { ScanSource } from '../scan/scan-session.ts';

/** How often a scan's commits ask the browser its storage estimate again (an IPC; batches commit many times a second). */
const USAGE_EVERY_MS = 2000;

/** A chosen folder's top-level names and every path its listing holds (documents and listed skips). */
function folderSyncOf(docs: ScanDocs, listed: readonly SkippedFile[], folderPaths: readonly string[] = []): FolderSync {
  const paths = [...docs.paths, ...listed.map((s) => s.path), ...folderPaths];
  const roots = new Set(paths.map(rootOf).filter((r) => r !== ''));
  return { roots, listed: new Set(paths) };
}

/**
 * The folders' handles go with the corpus (the keep panel acts on them after a reload); a folder chosen
 * through the input may be another folder of the same name, so its old handle is forgotten. Not awaited:
 * the scan never waits on it, and a failed write only means the page asks for the folder again.
 */
function keepFolderHandles(docs: ScanDocs, sync: FolderSync | null): void {
  if (docs.roots) void putFolderHandles(docs.roots).catch(() => undefined);
  else if (sync) void forgetFolderHandles(sync.roots).catch(() => undefined);
}

/**
 * A commit hit the full quota: what was committed stays, the rest of the scan is not saved. Says so
 * in numbers, as an error (the person cancelled nothing), and keeps the rest for a resume.
 */
function storageFull(c: CorpusContext, inCorpus: Uint8Array | null, docs: ScanDocs, error: unknown, lost: ReadonlySet<number> = new Set()): string {
  const left: File[] = [];
  const leftFilePaths: string[] = [];
  for (let d = 0; d < docs.count; d++) {
    // A scan's own documents are the Files it was given (only restored ones are stored Blobs); read
    // through handles, the paths (a file never opened is noContents() until then).
    const file = docs.files[d];
    if (!inCorpus?.[d] && (docs.roots || file instanceof File)) {
      left.push(file as File);
      leftFilePaths.push(docs.paths[d]!);
    }
  }
  // Through handles the workers read the paths again; otherwise the Files are scanned again.
  const rest: ScanSource | null =
    left.length === 0
      ? null
      : docs.roots
        ? { kind: 'collected', collected: { files: left, paths: leftFilePaths, hidden: [], roots: docs.roots } }
        : { kind: 'file-list', files: left };
  const saved = docs.count - left.length;
  // The shown corpus may already hold this scan (the storage filled behind the results): the
  // documents of batches that never committed lose their storage ids there too.
  if (c.base && lost.size > 0) {
    for (let p = 0; p < c.base.storageIds.length; p++) if (lost.has(c.base.storageIds[p]!)) c.base.storageIds[p] = NO_ID;
  }
  const message =
    `Storage is full: ${saved.toLocaleString('en')} file${saved === 1 ? '' : 's'} saved, ${left.length.toLocaleString('en')} not saved. ` +
    (isStorageError(error) ? error.userMessage : '');
  void c.dispatch({ type: 'storage-full', message, saved, notSaved: left.length, rest });
  return message;
}

/** What one scan's saving carries from its start to its end: the folder the corpus follows, the files left unread, the exclusions used. */
export interface ScanPlan {
  sync: FolderSync | null;
  notRead: UnchangedFiles | null;
  exclusions: Exclusions;
}

/** Before the first batch: the folder the corpus follows, the settings question, the writer lock and the batch writer. */
export async function startSaving(c: CorpusContext, start: ScanStart, exclusions: Exclusions, signal: AbortSignal): Promise<ScanPlan> {
  const { docs, listed, sync, notRead } = start;
  const plan: ScanPlan = { sync: sync ? folderSyncOf(docs, listed, sync === true ? [] : sync) : null, notRead: notRead ?? null, exclusions };
  keepFolderHandles(docs, plan.sync);
  // "The saved corpus was cleared", the last sync's summary...: true of the corpus before this scan, not after.
  if (c.snapshot.notice !== null && c.snapshot.notice !== c.scanNotice) c.update({ notice: null });
  c.scanNotice = null;
  // The last scan's writes may still be committing (see finishSaving): this scan writes after them; asking
  // its new files' times is left (they are asked again, as unsaved, by this scan's quick check).
  c.stopTimes();
  await c.saving;
  if (!mayWrite(c.state)) return plan;
  const { settings, k, kAuto } = c.scanStore.getSnapshot();
  const next: CorpusSettings = { fingerprint: settings, k, kAuto, keepContents: c.snapshot.keepContents };
  // Only other fingerprint settings make the saved corpus unusable; another k only regroups it.
  const change = settingsChange(c.savedSettings, next);
  let rebuild = false;
  if (change === 'fingerprints' && c.base) {
    // Fingerprints made with other settings cannot be mixed: the saved corpus is rebuilt from this
    // scan. A rescan of the whole corpus (the settings panel's) loses nothing; anything smaller asks.
    const kept = c.base.result.docs.count;
    if (docs.count < kept) {
      const ok = await c.ask(
        {
          message:
            `These settings differ from the ones the saved corpus (${kept.toLocaleString('en')} documents) was made with. ` +
            `Rebuild the saved corpus from the ${docs.count.toLocaleString('en')} files of this scan? The other saved documents are removed.`,
          confirm: 'Rebuild the saved corpus',
          cancel: 'Keep the saved corpus',
        },
        signal,
      );
      if (!ok) {
        c.session?.cancel();
        throw new DOMException('The person kept the saved corpus.', 'AbortError');
      }
    }
    rebuild = true;
  }
  await openWriter(c, docs, signal, listed, next, change === 'fingerprints' && c.savedSettings !== null, rebuild, plan.sync !== null);
  return plan;
}

/**
 * Takes the writer lock (waiting for another tab's scan, and saying so), reads storage again if
 * another tab wrote meanwhile, and opens the scan's batch writer. `clearSaved`: fingerprints saved with
 * other settings are cleared first; `rebuild`: the corpus is rebuilt from this scan alone.
 */
async function openWriter(c: CorpusContext, docs: ScanDocs, signal: AbortSignal, listed: readonly SkippedFile[], next: CorpusSettings, clearSaved: boolean, rebuild: boolean, sync: boolean): Promise<void> {
  const k = next.k;
  let release = await tryLock(LOCK_WAIT_MS);
  if (!release) {
    // Another tab is saving a scan. This one waits for it (a scan shown but not saved was thrown
    // away as soon as the other tab's changes arrived) and is then merged with what it saved.
    c.update({ notice: 'Another SimSift tab is saving a scan into the corpus: this scan waits for it and starts when it has finished (Cancel stops waiting).' });
    release = await tryLock(Infinity, signal);
    if (!release) {
      signal.throwIfAborted();
      throw new Error('The saved corpus could not be locked for writing.');
    }
    c.update({ notice: null });
  }
  try {
    await refreshBase(c, signal);
    // Whatever another tab changed before this lock is in `base` now: merged on finish.
    c.missedChange = null;
    if (rebuild || clearSaved) {
      await clearCorpus();
      c.hold({ type: 'emptied' });
    }
    await putSettings(next);
    c.hold({ type: 'settings', settings: next });
    const label = docs.paths[0]?.split('/')[0] ?? 'files';
    let usageAskedAt = -Infinity;
    const writer: BatchWriter = await openBatchWriter(docs, {
      release,
      label,
      total: docs.count,
      notSaved: listed.map((s) => [s.path, s.reason, s.message]),
      sync,
      k,
      // The panel's count follows the commits (it said "0 documents saved" through a whole scan), and so
      // does its storage figure, asked at most every USAGE_EVERY_MS ("corpus 72 KB" beside 20,000 saved).
      onCommitted: (summary) => {
        c.update({ documentCount: summary.documentCount });
        const now = performance.now();
        if (now - usageAskedAt < USAGE_EVERY_MS) return;
        usageAskedAt = now;
        void getStorageUsage()
          .then((usage) => c.update({ usage }))
          .catch(() => undefined);
      },
      saved: c.base && !rebuild ? { docs: c.base.result.docs, at: positionsByPath(c.base.result.docs), storageIds: c.base.storageIds, ...(c.base.search ? { known: c.base.search } : {}) } : null,
      onFailure: (error) => {
        // Stop cleanly: what was committed stays; the failed batch was rolled back as a whole.
        if (isStorageError(error) && error.kind === 'quota') c.session?.stop(storageFull(c, writer.inCorpus, docs, error, writer.lostIds));
        else {
          c.fail(error);
          c.session?.cancel();
        }
      },
    });
    void c.dispatch({ type: 'writer-opened', writer: { writer, rebuild, docs } });
    c.update({ interrupted: null });
    void requestPersistentStorage().catch(() => null);
  } catch (error) {
    release();
    // Opened, then a later step failed: the writer goes with the lock.
    if (c.writing) void c.dispatch({ type: 'writer-released', writer: c.writing });
    // Not even the scan's marker fits: nothing of it can be saved, so it stops here and says so.
    if (isStorageError(error) && error.kind === 'quota') {
      c.session?.stop(storageFull(c, null, docs, error));
      signal.throwIfAborted();
    } else c.fail(error);
  }
}
