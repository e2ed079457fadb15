/**
 * Whether a plan's paths fit the root `simsift apply` was given (or the plan records): when none of them
 * is there, the root is wrong (the scanned folder itself instead of the folder holding it, or the other
 * way round), and one message naming a folder that fits beats a "missing" line for every row. Also the
 * root and quarantine as real paths, neither inside the other.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { PlanRow } from '../core/export/plan.ts';
import { pathParts } from '../core/export/plan-paths.ts';
import { errorCode, UsageError } from './cli-common.ts';
import { isWithin, realPathOf } from './apply-paths.ts';
import { escapeName, fsPath } from './terminal-names.ts';

/** How many plan paths are tried under each candidate folder: enough to tell, few enough for a big folder. */
const SAMPLE = 50;
/** How many of the root's subfolders are tried as the folder that fits. */
const MAX_CHILDREN = 500;

async function present(folder: string, parts: readonly string[]): Promise<boolean> {
  // lstat: a name that is there counts, whatever it is; apply's own checks decide what may move.
  return (await lstat(fsPath(join(folder, ...parts))).catch(() => null)) !== null;
}

async function hits(folder: string, paths: ReadonlyArray<readonly string[]>): Promise<number> {
  let n = 0;
  for (const parts of paths.slice(0, SAMPLE)) if (await present(folder, parts)) n++;
  return n;
}

/**
 * Null when at least one of the plan's paths is under `root` (an absolute real path); otherwise why not,
 * naming the folder around it (its parent, or one of its subfolders) under which most of them are, if any.
 */
export async function rootMisfit(root: string, rows: readonly PlanRow[]): Promise<string | null> {
  const paths = [...new Set(rows.map((r) => r.path))].map(pathParts).filter((p): p is string[] => p !== null);
  if (paths.length === 0) return null;
  for (const parts of paths) if (await present(root, parts)) return null;
  const candidates: string[] = [];
  if (dirname(root) !== root) candidates.push(dirname(root));
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const e of entries.slice(0, MAX_CHILDREN)) if (e.isDirectory()) candidates.push(join(root, e.name));
  let best: { folder: string; n: number } | null = null;
  for (const folder of candidates) {
    const n = await hits(folder, paths);
    if (n > (best?.n ?? 0)) best = { folder, n };
  }
  const none = `none of the plan's ${paths.length} paths (such as ${escapeName(paths[0]!.join('/'))}) is under ${escapeName(root)}`;
  return best ? `${none}; ${best.n === Math.min(SAMPLE, paths.length) ? 'they are' : 'some are'} under ${escapeName(best.folder)}: give --root ${escapeName(best.folder)}` : `${none}, nor under its parent or its subfolders: give --root DIR, the folder its paths are relative to`;
}

/** The root and quarantine as real paths, refused when either holds the other. */
export async function places(rootDir: string, intoDir: string): Promise<{ root: string; into: string }> {
  let root: string;
  try {
    root = await realPathOf(resolve(rootDir));
    if (!(await stat(root)).isDirectory()) throw new UsageError(`the root ${JSON.stringify(rootDir)} is not a folder`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the root ${JSON.stringify(rootDir)} (${errorCode(error)})`);
  }
  const into = await realPathOf(resolve(intoDir));
  const intoInfo = await stat(into).catch(() => null);
  if (intoInfo && !intoInfo.isDirectory()) throw new UsageError(`the quarantine ${JSON.stringify(intoDir)} is not a folder; give a folder (made when missing)`);
  if (isWithin(into, root)) throw new UsageError(`the quarantine folder ${JSON.stringify(intoDir)} lies inside the folder being cleaned (${root}): a later scan would count its copies; choose a folder outside it`);
  if (isWithin(root, into)) throw new UsageError('the quarantine folder cannot hold the folder being cleaned');
  return { root, into };
}
