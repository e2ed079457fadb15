/**
 * What a person does to the saved corpus from its panel, each a function of the corpus context that
 * changes storage under the writer lock and then what is on show: resume, keep, clear, reset, keep
 * contents, remove, check. (Scanning into the corpus is corpus-scan-saving.ts and its start and finish.)
 */
import { isStaleRule, STALE_RULE_NOTICE } from '../storage/fingerprint-rule.ts';
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { clearCorpus } from '../storage/corpus-repository.ts';
import { findStoredPaths } from '../storage/corpus-reads.ts';
import { deleteCorpusDatabase } from '../storage/database.ts';
import { endScanSession } from '../storage/scan-sessions.ts';
import { putSettings } from '../storage/settings-repository.ts';
import type { CorpusSettings } from '../storage/settings-repository.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import { checkFile } from './check-against-corpus.ts';
import type { CheckResult, CheckTools } from './check-against-corpus.ts';
import { NO_ID, type DocId } from '../core/ids.ts';
import { removeFromCorpus } from './corpus-removal.ts';
import { verifiedByStorageId } from './restore-corpus.ts';
import { storedTableSearch } from './stored-tables.ts';
import type { Base, CorpusContext } from './corpus-context.ts';
import { runRestore } from './corpus-loading.ts';

/** Rescans the files of `files` not saved yet (after an interrupted scan); the marker is closed. */
export async function resume(c: CorpusContext, files: File[]): Promise<void> {
  await c.restoring;
  await c.guarded(async () => {
    const paths = files.map((f) => f.webkitRelativePath || f.name);
    const stored = await findStoredPaths(paths);
    const missing = files.filter((_, i) => !stored.has(paths[i]!));
    const marker = c.snapshot.interrupted;
    if (marker) await withWriterLock(() => endScanSession(marker.id, 'interrupted'), { wait: true });
    c.scanNotice = `Resuming: ${missing.length.toLocaleString('en')} of ${files.length.toLocaleString('en')} files were not saved yet.`;
    c.update({ interrupted: null, notice: c.scanNotice });
    // A folder's scan resumed syncs to the whole folder: its saved files gone from it leave, as they
    // would have at the end of the scan that was interrupted.
    if (marker?.sync) void c.session?.start({ kind: 'file-list', files: missing, sync: true, folderPaths: paths });
    else if (missing.length > 0) void c.session?.start({ kind: 'file-list', files: missing });
  });
}

/** Scans again the files a full storage kept out (after space was freed). */
export async function resumeStopped(c: CorpusContext): Promise<void> {
  await c.dispatch({ type: 'resume-stopped' });
}

/** Keeps what the interrupted scan saved and forgets its marker. */
export async function keepInterrupted(c: CorpusContext): Promise<void> {
  await c.guarded(async () => {
    const marker = c.snapshot.interrupted;
    if (marker) await withWriterLock(() => endScanSession(marker.id, 'interrupted'), { wait: true });
    c.update({ interrupted: null });
  });
}

/** Cancels a scan, empties the saved corpus and tells the other tabs. */
export async function clear(c: CorpusContext): Promise<void> {
  await c.guarded(async () => {
    c.session?.cancel();
    // One transaction: the folders' handles and CLI roots go with the corpus they were kept for.
    await withWriterLock(() => clearCorpus({ withFolders: true }), { wait: true });
    c.leftPaths.clear();
    c.hold({ type: 'emptied' });
    c.session?.reset();
    void c.dispatch({ type: 'cleared' });
    c.update({ interrupted: null, checks: null, index: null, unmeasured: 0, notice: 'The saved corpus was cleared.' });
    c.notify('cleared');
    await c.refreshUsage();
  });
}

