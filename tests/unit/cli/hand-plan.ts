/** Folders and plans written by hand, as a hostile tester edits them: rows whose sizes and hashes are those of the files on disk. */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bytesHash, planJson, type PlanRow } from '../../../src/core/export/plan.ts';
import { contentHashOf } from '../../../src/workers/content-hash.ts';

/** A plan row naming `path`, with the size and hashes of `file` (the file at `path` under `root`) as it is now, so apply's hash checks pass; made-up ones when it cannot be read. */
export async function rowOf(
  root: string,
  path: string,
  group: number,
  role: PlanRow['role'],
  match: PlanRow['match'] = role === 'keep' ? 'kept' : 'identical',
  file = join(root, path),
): Promise<PlanRow> {
  const bytes = await readFile(file).catch(() => Buffer.from('unreadable'));
  return {
    group, path, role, reason: role === 'review' ? 'near-duplicate' : 'marked', match,
    size: bytes.length, modified: null, content_hash: await contentHashOf(path, bytes), bytes_hash: bytesHash(bytes), distance: 0, jaccard: 1,
  };
}

/** Writes `rows` as a JSON plan recording `root`; returns its path. */
export async function writePlan(file: string, rows: readonly PlanRow[], root: string | null): Promise<string> {
  await writeFile(file, planJson(rows, root));
  return file;
}

/** A plan of rows given as [path, group, role, match?], each with the hashes of its file under `root`; returns its path. */
export async function planOf(file: string, root: string, specs: ReadonlyArray<[string, number, PlanRow['role'], PlanRow['match']?]>): Promise<string> {
  const rows: PlanRow[] = [];
  for (const [path, group, role, match] of specs) rows.push(await rowOf(root, path, group, role, match));
  return writePlan(file, rows, root);
}

/** Writes each text of `map` at its path under `under`, making folders. */
export async function writeFiles(under: string, map: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(map)) {
    await mkdir(join(under, path, '..'), { recursive: true });
    await writeFile(join(under, path), text);
  }
}

/** Every regular file under `folder` (links not followed): relative path -> bytes as base64. */
export async function snapshot(folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name).slice(folder.length + 1)] = (await readFile(join(entry.parentPath, entry.name))).toString('base64');
  }
  return out;
}
