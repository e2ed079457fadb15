/**
 * Owns "one `simsift apply` or `--undo` at a time per cleaned folder": a lock file ROOT/.simsift-apply.lock
 * (hidden, so scans skip it), created exclusively, holding who made it (process id, host, command, time)
 * and removed when the command ends. A lock whose process is gone (same host, no such process) is stale:
 * it is taken over, and said so. A lock held in a folder above the root counts too, and a move under a
 * folder that holds another command's lock is refused (apply-command.ts asks `heldBelow`), so two roots
 * one inside the other cannot race either.
 */
import { unlinkSync } from 'node:fs';
import { lstat, open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { errorCode, UsageError } from './cli-common.ts';
import { escapeName, fsPath } from './terminal-names.ts';

/** The lock's name in the root. */
export const LOCK_NAME = '.simsift-apply.lock';

/** Exit code of a command refused because another holds the lock (EX_TEMPFAIL: try again later). */
export const BUSY_CODE = 75;

/** Another apply or undo holds the lock (or an unreadable lock cannot be judged); the message says which and what to do. */
export class LockBusyError extends Error {}

/** What a lock file says about its holder. */
interface Holder {
  pid: number;
  host: string;
  command: string;
  started: string;
}

/** A lock this process holds. */
export interface RootLock {
  readonly path: string;
  /** A line saying a stale lock was taken over, or null. */
  readonly tookOver: string | null;
  release(): Promise<void>;
}

function parseHolder(text: string): Holder | null {
  try {
    const v = JSON.parse(text) as Partial<Holder>;
    if (typeof v.pid === 'number' && typeof v.host === 'string') return { pid: v.pid, host: v.host, command: String(v.command ?? ''), started: String(v.started ?? '') };
  } catch {
    // not a lock this simsift wrote: judged as held
  }
  return null;
}

/** Whether the holder's process is known to be gone: on this host, and no process has its id. */
function isStale(holder: Holder): boolean {
  if (holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: a process of another user has that id, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

const describe = (h: Holder) => `${h.command || 'simsift apply'} (process ${h.pid} on ${h.host}, since ${h.started})`;

/** The lock file at `path` as text, or null when there is none. */
async function readLock(path: string): Promise<string | null> {
  try {
    return await readFile(fsPath(path), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new LockBusyError(`cannot read the lock ${escapeName(path)} (${errorCode(error)})`);
  }
}

function busy(path: string, text: string): LockBusyError {
  const holder = parseHolder(text);
  const who = holder ? `${describe(holder)} is working on this folder` : 'an unreadable lock is there';
  const how = holder && holder.host !== hostname() ? 'it runs on another host; ' : '';
  return new LockBusyError(`${who} (lock ${escapeName(path)}); ${how}try again when it has ended, or remove the lock if no simsift apply or undo runs on this folder`);
}

/**
 * Takes the lock of `root` (a real, absolute folder) for `command`, or throws LockBusyError saying who
 * holds it (here or in a folder above). A stale lock is removed under a second exclusive file
 * (LOCK.takeover), so two commands that both find it stale cannot both remove a fresh lock.
 */
export async function lockRoot(root: string, command: string): Promise<RootLock> {
  const path = join(root, LOCK_NAME);
  const mine = `${JSON.stringify({ pid: process.pid, host: hostname(), command, started: new Date().toISOString() })}\n`;
  let tookOver: string | null = null;
  for (let attempt = 0; ; attempt++) {
    try {
      // 'wx' is O_CREAT | O_EXCL: fails when anything is there, a symbolic link included.
      const handle = await open(path, 'wx', 0o644);
      try {
        await handle.writeFile(mine);
        await handle.sync();
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new UsageError(`cannot make the lock ${escapeName(path)} (${errorCode(error)}): apply and undo write it in the folder they clean, to run one at a time; nothing moved`);
      }
    }
    const text = await readLock(path);
    if (text === null) continue;
    const holder = parseHolder(text);
    if (attempt > 2 || holder === null || !isStale(holder)) throw busy(path, text);
    await removeStale(path, text);
    tookOver = `took over the stale lock ${escapeName(path)} of ${describe(holder)}: that process is gone`;
  }
  const onExit = () => {
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  };
  // A signal that ends the process through process.exit (atomic-file.ts) still releases the lock.
  process.on('exit', onExit);
  const lock: RootLock = {
    path,
    tookOver,
    async release() {
      process.off('exit', onExit);
      if ((await readLock(path).catch(() => null)) === mine) await unlink(path).catch(() => undefined);
    },
  };
  try {
    await checkAbove(root);
  } catch (error) {
    await lock.release();
    throw error;
  }
  return lock;
}

async function removeStale(path: string, text: string): Promise<void> {
  const guard = `${path}.takeover`;
  try {
    await (await open(guard, 'wx')).close();
  } catch (error) {
    throw new LockBusyError(`the stale lock ${escapeName(path)} is being taken over by another command (${escapeName(guard)} exists, ${errorCode(error)}); try again, or remove both if no simsift apply or undo runs on this folder`);
  }
  try {
    // Only the stale text is removed: nobody else removes a lock while the guard is held.
    if ((await readLock(path)) === text) await unlink(path);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/**
 * A live lock in a folder above `root`: another command cleans a folder that holds this one. Only a lock
 * of this user counts: anyone may write one into /tmp, and another user's apply cannot move this user's files there.
 */
async function checkAbove(root: string): Promise<void> {
  for (let at = dirname(root); ; at = dirname(at)) {
    const info = await lstat(join(at, LOCK_NAME)).catch(() => null);
    if (info && info.uid === process.getuid?.()) await checkFolder(at);
    if (dirname(at) === at) return;
  }
}

/** Throws LockBusyError when `folder` holds a lock that is not stale (and not this process's own). */
async function checkFolder(folder: string): Promise<void> {
  const path = join(folder, LOCK_NAME);
  const text = await readLock(path).catch(() => null);
  if (text === null) return;
  const holder = parseHolder(text);
  if (holder === null || !isStale(holder)) throw busy(path, text);
}

/**
 * Throws LockBusyError when a folder between `root` (excluded: it holds this command's lock) and the
 * file at the plan path `parts` holds a live lock: another apply or undo works on that folder.
 */
export async function checkBelow(root: string, parts: readonly string[]): Promise<void> {
  let at = root;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    if (await lstat(fsPath(join(at, LOCK_NAME))).then(() => true, () => false)) await checkFolder(at);
  }
}
