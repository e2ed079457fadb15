/**
 * Loading the saved corpus: the restore on page load (and after a removal or another tab's change),
 * reading storage again before a scan writes when another tab wrote meanwhile, and keeping the saved
 * pairs and tables in line with the corpus on show.
 */
import { getCorpusSummary, loadCorpus } from '../storage/corpus-repository.ts';
import { findUnfinishedScan, listNotSavedFiles } from '../storage/scan-sessions.ts';
import { getSettings, putSettings, settingsChange } from '../storage/settings-repository.ts';
import { isStaleRule, STALE_RULE_NOTICE } from '../storage/fingerprint-rule.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import { getSavedPins, getSavedView, getVerifiedPairs, putVerifiedPairs } from '../storage/verified-pairs.ts';
import type { VerifiedPairs } from '../storage/verified-pairs.ts';
import type { Grouping, ScanResult } from '../scan/scan-result.ts';
import { yieldToEventLoop } from '../scan/yield-to-event-loop.ts';
import { recordPhase } from '../scan/phase-timing.ts';
import { LOCK_WAIT_MS, tryLock } from './corpus-writer.ts';
import { NO_ID } from '../core/ids.ts';
import { groupSavedCorpus, loadSmallSets, restoreFiles, savedPairsFit, verifiedByStorageId } from './restore-corpus.ts';
import type { RestorePhase } from './restore-corpus.ts';
import { loadTables, syncTables } from './stored-tables.ts';
import type { Base, CorpusContext, PersistenceSnapshot } from './corpus-context.ts';
import { asRevision } from './corpus-held.ts';

/** Saves the shown result's verified pairs for the next restore (skipped while another tab writes). */
export async function saveVerified(c: CorpusContext, shown: Base): Promise<void> {
  try {
    await withWriterLock(
      async () => {
        const { revision } = await getCorpusSummary();
        await putVerifiedPairs(revision, verifiedByStorageId(shown.result, shown.storageIds, NO_ID));
        // Under the lock: `shown` is the corpus at this revision (this tab's own writes included).
        c.hold({ type: 'revision', revision: asRevision(revision), of: shown });
        // The k on show (a regroup may have changed it) is the one the next load restores, and the next
        // scan keeps it if the person chose it.
        const { kAuto } = c.scanStore.getSnapshot();
        if (c.savedSettings && (c.savedSettings.k !== shown.result.k || (c.savedSettings.kAuto ?? true) !== kAuto)) {
          const next = { ...c.savedSettings, k: shown.result.k, kAuto };
          await putSettings(next);
          c.hold({ type: 'settings', settings: next });
        }
      },
      // The scan's own lock is released asynchronously just before this: wait a little for it
      // (without waiting, the pairs of a scan were never saved), but not for another tab's scan.
      { wait: true, signal: AbortSignal.timeout(LOCK_WAIT_MS) },
    );
  } catch {
    // Only a speed-up for the next restore: without it the restore verifies again.
  }
}

/** Shows which index the checks use. */
export function publishIndex(c: CorpusContext): void {
  c.update({ index: c.tables ? { kind: 'tables', tableCount: c.tables.tableCount, k: c.tables.k } : c.base ? { kind: 'linear' } : null });
}

/** Brings the stored tables in line with `shown` (written or rebuilt when they pay for this corpus and k). */
export async function keepTables(c: CorpusContext, shown: Base, incomplete: boolean): Promise<void> {
  c.hold({ type: 'tables', tables: await syncTables(c.workers, shown, c.tables, incomplete) });
  publishIndex(c);
}

/** The grouping options of a result (what a merge or a restore groups with). */
export const groupingOptions = (r: Pick<ScanResult, 'settings' | 'k' | 'similarityThreshold' | 'grouping' | 'containmentThreshold'>) => ({
  settings: r.settings,
  k: r.k,
  similarityThreshold: r.similarityThreshold,
  grouping: r.grouping,
  ...(r.containmentThreshold !== undefined ? { containmentThreshold: r.containmentThreshold } : {}),
});

/**
 * Loads the saved corpus and its groups and has the session show them (state 'done' once restored).
 * `carried`: pairs verified before a change this tab made (a removal), whose Jaccards spare re-reading files.
 */
