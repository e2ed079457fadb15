// simsift apply against plans and undo logs edited by hand (issue #28 follow-up): each case writes real
// files, a plan whose hashes match them, runs the real command and checks what is on disk after.
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApply } from '../../../src/cli/apply-command.ts';
import { runCommand } from './run-command.ts';
import { OTHER, TEXT } from './apply-texts.ts';
import { planOf, rowOf, snapshot, writeFiles, writePlan } from './hand-plan.ts';

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

const files = (map: Record<string, string>, under = root) => writeFiles(under, map);


describe('a hand-edited plan cannot empty the folder of a text', () => {
  it('keeps a copy when two rows name each other as the copy left to review (each also marked remove in another group)', async () => {
    const plan = await planOf(join(dir, 'plan.json'), root, [
      ['k1.txt', 1, 'keep'],
      ['x.txt', 1, 'review', 'near-duplicate'],
      ['y.txt', 1, 'remove', 'near-duplicate'],
      ['k2.txt', 2, 'keep'],
      ['y.txt', 2, 'review', 'near-duplicate'],
      ['x.txt', 2, 'remove', 'near-duplicate'],
    ]);
    const r = await runCommand(runApply, [plan, '--into', q]);
    const left = Object.keys(await snapshot(root));
    expect(left.filter((p) => p === 'x.txt' || p === 'y.txt').length, r.out).toBeGreaterThan(0);
  });

  it('never moves a file from a group that keeps nothing, nor while the kept file of any group that removes it is gone', async () => {
    const plan = await planOf(join(dir, 'plan.json'), root, [
      ['x.txt', 1, 'keep'],
      ['y.txt', 1, 'remove'],
      ['y.txt', 2, 'remove'],
      ['k1.txt', 3, 'keep'],
      ['k2.txt', 3, 'remove', 'near-duplicate'],
      ['gone.txt', 4, 'keep'],
      ['k2.txt', 4, 'remove', 'near-duplicate'],
    ]);
    const r = await runCommand(runApply, [plan, '--into', q]);
    expect(r.out).toContain('not moved y.txt: group 2 has no kept file in the plan');
    expect(r.out).toContain('not moved k2.txt: its kept file gone.txt is missing');
    expect(Object.keys(await snapshot(root)).sort()).toEqual(['k1.txt', 'k2.txt', 'x.txt', 'y.txt']);
  });
});

describe('a hand-edited plan moves only what it names, under the root', () => {
  const spellings = ['../outside/secret.txt', '/ABS', 'a//y.txt', './y.txt', 'a/./y.txt', 'a\\y.txt', 'y.txt\0', 'y.txt/', '', '.', 'a/../y.txt'];
  it.each(spellings)('refuses the removal %j and changes nothing', async (spelled) => {
    await files({ 'a/y.txt': TEXT });
    await files({ 'secret.txt': TEXT }, join(dir, 'outside'));
    const path = spelled === '/ABS' ? join(root, 'y.txt') : spelled;
    const file = spelled.includes('outside') ? join(dir, 'outside/secret.txt') : join(root, 'y.txt');
    const plan = await writePlan(join(dir, 'plan.json'), [await rowOf(root, 'x.txt', 1, 'keep'), await rowOf(root, path, 1, 'remove', 'identical', file)], root);
    const before = await snapshot(dir);
    const r = await runCommand(runApply, [plan, '--into', q]);
    expect(r.out).toContain('not moved');
    const after = await snapshot(dir);
    for (const [p, bytes] of Object.entries(before)) expect(after[p], p).toBe(bytes);
  });

  it('moves a file named twice once, and never one a later row keeps', async () => {
    const plan = await planOf(join(dir, 'plan.json'), root, [
      ['x.txt', 1, 'keep'],
      ['y.txt', 1, 'remove'],
      ['y.txt', 1, 'remove'],
      ['k1.txt', 2, 'keep'],
      ['k2.txt', 2, 'remove', 'near-duplicate'],
      ['k2.txt', 3, 'keep'],
    ]);
    const r = await runCommand(runApply, [plan, '--into', q]);
    expect(Object.keys(await snapshot(q)).filter((p) => p.endsWith('.txt'))).toEqual(['y.txt']);
    expect(r.out).toContain('not moved k2.txt: kept by the plan (group 3)');
  });
});

