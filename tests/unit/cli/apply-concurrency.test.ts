// simsift apply and --undo run at the same time (issue #35): one at a time per root, and every file that
// leaves the root is in an undo log. Real processes and real files in a temporary folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runApply } from '../../../src/cli/apply-command.ts';
import { LOCK_NAME } from '../../../src/cli/apply-lock.ts';
import { parseUndoLog } from '../../../src/cli/undo-log.ts';
import { runCommand } from './run-command.ts';
import { snapshot } from './hand-plan.ts';
import { copiesWithPlan, simsiftProcess, unaccounted } from './concurrent-apply.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-concurrent-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('two applies of one plan at once', () => {
  it('lose no file: each is in the root or in a log, and the second apply is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const root = join(dir, `root${round}`);
      const plan = await copiesWithPlan(root, join(dir, `plan${round}.json`), 150);
      const before = await snapshot(root);
      const qs = [join(dir, `q${round}a`), join(dir, `q${round}b`)];
      const runs = await Promise.all(qs.map((q) => simsiftProcess(['apply', plan, '--into', q], dir)));
      expect(await unaccounted(root, qs, before), runs.map((r) => r.err).join('\n')).toEqual([]);
      const codes = runs.map((r) => r.code).sort();
      // Either one ran while the other was refused (75), or they did not overlap and the second found nothing left to move (1).
      expect([[0, 75], [0, 1]], runs.map((r) => r.err).join('\n')).toContainEqual(codes);
    }
  }, 120_000);
});

describe('the lock of a root', () => {
  const lockText = (pid: number, host = hostname()) => JSON.stringify({ pid, host, command: 'simsift apply', started: '2026-11-27T10:00:00.000Z' });

  it('refuses while a live process holds it (exit 75, naming it), and is left to its holder', async () => {
    const root = join(dir, 'root');
    const plan = await copiesWithPlan(root, join(dir, 'plan.json'), 3);
    const before = await snapshot(root);
    for (const text of [lockText(process.pid), lockText(1, 'another-host'), 'garbage']) {
      await writeFile(join(root, LOCK_NAME), text);
      const r = await runCommand(runApply, [plan, '--into', join(dir, 'q')]);
      expect(r.code, r.err).toBe(75);
      expect(r.err).toContain(LOCK_NAME);
      if (text.includes('another-host')) expect(r.err).toContain('process 1 on another-host');
      expect(await readFile(join(root, LOCK_NAME), 'utf8')).toBe(text);
    }
    await rm(join(root, LOCK_NAME));
    expect(await snapshot(root)).toEqual(before);
  });

  it('takes over a stale lock (its process gone), says so, and removes its own when done', async () => {
    const root = join(dir, 'root');
    const plan = await copiesWithPlan(root, join(dir, 'plan.json'), 3);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(join(root, LOCK_NAME), lockText(gone));
    const r = await runCommand(runApply, [plan, '--into', join(dir, 'q')]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`took over the stale lock`);
    expect(r.err).toContain(`process ${gone} on ${hostname()}`);
    expect(existsSync(join(root, LOCK_NAME))).toBe(false);
    expect(existsSync(join(root, 'copy/1.txt'))).toBe(false);
  });

  it('a root where the lock cannot be made is refused (exit 2), nothing moved', async () => {
    const root = join(dir, 'root');
    const plan = await copiesWithPlan(root, join(dir, 'plan.json'), 2);
    try {
      execFileSync('chattr', ['+i', root], { stdio: 'ignore' });
    } catch {
      return; // no immutable folders here (not ext4, or not allowed)
    }
    try {
      const r = await runCommand(runApply, [plan, '--into', join(dir, 'q')]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`cannot make the lock`);
    } finally {
      execFileSync('chattr', ['-i', root]);
    }
    expect(existsSync(join(root, 'copy/1.txt'))).toBe(true);
  });

  it('a live lock in a folder above the root, or below it on the way to a file, stops the apply or that move', async () => {
    const root = join(dir, 'root');
    const plan = await copiesWithPlan(root, join(dir, 'plan.json'), 3);
    await writeFile(join(dir, LOCK_NAME), lockText(process.pid));
    const above = await runCommand(runApply, [plan, '--into', join(dir, 'q')]);
    expect(above.code).toBe(75);
    await rm(join(dir, LOCK_NAME));
    await writeFile(join(root, 'copy', LOCK_NAME), lockText(process.pid));
    const below = await runCommand(runApply, [plan, '--into', join(dir, 'q')]);
    expect(below.code).toBe(1);
    expect(below.out).toMatch(/not moved copy\/1.txt: simsift apply \(process \d+ .*is working on this folder/);
    expect(existsSync(join(root, 'copy/1.txt'))).toBe(true);
  });
});

describe('undo logs', () => {
  it('made in the same millisecond get different names: none is written over another', async () => {
    const q = join(dir, 'q');
    const roots = [0, 1, 2].map((n) => join(dir, `root${n}`));
    const befores: Array<Record<string, string>> = [];
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-27T12:00:00.000Z'));
      for (const [n, root] of roots.entries()) {
        const plan = await copiesWithPlan(root, join(dir, `plan${n}.json`), 2, `r${n}/`);
        befores.push(await snapshot(root));
        const r = await runCommand(runApply, [plan, '--into', q]);
        expect(r.code, r.err).toBe(0);
      }
    } finally {
      vi.useRealTimers();
    }
    const logs = (await readdir(q)).filter((name) => name.startsWith('simsift-undo-')).sort();
    expect(logs).toEqual(['simsift-undo-2026-11-27T12-00-00-000Z-2.json', 'simsift-undo-2026-11-27T12-00-00-000Z-3.json', 'simsift-undo-2026-11-27T12-00-00-000Z.json']);
    // Each root's moved files are in its own log.
    for (const [n, name] of ['simsift-undo-2026-11-27T12-00-00-000Z.json', ...logs.slice(0, 2)].entries()) {
      const log = parseUndoLog(await readFile(join(q, name), 'utf8'));
      expect(log.root).toBe(roots[n]);
      expect(log.moves.map((m) => m.path)).toEqual([`r${n}/copy/1.txt`, `r${n}/copy/2.txt`]);
    }
  });
});