export async function restore(c: CorpusContext, carried?: VerifiedPairs): Promise<void> {
  const t0 = performance.now();
  const phase = (p: RestorePhase) => {
    const now = performance.now();
    c.update({ restore: { phase: p, phaseStartedMs: now, startedMs: t0, nowMs: now } });
  };
  // The elapsed time ticks while the workers search (the main thread stays free).
  const ticker = setInterval(() => {
    if (c.snapshot.restore) c.update({ restore: { ...c.snapshot.restore, nowMs: performance.now() } });
  }, 1000);
  try {
    await restoreWithProgress(c, carried, t0, phase);
  } finally {
    clearInterval(ticker);
    c.update({ restore: null });
  }
}

async function restoreWithProgress(c: CorpusContext, carried: VerifiedPairs | undefined, t0: number, phase: (p: RestorePhase) => void): Promise<void> {
  void c.dispatch({ type: 'restore-started' });
  const revision = (await getCorpusSummary()).revision;
  phase('loading the corpus');
  c.hold({ type: 'settings', settings: await getSettings() });
  if (c.savedSettings) {
    // A k the person chose stays chosen: the next scan keeps it (scan-run.ts begin), as before the reload.
    c.scanStore.update({ settings: c.savedSettings.fingerprint, k: c.savedSettings.k, kAuto: c.savedSettings.kAuto ?? true });
    c.update({ keepContents: c.savedSettings.keepContents });
    if (isStaleRule(c.savedSettings)) c.update({ notice: STALE_RULE_NOTICE });
  }
  const summary = await getCorpusSummary();
  // A 'running' marker is an interrupted scan only if no tab holds the writer lock (is scanning).
  const release = await tryLock();
  let interrupted: PersistenceSnapshot['interrupted'] = null;
  if (release) {
    try {
      const unfinished = await findUnfinishedScan();
      if (unfinished && unfinished.id !== undefined) {
        interrupted = {
          id: unfinished.id,
          label: unfinished.label,
          committed: unfinished.committed,
          total: unfinished.total,
          storageFull: unfinished.state === 'storage-full',
          cancelled: unfinished.state === 'cancelled',
          sync: unfinished.sync === true,
        };
      }
    } finally {
      release();
    }
  }
  // Asked at once, before the (possibly long) grouping of the restored corpus.
  c.update({ interrupted, documentCount: summary.documentCount });
  recordPhase('restore-settings', t0, performance.now());
  if (summary.documentCount > 0) {
    const signal = new AbortController().signal;
    const { restored, saved, options, part } = await loadBase(c, signal, true, carried, phase);
    const { grouped } = restored;
    const result = grouped.result;
    result.timings.totalMs = performance.now() - t0;
    c.hold({ type: 'revision', revision: asRevision(revision) });
    // Saved before 'done', so a tab closed right after the restore still finds them next time.
    if (!saved || !savedPairsFit(saved, options)) await saveVerified(c, part);
    c.update({ documentCount: summary.documentCount });
    // A scan started meanwhile wins: the session does not show this over it.
    if (c.scanStore.getSnapshot().state !== 'scanning') {
      // The session regroups the restored corpus like a scan's result (slider, settings panel);
      // its regrouped hook saves the new view over these storage ids.
      // The references the person chose come back with the groups (a regroup keeps them).
      c.scanStore.update({ pinned: restored.pinned });
      const shownAt = performance.now();
      c.session?.show(grouped);
      recordPhase('restore-show', shownAt, performance.now());
      // Tables from before (or none yet): written or rebuilt when they pay for this corpus and k.
      c.track(
        c.restoring.then(async () => {
          const tablesAt = performance.now();
          await keepTables(c, part, false);
          recordPhase('restore-keep-tables', tablesAt, performance.now());
        }),
      );
      // The fast restore read no file: the short documents' sets (for a regroup at another k) come after.
      if (restored.fast) void loadSmallSets(c.workers, signal, grouped.corpus).catch(() => undefined);
    }
  } else {
    c.hold({ type: 'emptied', revision: asRevision(revision) });
    if (c.scanStore.getSnapshot().state === 'done') c.session?.reset();
  }
  void c.dispatch({ type: 'restored' });
  c.update({ documentCount: summary.documentCount });
  publishIndex(c);
  void c.refreshUsage();
}