/** Deletes the whole database (also a damaged one, or one from a newer version). */
export async function resetLocalData(c: CorpusContext): Promise<void> {
  try {
    c.session?.cancel();
    await deleteCorpusDatabase();
    c.hold({ type: 'reset' });
    c.session?.reset();
    void c.dispatch({ type: 'reset' });
    c.update({ documentCount: 0, interrupted: null, checks: null, unmeasured: 0, notice: 'Local data was reset.' });
    c.channel.notify('reset', 0);
    await c.refreshUsage();
  } catch (error) {
    c.fail(error);
  }
}

/** Saves whether the files' contents are kept with the corpus. */
export async function setKeepContents(c: CorpusContext, keep: boolean): Promise<void> {
  await c.guarded(async () => {
    const { settings, k, kAuto } = c.scanStore.getSnapshot();
    // The saved fingerprints' rule stays (a corpus of an older rule is not made current by this).
    const next: CorpusSettings = { fingerprint: c.savedSettings?.fingerprint ?? settings, k: c.savedSettings?.k ?? k, kAuto: c.savedSettings ? c.savedSettings.kAuto : kAuto, keepContents: keep, rule: c.savedSettings?.rule };
    await withWriterLock(() => putSettings(next), { wait: true });
    c.hold({ type: 'settings', settings: next });
    c.update({ keepContents: keep });
    c.notify('settings');
    await c.refreshUsage();
  });
}

/** Removes the documents at `positions` of the corpus on show, then loads it again from storage. */
export async function remove(c: CorpusContext, positions: readonly DocId[]): Promise<void> {
  await c.guarded(async () => {
    if (!c.base) return;
    const carried = verifiedByStorageId(c.base.result, c.base.storageIds, NO_ID);
    // The shown documents, resolved: a copy of a removed original carries the class's fingerprint.
    // One transaction: the documents, their contents, a class's new head with its table entries.
    const outcome = await removeFromCorpus({ docs: c.base.result.docs, storageIds: c.base.storageIds, ...(c.base.search ? { known: c.base.search } : {}) }, positions, undefined, c.tables);
    if (!outcome) {
      c.update({ notice: 'This document is not in the saved corpus (the scan that found it was not saved).' });
      return;
    }
    const removed = outcome.removed;
    c.notify('removed');
    // Regrouped from storage: copies of a removed text get a new representative, pairs are searched again.
    await runRestore(c, carried);
    c.update({ notice: `${removed.toLocaleString('en')} document${removed === 1 ? ' was' : 's were'} removed from the saved corpus.` });
  });
}

/** Matches `files` against the corpus on show without adding them. */
export async function check(c: CorpusContext, files: File[]): Promise<void> {
  await c.guarded(async () => {
    if (!c.base) {
      c.update({ notice: 'There is no saved corpus to check against yet.' });
      return;
    }
    if (isStaleRule(c.savedSettings)) {
      c.update({ notice: STALE_RULE_NOTICE });
      return;
    }
    c.update({ checking: true, checks: null });
    try {
      c.update({ checks: await checkFiles(c, c.base, files) });
    } finally {
      c.update({ checking: false });
    }
  });
}

/** Fingerprints the files like the pipeline does (ingest worker), then matches them without adding them. */
async function checkFiles(c: CorpusContext, shown: Base, files: File[]): Promise<CheckResult[]> {
  const { result } = shown;
  const featureSets = createFingerprinter({ ...result.settings, weights: 'binary' });
  const t = c.tables && result.k <= c.tables.k ? c.tables : null;
  const tools: CheckTools = {
    ingest: (name: string, bytes: Uint8Array) => c.workers.ingest.run(undefined, (api) => api.ingestBatch([{ name, bytes }], result.settings, {})),
    featureSet: (text: string) => featureSets.featureSet(text),
    threshold: result.similarityThreshold,
    near: t ? storedTableSearch(shown, t) : undefined,
  };
  const out: CheckResult[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    out.push(await checkFile(result.docs, result.k, file.webkitRelativePath || file.name, bytes, tools));
  }
  return out;
}
