// simsift apply against hand-edited plans, crafted undo logs and a person's slips (issue #28): every
// case runs the real commands on real files in a temporary folder and checks what is on disk after.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { runApply } from '../../../src/cli/apply-command.ts';
import type { ApplyHooks } from '../../../src/cli/apply-signals.ts';
import { planMoves } from '../../../src/core/export/plan-moves.ts';
import { bytesHash, type PlanRow } from '../../../src/core/export/plan.ts';
import { runCommand } from './run-command.ts';
import { snapshot, writeFiles } from './hand-plan.ts';
import { OTHER, TEXT } from './apply-texts.ts';


let dir: string;
let root: string;
let q: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-hostile-'));
  root = join(dir, 'root');
  q = join(dir, 'q');
  await files({ 'docs/articles/bicycle.txt': TEXT, 'docs/backup/bicycle.txt': TEXT, 'docs/bread.txt': OTHER, 'docs/bread-copy.txt': OTHER });
});
afterEach(async () => {
  try {
    execFileSync('chattr', ['-R', '-i', dir], { stdio: 'ignore' });
  } catch {
    // no chattr, or nothing was made immutable
  }
  await rm(dir, { recursive: true, force: true });
});

const files = (map: Record<string, string>, under = root) => writeFiles(under, map);


async function scanPlan(name = 'plan.json', extra: string[] = []): Promise<string> {
  const plan = join(dir, name);
  const scan = await runCommand(runScan, [root, '--plan', plan, '--threads', '1', ...extra]);
  expect(scan.code, scan.err).toBe(0);
  return plan;
}

/** The plan JSON as an object, to edit as a hostile tester would. */
async function readPlan(plan: string): Promise<{ rows: Array<Record<string, unknown>> } & Record<string, unknown>> {
  return JSON.parse(await readFile(plan, 'utf8'));
}

/** `simsift apply` with test hooks (as another process would act just before a move). */
function applyWith(argv: string[], hooks: ApplyHooks): Promise<{ code: number; out: string; err: string }> {
  return runCommand((args, io) => runApply(args, io, hooks), argv);
}

describe('the undo log is checked, not trusted', () => {
  async function applied(): Promise<string> {
    const r = await runCommand(runApply, [await scanPlan(), '--into', q, '--root', root]);
    expect(r.code, r.err).toBe(0);
    return /undo log: (.*simsift-undo-.*\.json)/.exec(r.out)![1]!;
  }

  it('refuses an entry naming a file outside the quarantine', async () => {
    const log = await applied();
    await files({ 'private.txt': 'my private notes' }, join(dir, 'elsewhere'));
    const hash = bytesHash(Buffer.from('my private notes'));
    const entry = { path: '../elsewhere/private.txt', from: join(root, 'stolen.txt'), to: join(dir, 'elsewhere/private.txt'), size: 16, content_hash: hash, bytes_hash: hash };
    const value = JSON.parse(await readFile(log, 'utf8'));
    value.moves = [entry];
    await writeFile(log, JSON.stringify(value));
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).not.toBe(0);
    // The log naming another folder as its quarantine does not help.
    value.quarantine = join(dir, 'elsewhere');
    value.moves = [{ ...entry, path: 'private.txt' }];
    await writeFile(log, JSON.stringify(value));
    expect((await runCommand(runApply, ['--undo', log])).code).toBe(2);
    expect(await readFile(join(dir, 'elsewhere/private.txt'), 'utf8')).toBe('my private notes');
    expect(existsSync(join(root, 'stolen.txt'))).toBe(false);
    expect(existsSync(join(root, 'private.txt'))).toBe(false);
  });

  it('never moves a folder named by an entry', async () => {
    const log = await applied();
    await files({ 'inside.txt': 'a folder' }, join(q, 'docs/folder'));
    const value = JSON.parse(await readFile(log, 'utf8'));
    value.moves = [{ path: 'docs/folder', from: join(root, 'docs/folder'), to: join(q, 'docs/folder'), size: 8, content_hash: '0000000000000000', bytes_hash: '0000000000000000' }];
    await writeFile(log, JSON.stringify(value));
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).not.toBe(0);
    expect(existsSync(join(q, 'docs/folder/inside.txt'))).toBe(true);
    expect(existsSync(join(root, 'docs/folder'))).toBe(false);
  });

  it('puts a file back into its folder made again, and makes no folder for a refused entry', async () => {
    const before = await snapshot(root);
    const log = await applied();
    await rm(join(root, 'docs/backup'), { recursive: true });
    const value = JSON.parse(await readFile(log, 'utf8'));
    value.moves.push({ path: 'docs/new-folder/x.txt', size: 1, bytes_hash: '0000000000000000' });
    await writeFile(log, JSON.stringify(value));
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('not put back docs/new-folder/x.txt: not in the quarantine folder');
    expect(existsSync(join(root, 'docs/new-folder'))).toBe(false);
    expect(await snapshot(root)).toEqual(before);
  });

  it('says which entries are garbage instead of a TypeError', async () => {
    const log = await applied();
    const value = JSON.parse(await readFile(log, 'utf8'));
    value.moves = [null, 3, { path: 1 }];
    await writeFile(log, JSON.stringify(value));
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code).toBe(2);
    expect(r.err).not.toContain('TypeError');
    expect(r.err).toMatch(/entry 1/);
  });
});