describe('the places apply is given', () => {
  async function plan(): Promise<string> {
    return writePlan(join(dir, 'plan.json'), [await rowOf(root, 'x.txt', 1, 'keep'), await rowOf(root, 'y.txt', 1, 'remove')], root);
  }
  it.each([
    ['the root itself', () => root],
    ['a folder inside the root', () => join(root, 'q')],
    ['a symbolic link to the root', () => join(dir, 'link-to-root')],
    ['a symbolic link to a folder inside the root', () => join(dir, 'link-into-root')],
  ])('refuses a quarantine that is %s', async (_, into) => {
    await symlink(root, join(dir, 'link-to-root'));
    await mkdir(join(root, 'inner'));
    await symlink(join(root, 'inner'), join(dir, 'link-into-root'));
    const before = await snapshot(root);
    const r = await runCommand(runApply, [await plan(), '--into', into()]);
    expect(r.code).toBe(2);
    expect(await snapshot(root)).toEqual(before);
  });

  it('refuses / as the root (no quarantine can lie outside it)', async () => {
    const r = await runCommand(runApply, [await plan(), '--into', q, '--root', '/']);
    expect(r.code).toBe(2);
    expect(existsSync(join(root, 'y.txt'))).toBe(true);
  });

  it('moves into the real folder a quarantine link names, and undoes from there', async () => {
    await mkdir(join(dir, 'real-q'));
    await symlink(join(dir, 'real-q'), q);
    const before = await snapshot(root);
    const r = await runCommand(runApply, [await plan(), '--into', q]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, 'real-q/y.txt'))).toBe(true);
    const log = /undo log: (.*simsift-undo-.*\.json)/.exec(r.out)![1]!;
    expect(log.startsWith(join(dir, 'real-q'))).toBe(true);
    expect((await runCommand(runApply, ['--undo', log])).code).toBe(0);
    expect(await snapshot(root)).toEqual(before);
  });

  it('never writes through a folder link planted in the quarantine before the move', async () => {
    await files({ 'a/y.txt': TEXT });
    await mkdir(join(dir, 'elsewhere'));
    await mkdir(q);
    await symlink(join(dir, 'elsewhere'), join(q, 'a'));
    const p = await writePlan(join(dir, 'plan.json'), [await rowOf(root, 'x.txt', 1, 'keep'), await rowOf(root, 'a/y.txt', 1, 'remove')], root);
    const r = await runCommand(runApply, [p, '--into', q]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/not moved a\/y.txt: .*symbolic link/);
    expect(existsSync(join(root, 'a/y.txt'))).toBe(true);
    expect(await readdir(join(dir, 'elsewhere'))).toEqual([]);
  });
});

