/**
 * `simsift apply --undo LOG`: moves each file an apply moved back from the quarantine to its place under
 * the root, only when the log, its quarantine and its root are still what the apply recorded and the
 * file holds the bytes the log recorded; never over a file that reappeared at its place.
 */
import { readFile, realpath, stat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { bytesHash } from '../core/export/plan.ts';
import { pathParts } from '../core/export/plan-paths.ts';
import { errorCode, UsageError, write, type CliIo } from './cli-common.ts';
import { exists, moveVerified, readChecked, realPathOf, resolveUnder, unchanged } from './apply-paths.ts';
import { checkBelow, lockRoot } from './apply-lock.ts';
import { places } from './apply-root.ts';
import { SIGNAL_CODES, watchSignals, type ApplyHooks, type Signals } from './apply-signals.ts';
import { escapeName } from './terminal-names.ts';
import { isLogPlace, parseUndoLog, type UndoEntry, type UndoLog } from './undo-log.ts';

/**
 * The log's root must still be the folder the apply resolved: an absolute real path (no symbolic link on
 * it now), a folder, with the inode the log recorded. Else nothing is put back (UsageError).
 */
async function checkLogRoot(logFile: string, log: UndoLog): Promise<void> {
  const named = `${escapeName(logFile)}: its root ${JSON.stringify(log.root)}`;
  if (!isAbsolute(log.root)) throw new UsageError(`${named} must be an absolute path; refused`);
  let real: string;
  let info;
  try {
    real = await realpath(log.root);
    info = await stat(real);
  } catch (error) {
    throw new UsageError(`${named} cannot be read (${errorCode(error)}); nothing put back`);
  }
  if (real !== log.root) throw new UsageError(`${named} now leads to ${escapeName(real)} (a symbolic link on its path); files go back only into the folder the apply moved them from, by its real path; refused`);
  if (!info.isDirectory()) throw new UsageError(`${named} is not a folder; refused`);
  if (log.root_inode !== undefined && info.ino !== log.root_inode) {
    throw new UsageError(`${named} is not the folder the apply moved from (another folder is there now, or the log was edited; the log records its inode ${log.root_inode}); refused`);
  }
}

/** Runs `simsift apply --undo LOG`: puts back every file of the log it can, under the root's lock; returns the exit code. */
export async function runUndo(logFile: string, dryRun: boolean, io: CliIo, hooks: ApplyHooks): Promise<number> {
  let log: UndoLog;
  try {
    log = parseUndoLog(await readFile(logFile, 'utf8'));
  } catch (error) {
    throw new UsageError(`${escapeName(logFile)}: ${(error as NodeJS.ErrnoException).code ? `cannot read it (${errorCode(error)})` : error instanceof Error ? error.message : String(error)}`);
  }
  // The log must lie in the quarantine it names, and the quarantine outside the root: an entry can then only
  // move a file from that folder back under the root.
  const quarantine = await realPathOf(resolve(dirname(logFile)));
  if (log.quarantine !== quarantine) throw new UsageError(`${escapeName(logFile)} names the quarantine ${escapeName(log.quarantine)} but lies in ${escapeName(quarantine)}: refused`);
  await checkLogRoot(logFile, log);
  const { root } = await places(log.root, quarantine);
  const lock = dryRun ? null : await lockRoot(root, 'simsift apply --undo');
  const signals = dryRun ? null : watchSignals();
  try {
    if (lock?.tookOver) await write(io.stderr, `simsift apply --undo: ${lock.tookOver}\n`);
    return await undoLocked(log, root, quarantine, dryRun, io, hooks, signals);
  } finally {
    signals?.stop();
    await lock?.release();
  }
}

type UndoStep = { kind: 'back' | 'already'; line?: string } | { kind: 'refused'; why: string } | { kind: 'stopped' };

async function undoLocked(log: UndoLog, root: string, quarantine: string, dryRun: boolean, io: CliIo, hooks: ApplyHooks, signals: Signals | null): Promise<number> {
  let back = 0;
  let already = 0;
  const refused: string[] = [];
  for (const m of log.moves) {
    if (signals?.caught) break;
    const step = await undoOne(m, root, quarantine, dryRun, hooks, () => signals?.caught ?? null);
    if (step.kind === 'stopped') break;
    if (step.kind === 'refused') refused.push(`${escapeName(m.path)}: ${step.why}`);
    else if (step.kind === 'back') back++;
    else already++;
    if (step.kind !== 'refused' && step.line) await write(io.stdout, step.line);
  }
  for (const line of refused) await write(io.stdout, `${dryRun ? 'would not put back' : 'not put back'} ${line}\n`);
  const counts = `${back} of ${log.moves.length} files${already > 0 ? `; ${already} already in place` : ''}; ${refused.length} not`;
  if (signals?.caught) {
    await write(io.stderr, `simsift apply --undo: interrupted by ${signals.caught}: put back ${counts}; run it again for the rest\n`);
    return SIGNAL_CODES[signals.caught];
  }
  await write(io.stderr, `simsift apply --undo: ${dryRun ? 'dry run: would put back' : 'put back'} ${counts}\n`);
  return refused.length > 0 && !dryRun ? 1 : 0;
}

/** Puts back the file of one log entry (or says why not); `stopped` tells whether a signal came before the move. */
async function undoOne(m: UndoEntry, root: string, quarantine: string, dryRun: boolean, hooks: ApplyHooks, stopped: () => string | null): Promise<UndoStep> {
  const name = escapeName(m.path);
  const home = escapeName(join(root, m.path));
  if (isLogPlace(m.path)) return { kind: 'refused', why: 'names an undo log, not a file the apply moved; left there' };
  const from = await resolveUnder(quarantine, m.path);
  // Its folder under the root may be gone: made again only when the file is put back.
  let to = await resolveUnder(root, m.path);
  const folderGone = !to.ok && to.why === 'missing';
  if (!from.ok) return { kind: 'refused', why: from.why === 'missing' ? `not in the quarantine folder (${escapeName(join(quarantine, m.path))})` : from.why };
  if (!to.ok && !folderGone) return { kind: 'refused', why: to.why };
  const held = await readChecked(from.full);
  const there = to.ok ? await readChecked(to.full) : ({ ok: false, why: 'missing' } as const);
  if (!held.ok && held.why === 'missing') {
    // Back already, or never moved (an interrupted apply): the original is there with the same bytes.
    if (there.ok && bytesHash(there.file.bytes) === m.bytes_hash) return { kind: 'already' };
    return { kind: 'refused', why: `not in the quarantine folder (${escapeName(join(quarantine, m.path))})` };
  }
  if (!held.ok) return { kind: 'refused', why: `in the quarantine folder, ${held.why}` };
  if (bytesHash(held.file.bytes) !== m.bytes_hash || held.file.bytes.length !== m.size) {
    return { kind: 'refused', why: 'not the bytes the log recorded (changed in the quarantine folder since it was moved, or the log was edited); left there' };
  }
  if (there.ok && there.file.dev === held.file.dev && there.file.ino === held.file.ino) {
    // One file under both names: the apply was stopped between its link and its unlink. The file is home.
    const note = `${name}: already at ${home} (its move had stopped halfway);`;
    if (dryRun) return { kind: 'already', line: `would finish ${note} its second name in the quarantine would be removed\n` };
    if (!(await unchanged(held.file))) return { kind: 'refused', why: 'changed in the quarantine folder while being checked; left there' };
    await unlink(held.file.full);
    return { kind: 'already', line: `finished ${note} its second name in the quarantine removed\n` };
  }
  if (to.ok && (await exists(to.full))) return { kind: 'refused', why: `a file reappeared at ${home}; not overwritten` };
  if (dryRun) return { kind: 'back', line: `would put back ${name} -> ${home}\n` };
  await hooks.beforeMove?.(m.path);
  if (stopped()) return { kind: 'stopped' };
  try {
    if (!to.ok) to = await resolveUnder(root, m.path, true);
    if (!to.ok) throw new Error(to.why);
    await checkBelow(root, pathParts(m.path) ?? []);
    const warning = await moveVerified(held.file, to.full);
    return { kind: 'back', line: `put back ${name} -> ${home}${warning ? ` (but ${warning})` : ''}\n` };
  } catch (error) {
    return { kind: 'refused', why: error instanceof Error ? error.message : String(error) };
  }
}