describe('plan paths stay under the root', () => {
  it('refuses a path through a symlinked folder that leaves the root', async () => {
    await files({ 'bicycle.txt': TEXT }, join(dir, 'elsewhere'));
    const plan = await scanPlan();
    await symlink(join(dir, 'elsewhere'), join(root, 'lnk'));
    const value = await readPlan(plan);
    for (const row of value.rows) if (row.path === 'docs/backup/bicycle.txt') row.path = 'lnk/bicycle.txt';
    await writeFile(plan, JSON.stringify(value));
    const r = await runCommand(runApply, [plan, '--into', q, '--root', root]);
    expect(await readFile(join(dir, 'elsewhere/bicycle.txt'), 'utf8')).toBe(TEXT);
    expect(r.out).toMatch(/not moved lnk\/bicycle.txt: .*symbolic link/);
  });

  it('refuses a removed file that is the kept file reached through a symlinked folder', async () => {
    const plan = await scanPlan();
    await symlink(join(root, 'docs/articles'), join(root, 'alias'));
    const value = await readPlan(plan);
    const kept = value.rows.find((row) => row.path === 'docs/articles/bicycle.txt')!;
    expect(kept.role).toBe('keep');
    for (const row of value.rows) if (row.path === 'docs/backup/bicycle.txt') row.path = 'alias/bicycle.txt';
    await writeFile(plan, JSON.stringify(value));
    await runCommand(runApply, [plan, '--into', q, '--root', root]);
    expect(await readFile(join(root, 'docs/articles/bicycle.txt'), 'utf8')).toBe(TEXT);
  });

  it('refuses a kept file that is the same file (device and inode) as the removed one', async () => {
    await rm(join(root, 'docs/backup/bicycle.txt'));
    await link(join(root, 'docs/articles/bicycle.txt'), join(root, 'docs/backup/bicycle.txt'));
    const plan = await scanPlan();
    const r = await runCommand(runApply, [plan, '--into', q, '--root', root]);
    expect(existsSync(join(root, 'docs/backup/bicycle.txt'))).toBe(true);
    expect(r.out).toMatch(/not moved docs\/backup\/bicycle.txt: .*same file as its kept file/);
  });
});

describe('the quarantine lies outside the root', () => {
  it('refuses a quarantine inside the root', async () => {
    const r = await runCommand(runApply, [await scanPlan(), '--into', join(root, 'q'), '--root', root]);
    expect(r.code).toBe(2);
    expect(existsSync(join(root, 'q'))).toBe(false);
    expect(existsSync(join(root, 'docs/backup/bicycle.txt'))).toBe(true);
  });

  it('refuses a quarantine inside the root reached through a symlink', async () => {
    await symlink(root, join(dir, 'rootlink'));
    const r = await runCommand(runApply, [await scanPlan(), '--into', join(dir, 'rootlink/q'), '--root', root]);
    expect(r.code).toBe(2);
    expect(existsSync(join(root, 'q'))).toBe(false);
  });
});

describe("a person's slips are errors", () => {
  it('--protect that matches nothing is an error naming it', async () => {
    for (const folder of ['docs/OLD', join(root, 'docs/backup')]) {
      const r = await runCommand(runScan, [root, '--plan', join(dir, 'p.json'), '--protect', folder, '--threads', '1']);
      expect(r.code).toBe(2);
      expect(r.err).toContain(JSON.stringify(folder));
      expect(existsSync(join(dir, 'p.json'))).toBe(false);
    }
  });

  it('--out or --plan over a scanned file, or over each other, is refused before work', async () => {
    const before = await snapshot(root);
    const inside = await runCommand(runScan, [root, '--out', join(root, 'docs/bread.txt'), '--threads', '1']);
    expect(inside.code).toBe(2);
    const plan = await runCommand(runScan, [root, '--plan', join(root, 'docs/bread-copy.txt'), '--threads', '1']);
    expect(plan.code).toBe(2);
    expect(await snapshot(root)).toEqual(before);
    const same = await runCommand(runScan, [root, '--out', join(dir, 'x.csv'), '--plan', join(dir, 'x.csv'), '--threads', '1']);
    expect(same.code).toBe(2);
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
  });
});

