/**
 * "Move marked to quarantine" in the browser: the app's plan carried out through file handles, with the
 * checks `simsift apply` makes that a browser can make. A file moves (copy into the quarantine folder the
 * person picked, read back and compared, then removed from its folder) only while its bytes hash to the
 * plan's and the file that stays for it (the kept file) is there with its own bytes and is not the same
 * entry; the quarantine must not lie inside the scanned folder nor hold it. Undo puts back exactly what
 * moved, checking each quarantined file's bytes and never writing over a file that reappeared. The undo
 * log is also written into the quarantine folder (`simsift-undo-<time>.json`).
 */
import { bytesHash, type PlanRow } from '../../core/export/plan.ts';
import { planMoves } from '../../core/export/plan-moves.ts';
import { pathParts } from '../../core/export/plan-paths.ts';

/** One move made: the plan path and the hash of the bytes moved. */
export interface AppUndoEntry {
  path: string;
  size: number;
  bytes_hash: string;
}

/** What a move did: the log of moves made (for Undo), and each file not moved with why. */
export interface MoveOutcome {
  moved: AppUndoEntry[];
  bytes: number;
  notMoved: Array<{ path: string; why: string }>;
  logName: string | null;
}

type Dir = FileSystemDirectoryHandle;

/**
 * The folder that holds `parts[0..-1]` under `root` (whose own name is `parts[0]`), made when `create`;
 * null when a part is missing or not a folder; throws the browser's TypeError for a name it refuses.
 */
async function folderOf(root: Dir, parts: string[], create: boolean): Promise<Dir | null> {
  let dir = root;
  try {
    for (const part of parts.slice(1, -1)) dir = await dir.getDirectoryHandle(part, { create });
    return dir;
  } catch (error) {
    if (error instanceof TypeError) throw error;
    return null;
  }
}

/** Why a file whose name the browser refuses is not moved (the CLI moves it). */
const REFUSED_NAME = 'its name is one the browser does not let a page open (move it with simsift apply)';

/** The file at `path` (which starts with the root's name) and its folder, or why there is none. */
async function fileAt(root: Dir, path: string): Promise<{ ok: true; dir: Dir; handle: FileSystemFileHandle; bytes: Uint8Array } | { ok: false; why: string }> {
  const parts = pathParts(path);
  if (!parts || parts.length < 2 || parts[0] !== root.name) return { ok: false, why: `not a path under the chosen folder ${root.name}` };
  // The browser's file access refuses some names (any of \ : * ? " < > |, control characters, a leading or
  // trailing space, dot or tilde) with a TypeError: such a file is there, but the page cannot reach it.
  let dir: Dir | null;
  try {
    dir = await folderOf(root, parts, false);
  } catch {
    return { ok: false, why: REFUSED_NAME };
  }
  if (!dir) return { ok: false, why: 'missing (its folder is gone)' };
  let handle: FileSystemFileHandle;
  try {
    handle = await dir.getFileHandle(parts[parts.length - 1]!);
  } catch (error) {
    const name = (error as DOMException).name;
    return { ok: false, why: name === 'TypeMismatchError' ? 'not a file (a folder is there now)' : name === 'TypeError' ? REFUSED_NAME : 'missing' };
  }
  try {
    return { ok: true, dir, handle, bytes: new Uint8Array(await (await handle.getFile()).arrayBuffer()) };
  } catch (error) {
    return { ok: false, why: `unreadable (${(error as DOMException).name ?? String(error)})` };
  }
}

/** The file at `path` (which starts with the root's name) under `root`, as it is now; throws when there is none. */
export async function openUnder(root: Dir, path: string): Promise<Blob> {
  const file = await fileAt(root, path);
  if (!file.ok) throw new Error(file.why);
  return new Blob([file.bytes as Uint8Array<ArrayBuffer>]);
}

