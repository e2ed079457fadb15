/**
 * Saving a scan into the corpus: the corpus's stage of every scan (scan-run.ts), calling the scan in order. Before the
 * first batch: the settings question, the writer lock and the batch writer; each batch: its commit;
 * at the end: the merge with the corpus on show, the files a chosen folder no longer holds, the pairs
 * and tables; a full storage stops the scan and keeps the rest for a resume.
 */
import { clearCorpus } from '../storage/corpus-repository.ts';
import { putSettings, settingsChange, type CorpusSettings } from '../storage/settings-repository.ts';
import { isStorageError } from '../storage/storage-error.ts';
import { requestPersistentStorage } from '../storage/storage-quota.ts';
import { exclusionMatcher, NO_EXCLUSIONS, type Exclusions } from '../core/documents/exclusions.ts';
import { getKeepExclusions } from '../storage/keep-marks.ts';
import { forgetFolderHandles, putFolderHandles } from '../storage/folder-handles.ts';
import type { ScanStage, ScanStart, ShownCorpus } from '../scan/scan-run.ts';
import { errorMessage } from '../scan/scan-source.ts';
import { isAbortError } from '../workers/worker-bridge.ts';
import { noContents, type ScanDocs, type SkippedFile } from '../scan/scan-result.ts';
import type { UnchangedFiles, UnchangedTest } from '../scan/quick-check.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import { recordPhase } from '../scan/phase-timing.ts';
import { saveFileTimes } from './file-times.ts';
import { readKeptCopies } from './release-files.ts';
import { LOCK_WAIT_MS, openBatchWriter, tryLock, type BatchWriter } from './corpus-writer.ts';
import { NO_ID } from '../storage/schema.ts';
import { mergeCorpus, positionsByPath, rootOf, type FolderSync, type MergeOutcome } from './merge-corpus.ts';
import { removeFromCorpus } from './corpus-removal.ts';
import { catchUp, groupingOptions, keepTables, refreshBase, saveVerified } from './corpus-loading.ts';
import type { Base, CorpusContext } from './corpus-context.ts';
import { mayWrite } from './corpus-state.ts';
import type { ScanSource } from '../scan/scan-session.ts';

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

/** Whether the corpus on show can stand for unchanged files of a scan with `settings` (see unchangedTest). */
function quickCheckApplies(c: CorpusContext, settings: SimHashSettings): boolean {
  const saved = c.savedSettings;
  if (!saved || !c.base || c.base.result.docs.count === 0 || c.snapshot.rereadAll || settings.weights === 'tfidf' || c.snapshot.status !== 'ready') return false;
  // Also for a corpus saved without passages (containment off): their stage samples them (contained-search.ts).
  return settingsChange(saved, { ...saved, fingerprint: settings }) !== 'fingerprints';
}

/**
 * The quick check against the corpus on show: a path saved (and stored) with this size and a known
 * modification time equal to the file's is not read again. Never with other fingerprint settings (the
 * saved fingerprints would not stand for the file), TF-IDF weights (a document's fingerprint depends on
 * the whole corpus), or after "Re-read every file".
 */
function unchangedTest(c: CorpusContext, settings: SimHashSettings): UnchangedTest | null {
  const base = c.base;
  if (!base || !quickCheckApplies(c, settings)) return null;
  const docs = base.result.docs;
  const at = positionsByPath(docs);
  return {
    saved: (path) => at.has(path),
    unchanged: (path, size, modified) => {
      const q = at.get(path);
      if (q === undefined || base.storageIds[q] === NO_ID) return false;
      const time = docs.modified?.[q] ?? 0;
      const status = docs.status[q];
      // A file saved without a time (0) or never read whole is always read.
      return time > 0 && time === modified && docs.sizes[q] === size && status !== DocStatus.pending && status !== DocStatus.unreadable;
    },
  };
}

/**
 * The files the quick check did not read stand for their saved documents whose contents are not kept:
 * a pair that needs such a document's exact Jaccard reads that one file (it is the saved one: same path,
 * size and time), instead of staying unmeasured.
 */
function lendUnchangedFiles(base: Base, left: UnchangedFiles): void {
  const docs = base.result.docs;
  const at = positionsByPath(docs);
  left.paths.forEach((path, i) => {
    const q = at.get(path);
    if (q !== undefined && docs.files[q] === noContents()) docs.files[q] = left.files[i]!;
  });
}

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
      const plan = await startSaving(c, scan.begin(c.base?.result.docs.count ?? 0), exclusions, scan.signal);
      for await (const batch of scan.read(c.writing !== null && c.snapshot.keepContents)) {
        c.writing?.writer.write(batch.docs, batch.ids, batch.contents, c.snapshot.keepContents, c.tables);
      }
      return await finishSaving(c, await scan.search(), plan, scan.signal);
    } catch (error) {
      endSaving(c, isAbortError(error) || scan.signal.aborted ? 'cancelled' : 'error', errorMessage(error));
      throw error;
    }
  };
}

