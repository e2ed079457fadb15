/** Plans written by hand, as a hostile tester edits them: rows whose sizes and hashes are those of the files on disk. */
import { readFile, writeFile } from 'node:fs/promises';
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