describe('a hand-edited undo log', () => {
  async function applied(): Promise<{ log: string; value: Record<string, unknown> & { moves: Array<Record<string, unknown>> } }> {
    await files({ 'a/y.txt': TEXT });
    const p = await writePlan(join(dir, 'plan.json'), [await rowOf(root, 'x.txt', 1, 'keep'), await rowOf(root, 'a/y.txt', 1, 'remove')], root);
    const r = await runCommand(runApply, [p, '--into', q]);
    expect(r.code, r.out).toBe(0);
    const log = /undo log: (.*simsift-undo-.*\.json)/.exec(r.out)![1]!;
    return { log, value: JSON.parse(await readFile(log, 'utf8')) };
  }

  it.each(['../outside/secret.txt', join('/', 'etc', 'hostname'), 'a/../a/y.txt', 'a//y.txt'])('refuses an entry %j', async (path) => {
    const { log, value } = await applied();
    await files({ 'secret.txt': 'private' }, join(dir, 'outside'));
    value.moves = [{ ...value.moves[0], path }];
    await writeFile(log, JSON.stringify(value));
    const before = await snapshot(dir);
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).toBe(1);
    expect(await snapshot(dir)).toEqual(before);
  });

  it('refuses a file link planted in the quarantine, and a folder link there, and one under the root', async () => {
    const { log, value } = await applied();
    await files({ 'secret.txt': TEXT }, join(dir, 'outside'));
    // The quarantined file swapped for a link to a file with the same bytes outside.
    await rm(join(q, 'a/y.txt'));
    await symlink(join(dir, 'outside/secret.txt'), join(q, 'a/y.txt'));
    expect((await runCommand(runApply, ['--undo', log])).out).toMatch(/not put back a\/y.txt: .*symbolic link/);
    // Its folder swapped for a link to a folder outside.
    await rm(join(q, 'a'), { recursive: true });
    await mkdir(join(dir, 'outside/a'));
    await writeFile(join(dir, 'outside/a/y.txt'), TEXT);
    await symlink(join(dir, 'outside/a'), join(q, 'a'));
    expect((await runCommand(runApply, ['--undo', log])).out).toMatch(/not put back a\/y.txt: .*symbolic link/);
    expect(existsSync(join(root, 'a/y.txt'))).toBe(false);
    expect(await readFile(join(dir, 'outside/a/y.txt'), 'utf8')).toBe(TEXT);
    // The quarantined file back, its folder under the root a link to a folder outside: nothing goes there.
    await rm(join(q, 'a'));
    await mkdir(join(q, 'a'));
    await writeFile(join(q, 'a/y.txt'), TEXT);
    await rm(join(root, 'a'), { recursive: true });
    await mkdir(join(dir, 'target'));
    await symlink(join(dir, 'target'), join(root, 'a'));
    expect((await runCommand(runApply, ['--undo', log])).out).toMatch(/not put back a\/y.txt: .*symbolic link/);
    expect(await readdir(join(dir, 'target'))).toEqual([]);
    expect(value.moves.length).toBe(1);
  });

  it('is refused when copied into another quarantine, or when it names another one', async () => {
    const { log, value } = await applied();
    await mkdir(join(dir, 'q2/a'), { recursive: true });
    await writeFile(join(dir, 'q2/a/y.txt'), TEXT);
    const copy = join(dir, 'q2', 'simsift-undo-copy.json');
    await writeFile(copy, await readFile(log));
    expect((await runCommand(runApply, ['--undo', copy])).code).toBe(2);
    value.quarantine = join(dir, 'q2');
    await writeFile(log, JSON.stringify(value));
    expect((await runCommand(runApply, ['--undo', log])).code).toBe(2);
    expect(existsSync(join(root, 'a/y.txt'))).toBe(false);
  });

  it('puts back only bytes whose hash and size are the log\'s', async () => {
    const { log, value } = await applied();
    value.moves = [{ ...value.moves[0], size: 3 }];
    await writeFile(log, JSON.stringify(value));
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).toBe(1);
    expect(existsSync(join(root, 'a/y.txt'))).toBe(false);
    expect(await readFile(join(q, 'a/y.txt'), 'utf8')).toBe(TEXT);
  });
});

describe('between the check and the move', () => {
  it('never moves the last copy when its kept file vanished after the check', async () => {
    const plan = await writePlan(join(dir, 'plan.json'), [await rowOf(root, 'x.txt', 1, 'keep'), await rowOf(root, 'y.txt', 1, 'remove')], root);
    const r = await runCommand((args, io) => runApply(args, io, { beforeMove: () => rm(join(root, 'x.txt')) }), [plan, '--into', q]);
    expect(r.code).toBe(1);
    expect(await readFile(join(root, 'y.txt'), 'utf8')).toBe(TEXT);
  });

  it('never moves a file swapped for a link to a file outside after the check', async () => {
    await files({ 'secret.txt': TEXT }, join(dir, 'outside'));
    const plan = await writePlan(join(dir, 'plan.json'), [await rowOf(root, 'x.txt', 1, 'keep'), await rowOf(root, 'y.txt', 1, 'remove')], root);
    const swap = async () => {
      await rm(join(root, 'y.txt'));
      await symlink(join(dir, 'outside/secret.txt'), join(root, 'y.txt'));
    };
    const r = await runCommand((args, io) => runApply(args, io, { beforeMove: swap }), [plan, '--into', q]);
    expect(r.code).toBe(1);
    expect(await readFile(join(dir, 'outside/secret.txt'), 'utf8')).toBe(TEXT);
    expect(existsSync(join(q, 'y.txt'))).toBe(false);
  });
});