/** What one scan's saving carries from its start to its end: the folder the corpus follows, the files left unread, the exclusions used. */
interface ScanPlan {
  sync: FolderSync | null;
  notRead: UnchangedFiles | null;
  exclusions: Exclusions;
}

/** Before the first batch: the folder the corpus follows, the settings question, the writer lock and the batch writer. */
async function startSaving(c: CorpusContext, start: ScanStart, exclusions: Exclusions, signal: AbortSignal): Promise<ScanPlan> {
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
  const { settings, k } = c.scanStore.getSnapshot();
  const next: CorpusSettings = { fingerprint: settings, k, keepContents: c.snapshot.keepContents };
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

/** After the search: the merge with the corpus on show, then (behind the results) the writer's last commits, removals, pairs, tables and times. */
async function finishSaving(c: CorpusContext, own: ShownCorpus, plan: ScanPlan, signal: AbortSignal): Promise<ShownCorpus> {
  const w = c.writing;
  // Storage ids are given as batches arrive (each batch's write), so the result can show before the batches
  // still queued have committed: with kept contents those writes end well after the scan (100,000
  // files: ~20 s, Chromium writing one blob file per document). They finish behind the results;
  // a tab closed meanwhile keeps every committed batch and is offered the resume.
  const storageIds: Uint32Array = w ? w.writer.storageIdOf : new Uint32Array(own.result.docs.count).fill(NO_ID);
  const before = w?.rebuild ? null : c.base;
  const ownPart = { result: own.result, storageIds, search: own.corpus };
  const sync = plan.sync ?? undefined;
  // "Re-read every file" was for this scan of the folder: the next one checks sizes and times again.
  if (sync && c.snapshot.rereadAll) c.update({ rereadAll: false });
  if (before && plan.notRead) lendUnchangedFiles(before, plan.notRead);
  const outcome = before ? await mergeInto(c, before, ownPart, signal, plan) : null;
  const merged = outcome?.merged ?? ownPart;
  // Saved files the chosen folder no longer holds: out of the corpus (their copies take over).
  const missing = outcome && outcome.missing.positions.length > 0 ? { shown: { docs: before!.result.docs, storageIds: before!.storageIds }, positions: outcome.missing.positions } : null;
  c.base = merged;
  if (w) {
    void c.dispatch({ type: 'writer-released', writer: w });
    const tSaving = performance.now();
    // The new files' times are asked last (file-times.ts); the next scan stops that (see startSaving).
    const times = stoppableTimes(c);
    c.saving = w.writer
      .settled()
      .then(() => w.writer.close(closingState(c, w.writer)))
      .then(() => (missing ? removeFromCorpus(missing.shown, missing.positions, w.writer.replacedPositions) : null))
      .then((removal) => void (removal && removal.rewritten > 0 && (c.tablesStale = true)))
      .then(() => c.notify('added'))
      // Another tab changed the corpus once this scan's lock was released (cleared it, say): the
      // merged result no longer describes storage, so it is not saved but loaded again.
      .then(() => (c.missedChange ? undefined : saveVerified(c, merged)))
      .then(() => (c.missedChange ? undefined : keepTables(c, merged, w.writer.failed || w.writer.tablesMissed)))
      .then(() => (c.missedChange ? undefined : saveFileTimes(merged.result.docs, merged.storageIds, w.writer.lostIds, times)))
      // Asked their times, the Files are let go where the contents were kept (release-files.ts).
      .then(() => (c.missedChange || times.aborted || !c.snapshot.keepContents ? false : readKeptCopies(merged)))
      // Every document reads its kept copy: the session's listing (for a rescan) lets go of its Files too.
      .then((moved) => void (moved && c.session?.forgetListing()))
      .catch(() => undefined)
      .then(() => catchUp(c))
      // What saving still took once the results were on show (batches committed during the scan are not in it).
      .then(() => recordPhase('saving-after-results', tSaving, performance.now(), { documents: w.writer.committed }))
      .then(c.refreshUsage);
    c.track(c.saving);
  } else {
    void c.refreshUsage();
    // After the session has shown this result (it does so as soon as finish returns).
    setTimeout(() => void catchUp(c), 0);
  }
  return outcome ? outcome.grouped : own;
}

/** The scan ended without a final result (cancelled or failed): its writer closes. */
function endSaving(c: CorpusContext, state: 'cancelled' | 'error', message: string): void {
  const w = c.writing;
  if (!w) return;
  void c.dispatch({ type: 'writer-released', writer: w });
  c.track(closeEnded(c, w, state, message));
}

/**
 * Closes the writer of a scan that ended without its result. The new files it saved were to be asked
 * their times once the results showed, which they never do: asked now (unless a new scan has started),
 * else a resume, which reads only the files not saved yet, would leave them without one. The next scan
 * stops it, as after a finished scan.
 */
function closeEnded(c: CorpusContext, w: NonNullable<CorpusContext['writing']>, state: 'cancelled' | 'error', message: string | undefined): Promise<void> {
  const ended = w.writer.failed ? closingState(c, w.writer) : state === 'cancelled' ? 'cancelled' : 'failed';
  const times = stoppableTimes(c);
  const askTimes = !w.writer.failed && c.scanStore.getSnapshot().state !== 'scanning';
  return w.writer
    .close(ended, message)
    .then(() => (askTimes && !c.missedChange ? saveFileTimes(w.docs, w.writer.storageIdOf, w.writer.lostIds, times) : undefined))
    .catch(() => undefined)
    .then(() => c.notify('added'))
    .then(() => catchUp(c))
    .then(c.refreshUsage);
}

/** A new stop for asking the last scan's files their times (`c.stopTimes`, which the next scan calls). */
function stoppableTimes(c: CorpusContext): AbortSignal {
  const times = new AbortController();
  c.stopTimes = () => times.abort();
  return times.signal;
}

/** How a finished writer's scan ended: 'storage-full' makes the next load say the corpus is partial. */
function closingState(c: CorpusContext, writer: BatchWriter): 'finished' | 'failed' | 'storage-full' {
  if (!writer.failed) return 'finished';
  return c.state.kind === 'storage-full' ? 'storage-full' : 'failed';
}

/** The merge step (merge-corpus.ts) over the shown corpus; the panel hears how many pairs could not be measured, and which files left. */
async function mergeInto(c: CorpusContext, before: Base, own: Base, signal: AbortSignal, plan: ScanPlan): Promise<MergeOutcome> {
  const sync = plan.sync ?? undefined;
  const outcome = await mergeCorpus(c.workers, signal, before, own, groupingOptions(own.result), sync);
  c.update({ unmeasured: outcome.unmeasured });
  const n = (x: number) => x.toLocaleString('en');
  const parts = [];
  const files = (x: number) => `${n(x)} file${x === 1 ? '' : 's'}`;
  const notRead = plan.notRead?.paths.length ?? 0;
  if (notRead > 0) parts.push(`${files(notRead)} unchanged (same size and modification time: not read)`);
  if (outcome.unchanged > 0) parts.push(`${notRead > 0 ? n(outcome.unchanged) : files(outcome.unchanged)} read again, contents unchanged`);
  const named = (paths: readonly string[]) => `${paths.slice(0, 10).join(', ')}${paths.length > 10 ? ` and ${n(paths.length - 10)} more` : ''}`;
  // Named, as new files are: a file changed since the last scan (or since the CLI's) is the one to look at.
  if (outcome.updated > 0) parts.push(`${n(outcome.updated)} changed: ${named(outcome.changed)}`);
  if (sync) {
    // A folder chosen again: the files that came back (they had left the corpus in this page) and the new ones, by name.
    const back = outcome.added.filter((p) => c.leftPaths.has(p));
    const fresh = outcome.added.filter((p) => !c.leftPaths.has(p));
    for (const p of back) c.leftPaths.delete(p);
    if (back.length > 0) parts.push(`${n(back.length)} file${back.length === 1 ? '' : 's'} came back to the folder and joined the corpus again: ${named(back)}`);
    if (fresh.length > 0 && notRead + outcome.unchanged + outcome.updated > 0) parts.push(`${n(fresh.length)} new: ${named(fresh)}`);
  }
  for (const p of outcome.missing.paths) c.leftPaths.add(p);
  // A file the exclusions now match left as a file not in the folder does, but it is still there: said so.
  const excludedBy = exclusionMatcher(plan.exclusions);
  const excluded = outcome.missing.paths.filter((p) => excludedBy(p) !== null);
  const gone = excluded.length === 0 ? outcome.missing.paths : outcome.missing.paths.filter((p) => excludedBy(p) === null);
  if (gone.length > 0) {
    parts.push(`${n(gone.length)} file${gone.length === 1 ? ' is' : 's are'} no longer in the folder and left the corpus: ${named(gone)}`);
  }
  if (excluded.length > 0) parts.push(`${files(excluded.length)} left out by your exclusions left the corpus: ${named(excluded)}`);
  if (parts.length > 0) c.update({ notice: `${parts.join('; ')}.` });
  return outcome;
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
      c.base = null;
      c.tables = null;
    }
    await putSettings(next);
    c.savedSettings = next;
    const label = docs.paths[0]?.split('/')[0] ?? 'files';
    const writer: BatchWriter = await openBatchWriter(docs, {
      release,
      label,
      total: docs.count,
      notSaved: listed.map((s) => [s.path, s.reason, s.message]),
      sync,
      k,
      // The panel's count follows the commits (it said "0 documents saved" through a whole scan).
      onCommitted: (summary) => c.update({ documentCount: summary.documentCount }),
      saved: c.base && !rebuild ? { docs: c.base.result.docs, at: positionsByPath(c.base.result.docs), storageIds: c.base.storageIds } : null,
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