/** Whether anything (a file or a folder) is at `name` in `dir`. */
async function taken(dir: Dir, name: string): Promise<boolean> {
  for (const kind of ['file', 'folder'] as const) {
    try {
      if (kind === 'file') await dir.getFileHandle(name);
      else await dir.getDirectoryHandle(name);
      return true;
    } catch (error) {
      if ((error as DOMException).name === 'TypeMismatchError') return true;
    }
  }
  return false;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Writes `bytes` as a new file `name` in `dir` (never over one there), reads it back and compares; throws
 * (the partial copy removed) when anything differs.
 */
async function writeNew(dir: Dir, name: string, bytes: Uint8Array): Promise<void> {
  if (await taken(dir, name)) throw new Error('a file of that name is already there; not replaced');
  const handle = await dir.getFileHandle(name, { create: true });
  try {
    const writable = await handle.createWritable();
    await writable.write(bytes as Uint8Array<ArrayBuffer>);
    await writable.close();
    if (!same(new Uint8Array(await (await handle.getFile()).arrayBuffer()), bytes)) throw new Error('its copy differs from it');
  } catch (error) {
    await dir.removeEntry(name).catch(() => undefined);
    throw error;
  }
}

/** Refuses a quarantine inside the scanned folder or holding it (the entries' own positions, not names). */
export async function checkPlaces(root: Dir, quarantine: Dir): Promise<string | null> {
  if (await root.isSameEntry(quarantine)) return 'The quarantine folder is the scanned folder itself: pick a folder outside it.';
  if ((await root.resolve(quarantine)) !== null) return `The quarantine folder lies inside ${root.name}: a later scan would count its copies. Pick a folder outside it.`;
  if ((await quarantine.resolve(root)) !== null) return `The quarantine folder holds ${root.name}: pick a folder outside it.`;
  return null;
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** The path of the first kept file that is no longer the one checked (same bytes, same entry), or null. */
async function keptUnchanged(root: Dir, kept: readonly PlanRow[], checked: ReadonlyMap<string, Awaited<ReturnType<typeof fileAt>>>): Promise<string | null> {
  for (const k of kept) {
    const before = checked.get(k.path);
    const now = await fileAt(root, k.path);
    if (!before?.ok || !now.ok || !same(now.bytes, before.bytes) || !(await now.handle.isSameEntry(before.handle))) return k.path;
  }
  return null;
}

/** The scan's content hash of a file's bytes (workers/content-hash.ts), or null when the scan gives none. */
export type TextHash = (path: string, bytes: Uint8Array) => Promise<string | null>;

/**
 * Why `picked` is not the folder the plan was made from, or null. A folder picked again for a scan that
 * has no handle of its own (the folder input, or after a reload without a kept handle) must have the
 * scanned folder's name, and every file marked for removal must be at its path there with the scan's
 * size and text (its content hash): a folder of the same name elsewhere is refused before anything moves.
 */
export async function notTheScannedFolder(picked: Dir, name: string, rows: readonly PlanRow[], textHash: TextHash): Promise<string | null> {
  if (picked.name !== name) return `The folder you picked is ${picked.name}, not ${name}: nothing moved. Pick the folder you scanned.`;
  const marked = [...new Set(rows.filter((r) => r.role === 'remove').map((r) => r.path))];
  const byPath = new Map(rows.map((r) => [r.path, r]));
  const differ: string[] = [];
  for (const path of marked) {
    const row = byPath.get(path)!;
    const file = await fileAt(picked, path);
    if (!file.ok || file.bytes.length !== row.size || row.content_hash === null || (await textHash(path, file.bytes)) !== row.content_hash) differ.push(path);
  }
  if (differ.length === 0) return null;
  const named = differ.slice(0, 3).join(', ') + (differ.length > 3 ? ', …' : '');
  return (
    `The folder you picked is not ${name} as it was scanned: ${differ.length.toLocaleString('en')} of ${marked.length.toLocaleString('en')} ` +
    `marked files are not there with the size and text the scan read (${named}). Nothing moved: pick the folder you scanned, or scan it again.`
  );
}

/**
 * Moves every file the plan `rows` mark remove from under `root` into `quarantine` (same relative path, the
 * root's name first). The bytes must hash to the plan's (read when the plan was made) and, through
 * `textHash`, their text to the scan's content hash, so a file changed since the scan does not move.
 */
export async function moveToQuarantine(rows: readonly PlanRow[], root: Dir, quarantine: Dir, textHash: TextHash): Promise<MoveOutcome> {
  const sameText = async (row: PlanRow, bytes: Uint8Array) => row.content_hash !== null && (await textHash(row.path, bytes)) === row.content_hash;
  const { moves, refused } = planMoves(rows);
  const notMoved = [...refused];
  const moved: AppUndoEntry[] = [];
  const keptState = new Map<string, Awaited<ReturnType<typeof fileAt>>>();
  let bytes = 0;
  for (const { row, kept } of moves) {
    const refuse = (why: string) => notMoved.push({ path: row.path, why });
    const keptFiles: FileSystemFileHandle[] = [];
    for (const k of kept) {
      let keptFile = keptState.get(k.path);
      if (!keptFile) {
        keptFile = await fileAt(root, k.path);
        if (keptFile.ok && (k.bytes_hash === null || bytesHash(keptFile.bytes) !== k.bytes_hash || !(await sameText(k, keptFile.bytes)))) {
          keptFile = { ok: false, why: 'changed since the scan' };
        }
        keptState.set(k.path, keptFile);
      }
      if (!keptFile.ok) {
        refuse(`its kept file ${k.path} is ${keptFile.why}`);
        break;
      }
      keptFiles.push(keptFile.handle);
    }
    if (keptFiles.length < kept.length) continue;
    const file = await fileAt(root, row.path);
    if (!file.ok) {
      refuse(file.why);
      continue;
    }
    // No hash: its size was not the scan's when the plan was read (hashMemberBytes), or it could not be read.
    if (row.bytes_hash === null || file.bytes.length !== row.size || bytesHash(file.bytes) !== row.bytes_hash || !(await sameText(row, file.bytes))) {
      refuse('changed since the scan (its bytes differ)');
      continue;
    }
    const isKept = await Promise.all(keptFiles.map((k) => file.handle.isSameEntry(k)));
    if (isKept.includes(true)) {
      refuse(`the same file as its kept file ${kept[isKept.indexOf(true)]!.path}`);
      continue;
    }
    const parts = pathParts(row.path)!;
    const name = parts[parts.length - 1]!;
    try {
      const top = await quarantine.getDirectoryHandle(parts[0]!, { create: true });
      const target = await folderOf(top, parts, true);
      if (!target) throw new Error('its place in the quarantine folder is not a folder');
      await writeNew(target, name, file.bytes);
      // The original is removed only if it is still the file that was copied.
      const again = await fileAt(root, row.path);
      if (!again.ok || !same(again.bytes, file.bytes)) {
        await target.removeEntry(name).catch(() => undefined);
        throw new Error('changed while it was copied; left where it was');
      }
      // Its kept files were checked before the first move; one gone or changed since would leave no copy.
      const keptNow = await keptUnchanged(root, kept, keptState);
      if (keptNow !== null) {
        await target.removeEntry(name).catch(() => undefined);
        throw new Error(`its kept file ${keptNow} changed or left while it was copied; left where it was`);
      }
      try {
        await file.dir.removeEntry(name);
      } catch (error) {
        await target.removeEntry(name).catch(() => undefined);
        throw new Error(`could not be removed from its folder (${(error as DOMException).name ?? String(error)}); left where it was`);
      }
      moved.push({ path: row.path, size: row.size, bytes_hash: row.bytes_hash });
      bytes += row.size;
    } catch (error) {
      refuse(error instanceof Error ? error.message : String(error));
    }
  }
  let logName: string | null = null;
  if (moved.length > 0) {
    logName = `simsift-undo-${stamp()}.json`;
    const text = JSON.stringify({ format: 'simsift-undo', version: 2, created: new Date().toISOString(), root: root.name, quarantine: quarantine.name, complete: true, moves: moved }, null, 2) + '\n';
    await writeNew(quarantine, logName, new TextEncoder().encode(text)).catch(() => {
      logName = null; // the moves are still undone from the page; only the file copy of the log is missing
    });
  }
  return { moved, bytes, notMoved, logName };
}

/** Puts back every file of `moved` from `quarantine` under `root`, never over a file that reappeared. */
export async function undoQuarantine(moved: readonly AppUndoEntry[], root: Dir, quarantine: Dir): Promise<{ back: number; refused: Array<{ path: string; why: string }> }> {
  const refused: Array<{ path: string; why: string }> = [];
  let back = 0;
  let top: Dir | null = null;
  for (const m of moved) {
    const parts = pathParts(m.path);
    if (!parts || parts[0] !== root.name) {
      refused.push({ path: m.path, why: 'not a path under the chosen folder' });
      continue;
    }
    top ??= await quarantine.getDirectoryHandle(root.name).catch(() => null);
    const held = top ? await fileAt(top, m.path) : ({ ok: false, why: 'missing' } as const);
    if (!held.ok) {
      refused.push({ path: m.path, why: `not in the quarantine folder (${held.why})` });
      continue;
    }
    if (bytesHash(held.bytes) !== m.bytes_hash) {
      refused.push({ path: m.path, why: 'changed in the quarantine folder since it was moved; left there' });
      continue;
    }
    const name = parts[parts.length - 1]!;
    try {
      const dir = await folderOf(root, parts, true);
      if (!dir) throw new Error('its folder is not a folder any more');
      await writeNew(dir, name, held.bytes);
      await held.dir.removeEntry(name);
      back++;
    } catch (error) {
      refused.push({ path: m.path, why: error instanceof Error ? (error.message.includes('already there') ? 'a file reappeared at its place; not overwritten' : error.message) : String(error) });
    }
  }
  return { back, refused };
}
