// simsift apply --undo puts files back only under the root the apply resolved (issue #35): not through a
// symbolic link that appeared since, not into a folder an edited log names, and never a file the apply
// did not move (another undo log). Real files in a temporary folder.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApply } from '../../../src/cli/apply-command.ts';
import { bytesHash } from '../../../src/core/export/plan.ts';
import { runCommand } from './run-command.ts';
import { planOf, snapshot, writeFiles } from './hand-plan.ts';
import { copiesWithPlan } from './concurrent-apply.ts';

let dir: string;
let root: string;
let q: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-undo-root-'));
  root = join(dir, 'root');
  q = join(dir, 'q');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Applies a plan of `groups` copies under `root`; returns the undo log's path. */
async function applied(groups = 2, prefix = ''): Promise<string> {
  const r = await runCommand(runApply, [await copiesWithPlan(root, join(dir, `plan${prefix.replace('/', '')}.json`), groups, prefix), '--into', q]);
  expect(r.code, r.err).toBe(0);
  return /undo log: (.*simsift-undo-.*\.json)/.exec(r.out)![1]!;
}

const editLog = async (log: string, edit: (value: Record<string, unknown> & { moves: Array<Record<string, unknown>> }) => void) => {
  const value = JSON.parse(await readFile(log, 'utf8'));
  edit(value);
  await writeFile(log, JSON.stringify(value));
};

describe('undo puts files back only under the root the apply resolved', () => {
  it('refuses a root that has become a symbolic link since the apply', async () => {
    const log = await applied();
    const held = await snapshot(q);
    await rename(root, join(dir, 'root-moved'));
    await mkdir(join(dir, 'elsewhere'));
    await symlink(join(dir, 'elsewhere'), root);
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/symbolic link/);
    expect(await readdir(join(dir, 'elsewhere'))).toEqual([]);
    expect(await snapshot(q)).toEqual(held);
  });

  it('refuses a root field edited to name another folder', async () => {
    const log = await applied();
    await mkdir(join(dir, 'elsewhere'));
    await editLog(log, (v) => (v.root = join(dir, 'elsewhere')));
    const held = await snapshot(q);
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not the folder the apply moved from/);
    expect(await readdir(join(dir, 'elsewhere'))).toEqual([]);
    expect(await snapshot(q)).toEqual(held);
  });

  it('refuses a root that is relative or empty', async () => {
    const log = await applied();
    for (const edited of ['', 'root', '.']) {
      await editLog(log, (v) => (v.root = edited));
      const r = await runCommand(runApply, ['--undo', log]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/must be an absolute path/);
    }
  });

  it('refuses an entry naming an undo log (another, or its own): a log never moves into the root', async () => {
    const first = await applied(2, 'a/');
    const second = await applied(2, 'b/');
    const secondBytes = await readFile(second);
    await editLog(first, (v) => {
      for (const name of [second, first]) {
        const base = name.slice(q.length + 1);
        v.moves.push({ path: base, size: secondBytes.length, bytes_hash: bytesHash(secondBytes) });
      }
    });
    const r = await runCommand(runApply, ['--undo', first]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/not put back simsift-undo-.*: names an undo log/);
    expect(await readFile(second)).toEqual(secondBytes);
    expect((await readdir(root)).filter((n) => n.startsWith('simsift-undo-'))).toEqual([]);
    expect(existsSync(join(root, 'a/copy/1.txt'))).toBe(true);
  });

  it('apply leaves a top-level file named like an undo log where it is (in the quarantine it would be taken for one)', async () => {
    await writeFiles(root, { 'simsift-undo-mine.json': '{"a": "user file"}', 'keep/simsift-undo-mine.json': '{"a": "user file"}' });
    const plan = await planOf(join(dir, 'plan.json'), root, [['keep/simsift-undo-mine.json', 1, 'keep'], ['simsift-undo-mine.json', 1, 'remove']]);
    const r = await runCommand(runApply, [plan, '--into', q]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('not moved simsift-undo-mine.json: named like an undo log');
    expect(existsSync(join(root, 'simsift-undo-mine.json'))).toBe(true);
  });
});
