/**
 * The end of a scan's saving: the merge with the corpus on show and what the panel says of it, then
 * (behind the shown result) the writer's last commits, the files a chosen folder no longer holds, the
 * pairs, tables and times; or, for a scan that ended without a result, its writer's close.
 */
import type { StorageIds } from '../core/ids.ts';
import { exclusionMatcher } from '../core/documents/exclusions.ts';
import type { ShownCorpus } from '../scan/scan-run.ts';
import { recordPhase } from '../scan/phase-timing.ts';
import { saveFileTimes } from './file-times.ts';
import { readKeptCopies } from './release-files.ts';
import type { BatchWriter } from './corpus-writer.ts';
import { NO_ID } from '../core/ids.ts';
import { mergeCorpus, type MergeOutcome } from './merge-corpus.ts';
import { removeFromCorpus } from './corpus-removal.ts';
import { catchUp, groupingOptions, keepTables, saveVerified } from './corpus-loading.ts';
import type { Base, CorpusContext } from './corpus-context.ts';
import type { ScanPlan } from './corpus-scan-start.ts';
import { lendUnchangedFiles } from './corpus-quick-check.ts';

/** After the search: the merge with the corpus on show, then (behind the results) the writer's last commits, removals, pairs, tables and times. */
export async function finishSaving(c: CorpusContext, own: ShownCorpus, plan: ScanPlan, signal: AbortSignal): Promise<ShownCorpus> {
  const w = c.writing;
  // Storage ids are given as batches arrive (each batch's write), so the result can show before the batches
  // still queued have committed: with kept contents those writes end well after the scan (Chromium
  // writes a file per stored Blob). They finish behind the results;
  // a tab closed meanwhile keeps every committed batch and is offered the resume.
  const storageIds: StorageIds = w ? w.writer.storageIdOf : (new Uint32Array(own.result.docs.count).fill(NO_ID) as StorageIds);
  const before = w?.rebuild ? null : c.base;
  const ownPart = { result: own.result, storageIds, search: own.corpus };
  const sync = plan.sync ?? undefined;
  // "Re-read every file" was for this scan of the folder: the next one checks sizes and times again.
  if (sync && c.snapshot.rereadAll) c.update({ rereadAll: false });
  if (before && plan.notRead) lendUnchangedFiles(before, plan.notRead);
  const outcome = before ? await mergeInto(c, before, ownPart, signal, plan) : null;
  const merged = outcome?.merged ?? ownPart;
  // Saved files the chosen folder no longer holds: out of the corpus (their copies take over).
  const missing = outcome && outcome.missing.positions.length > 0 ? { shown: { docs: before!.result.docs, storageIds: before!.storageIds, ...(before!.search ? { known: before!.search } : {}) }, positions: outcome.missing.positions } : null;
  c.hold({ type: 'replaced', base: merged });
  if (w) {
    void c.dispatch({ type: 'writer-released', writer: w });
    const tSaving = performance.now();
    // The new files' times are asked last (file-times.ts); the next scan stops that (see startSaving).
    const times = stoppableTimes(c);
    c.saving = w.writer
      .settled()
      .then(() => w.writer.close(closingState(c, w.writer)))
      .then(() => (missing ? removeFromCorpus(missing.shown, missing.positions, w.writer.replacedPositions, c.tables) : null))
      // Successors' entries went in with the removal; only tables of another layout were dropped.
      .then((removal) => void (removal?.tables === 'dropped' && c.hold({ type: 'tables', tables: null })))
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
export function endSaving(c: CorpusContext, state: 'cancelled' | 'error', message: string): void {
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