/**
 * The restore step over what storage holds now: loads the corpus, its Files and saved pairs, groups
 * them (groupSavedCorpus) and makes them `base`. `useSavedView`: take the saved threshold and grouping.
 */
export async function loadBase(c: CorpusContext, signal: AbortSignal, useSavedView: boolean, carried?: VerifiedPairs, phase?: (p: RestorePhase) => void) {
  let t = performance.now();
  // Each step as a measure (simsift:restore-*), for the reload bench and the browser's performance panel.
  const step = (name: string) => {
    const now = performance.now();
    recordPhase(`restore-${name}`, t, now);
    t = now;
  };
  const loaded = await loadCorpus({ pause: yieldToEventLoop });
  step('corpus');
  const files = await restoreFiles(loaded, c.snapshot.keepContents);
  step('contents');
  const saved = await getVerifiedPairs();
  step('saved-pairs');
  const listedNotSaved = await listNotSavedFiles();
  step('not-saved');
  // The last view's threshold and grouping come back with the pairs decided under them, or alone when a
  // later write (a cancelled scan's batches) left those pairs behind.
  const view = useSavedView ? (saved ?? (await getSavedView())) : null;
  if (view) {
    const containment = view.containment !== undefined ? { containmentThreshold: view.containment } : {};
    c.scanStore.update({ similarityThreshold: view.threshold, grouping: view.grouping as Grouping, ...containment });
  }
  const options = groupingOptions(c.scanStore.getSnapshot());
  // The saved sizes and sketches are of the stored fingerprint settings and rule: grouped under others
  // (an older rule's corpus, settings changed meanwhile), they would mislead the bounds.
  const stored = c.savedSettings;
  if (stored && settingsChange(stored, { k: stored.k, keepContents: stored.keepContents, fingerprint: options.settings }) === 'fingerprints') {
    loaded.setSizes.fill(0);
    loaded.sketches.fill(0);
  }
  // The references a person chose outlive saved pairs a later write left behind.
  const pins = saved ? null : await getSavedPins();
  const restored = await groupSavedCorpus(c.workers, signal, loaded, files, saved, options, carried, phase, listedNotSaved, pins);
  step('grouping');
  const part: Base = { result: restored.grouped.result, storageIds: restored.storageIds, search: restored.grouped.corpus };
  // On show at once (the tables it had stay until the stored ones are read).
  c.hold({ type: 'loaded', base: part, tables: c.tables });
  c.hold({ type: 'tables', tables: await loadTables() });
  step('tables');
  return { restored, saved, options, part };
}

/**
 * Before a scan writes (holding the lock): when another tab changed the corpus since `base` was
 * read (this tab was busy and skipped its notice), read it again, so the scan merges with it.
 */
export async function refreshBase(c: CorpusContext, signal: AbortSignal): Promise<void> {
  const summary = await getCorpusSummary();
  if (summary.revision === c.baseRevision) return;
  if (summary.documentCount === 0) c.hold({ type: 'emptied' });
  else await loadBase(c, signal, false);
  c.hold({ type: 'revision', revision: asRevision(summary.revision) });
}

/** Restores the saved corpus (the panel's 'restoring'), failures shown; `restoring` says when it is done. */
export function runRestore(c: CorpusContext, carried?: VerifiedPairs): Promise<void> {
  return (c.restoring = c.guarded(() => restore(c, carried)));
}

/** Loads the corpus another tab changed while this one scanned, so no result stands over a corpus that is gone. */
export async function catchUp(c: CorpusContext): Promise<void> {
  const change = c.missedChange;
  if (!change || c.scanStore.getSnapshot().state === 'scanning') return;
  c.missedChange = null;
  await c.guarded(async () => {
    await runRestore(c);
    c.update({ notice: `The saved corpus was changed in another tab (${change.reason}); this view was refreshed.` });
  });
}

/** Follows other tabs' writes: reloads from storage (while this tab scans, once its result is on show). Returns the unsubscribe. */
export function followOtherTabs(c: CorpusContext): () => void {
  return c.channel.subscribe((change) => {
    c.missedChange = change;
    if (c.scanStore.getSnapshot().state === 'scanning') return;
    void catchUp(c);
  });
}