describe('apply re-checks the bytes, and a move is a move', () => {
  it('sees a case-only edit made after the plan', async () => {
    const plan = await scanPlan();
    await writeFile(join(root, 'docs/backup/bicycle.txt'), TEXT.replace('hiss', 'Hiss'));
    const r = await runCommand(runApply, [plan, '--into', q, '--root', root]);
    expect(existsSync(join(root, 'docs/backup/bicycle.txt'))).toBe(true);
    expect(r.out).toMatch(/not moved docs\/backup\/bicycle.txt: changed since the scan/);
  });

  it('never moves a folder swapped in for a file after the check', async () => {
    const plan = await scanPlan();
    const target = join(root, 'docs/backup/bicycle.txt');
    const r = await applyWith([plan, '--into', q, '--root', root], {
      async beforeMove(path) {
        if (path !== 'docs/backup/bicycle.txt') return;
        await rm(target);
        await files({ 'inside.txt': 'a folder' }, target);
      },
    });
    expect(r.code).toBe(1);
    expect(existsSync(join(target, 'inside.txt'))).toBe(true);
    expect(existsSync(join(q, 'docs/backup/bicycle.txt'))).toBe(false);
    expect(r.out).not.toContain('moved docs/backup/bicycle.txt ->');
  });

  it('reports a file it could not remove from its folder as not moved, and leaves no copy behind', async () => {
    const plan = await scanPlan();
    try {
      execFileSync('chattr', ['+i', join(root, 'docs/backup')], { stdio: 'ignore' });
    } catch {
      return; // no immutable folders here (not ext4, or not allowed)
    }
    const r = await runCommand(runApply, [plan, '--into', q, '--root', root]);
    execFileSync('chattr', ['-i', join(root, 'docs/backup')]);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('moved docs/backup/bicycle.txt ->');
    expect(r.out).toMatch(/not moved docs\/backup\/bicycle.txt/);
    expect(existsSync(join(root, 'docs/backup/bicycle.txt'))).toBe(true);
    expect(existsSync(join(q, 'docs/backup/bicycle.txt'))).toBe(false);
  });

  it('moves a file whose name is not UTF-8', async () => {
    const name = Buffer.concat([Buffer.from(join(root, 'docs/caf')), Buffer.from([0xe9]), Buffer.from('.txt')]);
    await writeFile(name, TEXT);
    const plan = await scanPlan();
    const r = await runCommand(runApply, [plan, '--into', q, '--root', root]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).not.toMatch(/missing/);
    const qname = Buffer.concat([Buffer.from(join(q, 'docs/caf')), Buffer.from([0xe9]), Buffer.from('.txt')]);
    const moved = [existsSync(name), existsSync(qname)];
    // Either it or the path-order first copy is kept; whichever was marked remove is in the quarantine.
    expect(moved.filter(Boolean).length).toBe(1);
  });
});

describe('the plan travels', () => {
  it('applies the CSV plan that scan --plan writes', async () => {
    const plan = await scanPlan('plan.csv');
    const r = await runCommand(runApply, [plan, '--into', q, '--root', root]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(q, 'docs/backup/bicycle.txt'))).toBe(true);
  });

  it('applies a JSON plan from another directory without --root (the plan records its root)', async () => {
    const plan = await scanPlan();
    expect(process.cwd()).not.toBe(root);
    const r = await runCommand(runApply, [plan, '--into', q]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(q, 'docs/backup/bicycle.txt'))).toBe(true);
    expect(existsSync(join(root, 'docs/backup/bicycle.txt'))).toBe(false);
  });

  it('plans 40,000 rows of one group with work linear in the rows', () => {
    const n = 40_000;
    const rows: PlanRow[] = Array.from({ length: n }, (_, i) => ({
      group: 1,
      path: `d/${String(i).padStart(6, '0')}.txt`,
      role: i === 0 ? 'keep' : 'remove',
      reason: 'reference',
      match: i === 0 ? 'kept' : 'identical',
      size: 10,
      modified: null,
      content_hash: '0123456789abcdef',
      bytes_hash: '0123456789abcdef',
      distance: 0,
      jaccard: 1,
    }));
    let reads = 0;
    const counted = new Proxy(rows, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const planned = planMoves(counted);
    expect(planned.moves.length).toBe(n - 1);
    expect(reads).toBeLessThan(4 * n);
  });
});

describe('an interrupted apply', () => {
  it('prints the log, which undoes exactly what moved, quietly', async () => {
    const plan = await scanPlan();
    const before = await snapshot(root);
    let seen = 0;
    const r = await applyWith([plan, '--into', q, '--root', root], {
      beforeMove() {
        if (++seen === 2) process.emit('SIGINT');
      },
    });
    expect(r.code).toBe(130);
    const log = /undo log: (.*simsift-undo-.*\.json)/.exec(r.err)?.[1];
    expect(log, r.err).toBeDefined();
    expect((await readdir(join(q, 'docs'), { recursive: true })).filter((p) => p.endsWith('.txt')).length).toBe(1);
    // Killed outright instead, the log would still list every planned move: the ones never made are passed over quietly.
    const value = JSON.parse(await readFile(log!, 'utf8'));
    expect(value.moves.length).toBe(1);
    value.complete = false;
    value.moves.push({ path: 'docs/bread-copy.txt', size: OTHER.length, bytes_hash: bytesHash(Buffer.from(OTHER)) });
    await writeFile(log!, JSON.stringify(value));
    const undone = await runCommand(runApply, ['--undo', log!]);
    expect(undone.code, undone.out + undone.err).toBe(0);
    expect(undone.out).not.toContain('not put back');
    expect(undone.err).toContain('put back 1 of 2 files; 1 already in place; 0 not');
    expect(await snapshot(root)).toEqual(before);
  });
});
