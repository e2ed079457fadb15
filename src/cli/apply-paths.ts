/**
 * Owns where `simsift apply` may touch the disk and how it moves a file: a plan path is resolved under
 * its root one component at a time (a symbolic link anywhere, or a path leaving the root, refuses it),
 * only a regular file opened without following links is read, and a move is link-then-unlink (both must
 * succeed, checked by inode and link count) or copy, fsync, verify, unlink; never a rename, so nothing
 * that appeared after the check is ever replaced, and a folder is never moved.
 */
import { constants, type Stats } from 'node:fs';
import { link, lstat, mkdir, open, readFile, realpath, unlink, utimes } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { pathParts } from '../core/export/plan-paths.ts';
import { errorCode } from './cli-common.ts';
import { escapeName, fsPath } from './terminal-names.ts';

/** A path under a root, or why it cannot be one. */
export type Resolved = { ok: true; full: string | Buffer } | { ok: false; why: string };

/** A regular file as it was read: identity and bytes. */
export interface CheckedFile {
  full: string | Buffer;
  dev: number;
  ino: number;
  mtimeMs: number;
  bytes: Uint8Array;
}

/**
 * `path` under `root` (an absolute real path), each folder on the way checked with lstat: a symbolic
 * link or a non-folder refuses it. With `create`, missing folders are made (one by one, never through a
 * link). The last component is not looked at: `readChecked` and `moveVerified` check it.
 */
export async function resolveUnder(root: string, path: string, create = false): Promise<Resolved> {
  const parts = pathParts(path);
  if (!parts) return { ok: false, why: 'not a relative path under the root' };
  let at = root;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    let info: Stats;
    try {
      info = await lstat(fsPath(at));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, why: `unreadable (${errorCode(error)})` };
      if (!create) return { ok: false, why: 'missing' };
      await mkdir(fsPath(at)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
      info = await lstat(fsPath(at));
    }
    if (info.isSymbolicLink()) return { ok: false, why: `its path passes through a symbolic link (${escapeName(at)}); refused` };
    if (!info.isDirectory()) return { ok: false, why: `its path passes through ${escapeName(at)}, which is not a folder` };
  }
  return { ok: true, full: fsPath(join(root, ...parts)) };
}

/** Reads the file at `full` without following a link; only a regular file is read. */
export async function readChecked(full: string | Buffer): Promise<{ ok: true; file: CheckedFile } | { ok: false; why: string }> {
  let handle;
  try {
    handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, why: 'missing' };
    if (code === 'ELOOP') return { ok: false, why: 'a symbolic link; refused' };
    return { ok: false, why: `unreadable (${errorCode(error)})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, why: 'not a regular file' };
    const bytes = await handle.readFile();
    return { ok: true, file: { full, dev: info.dev, ino: info.ino, mtimeMs: info.mtimeMs, bytes } };
  } catch (error) {
    return { ok: false, why: `unreadable (${errorCode(error)})` };
  } finally {
    await handle.close();
  }
}

/** Whether `file` is still at its place as it was read: the same regular file (device, inode), size and modification time. */
export async function unchanged(file: CheckedFile): Promise<boolean> {
  const now = await lstat(file.full).catch(() => null);
  return now !== null && now.isFile() && now.dev === file.dev && now.ino === file.ino && now.size === file.bytes.length && now.mtimeMs === file.mtimeMs;
}

/** Whether anything (a file, a folder, a link) is at `full`. */
export async function exists(full: string | Buffer): Promise<boolean> {
  try {
    await lstat(full);
    return true;
  } catch {
    return false;
  }
}

/** The real path `path` has or would have: the real path of its nearest existing folder, then the rest. */
export async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(path) === path) throw error;
    return join(await realPathOf(dirname(path)), basename(path));
  }
}

/** Whether `inner` is `outer` or lies under it (both real, absolute). */
export function isWithin(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/**
 * Moves the checked file `from` to `to` (which must not exist; its folder must) and verifies it: `from`
 * must still be the same regular file (device, inode) with the same bytes. A hard link then an unlink when
 * both succeed (the link checked by inode and link count); else (another device, no hard links) a copy
 * made with O_EXCL, fsynced and read back, then the unlink. If the source cannot be removed, the copy is
 * removed again and the file stays where it was. Throws an Error saying why nothing moved; once the file
 * has left its folder it never throws, and returns a warning (or null) instead.
 */
export async function moveVerified(checked: CheckedFile, to: string | Buffer): Promise<string | null> {
  const from = checked.full;
  const now = await lstat(from).catch(() => null);
  if (!now) throw new Error('missing at the move');
  if (!now.isFile()) throw new Error(`changed since the check (now ${now.isDirectory() ? 'a folder' : now.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'})`);
  if (now.dev !== checked.dev || now.ino !== checked.ino) throw new Error('changed since the check (another file is there now)');
  let linked = false;
  try {
    await link(from, to);
    linked = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${escapeName(String(to))} exists; not replaced`);
  }
  if (linked) {
    const made = await lstat(to);
    const same = made.ino === checked.ino && made.dev === checked.dev && made.nlink >= 2 && sameBytes(await readFile(to), checked.bytes);
    if (!same) {
      if (made.ino === checked.ino) await unlink(to);
      throw new Error('changed since the check (its bytes differ now)');
    }
    try {
      await unlink(from);
    } catch (error) {
      await unlink(to);
      throw new Error(`could not be removed from its folder (${errorCode(error)}); left where it was`);
    }
    const after = await lstat(to);
    // The file has left its folder: whatever the count says, it is moved (and must be in the undo log).
    return after.nlink !== made.nlink - 1 ? `its link count is ${after.nlink} (was ${made.nlink}): another process touched it` : null;
  }
  await copyVerified(checked, now, to);
  return null;
}

/** The move without hard links: copy (O_EXCL), fsync, read back and compare, keep the times, unlink the source. */
async function copyVerified(checked: CheckedFile, info: Stats, to: string | Buffer): Promise<void> {
  const handle = await open(to, 'wx', info.mode & 0o777);
  try {
    try {
      await handle.writeFile(checked.bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!sameBytes(await readFile(to), checked.bytes)) throw new Error('its copy differs from it; left where it was');
    await utimes(to, info.atime, info.mtime);
    const again = await readChecked(checked.full);
    if (!again.ok || again.file.ino !== checked.ino || !sameBytes(again.file.bytes, checked.bytes)) throw new Error('changed since the check; left where it was');
    try {
      await unlink(checked.full);
    } catch (error) {
      throw new Error(`could not be removed from its folder (${errorCode(error)}); left where it was`);
    }
  } catch (error) {
    await unlink(to).catch(() => undefined);
    throw error;
  }
}
