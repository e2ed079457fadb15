// simsift apply against plans and undo logs edited by hand (issue #28 follow-up): each case writes real
// files, a plan whose hashes match them, runs the real command and checks what is on disk after.
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApply } from '../../../src/cli/apply-command.ts';
import { runCommand } from './run-command.ts';
import { OTHER, TEXT } from './apply-texts.ts';
import { rowOf, writePlan } from './hand-plan.ts';

let dir: string;
let root: string;
let q: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-edits-'));
  root = join(dir, 'root');
  q = join(dir, 'q');
  await files({ 'k1.txt': OTHER, 'x.txt': TEXT, 'y.txt': TEXT, 'k2.txt': OTHER + 'and a second loaf.' });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function files(map: Record<string, string>, under = root): Promise<void> {
  for (const [path, text] of Object.entries(map)) {
    await mkdir(join(under, path, '..'), { recursive: true });
    await writeFile(join(under, path), text);
  }
}

async function snapshot(folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name).slice(folder.length + 1)] = (await readFile(join(entry.parentPath, entry.name))).toString('base64');
  }
  return out;
}

describe('a hand-edited plan cannot empty the folder of a text', () => {
  it('keeps a copy when two rows name each other as the copy left to review (each also marked remove in another group)', async () => {
    const plan = await writePlan(join(dir, 'plan.json'), [
      await rowOf(root, 'k1.txt', 1, 'keep'),
      await rowOf(root, 'x.txt', 1, 'review', 'near-duplicate'),
      await rowOf(root, 'y.txt', 1, 'remove', 'near-duplicate'),
      await rowOf(root, 'k2.txt', 2, 'keep'),
      await rowOf(root, 'y.txt', 2, 'review', 'near-duplicate'),
      await rowOf(root, 'x.txt', 2, 'remove', 'near-duplicate'),
    ], root);
    const r = await runCommand(runApply, [plan, '--into', q]);
    const left = Object.keys(await snapshot(root));
    expect(left.filter((p) => p === 'x.txt' || p === 'y.txt').length, r.out).toBeGreaterThan(0);
  });
});
