// simsift scan --plan, then simsift apply (dry run, move, undo) in a temporary folder: real files, real moves.
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { runApply } from '../../../src/cli/apply-command.ts';
import { moveVerified, readChecked } from '../../../src/cli/apply-paths.ts';
import { parsePlanJson } from '../../../src/core/export/plan.ts';
import { runCommand } from './run-command.ts';
import { snapshot } from './hand-plan.ts';
import { OTHER, TEXT } from './apply-texts.ts';


let dir: string;
let root: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-apply-'));
  root = join(dir, 'root');
  const files: Record<string, string> = {
    'docs/articles/bicycle.txt': TEXT,
    'docs/backup/bicycle.txt': TEXT,
    'docs/old/bicycle (copy).txt': TEXT,
    'docs/drafts/bicycle-sentence-added.txt': TEXT + 'One more sentence about tyre levers made of plastic.',
    'docs/bread.txt': OTHER,
    'docs/bread-copy.txt': OTHER,
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  // Times: backup/ is the newest copy of the bicycle text.
  const t = (iso: string) => new Date(iso);
  await utimes(join(root, 'docs/articles/bicycle.txt'), t('2024-01-01'), t('2024-01-01'));
  await utimes(join(root, 'docs/backup/bicycle.txt'), t('2025-06-01'), t('2025-06-01'));
  await utimes(join(root, 'docs/old/bicycle (copy).txt'), t('2023-01-01'), t('2023-01-01'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});


describe('simsift scan --plan and simsift apply', () => {
  it('writes the plan by the rules, moves only unchanged files marked remove, and undo restores the folder', async () => {
    const plan = join(dir, 'plan.json');
    const scan = await runCommand(runScan, [root, '--plan', plan, '--keep', 'newest', '--protect', 'docs/old', '--threads', '1']);
    expect(scan.err).toContain('marked remove');
    expect(scan.code).toBe(0);
    const rows = parsePlanJson(await readFile(plan, 'utf8'));
    const byPath = new Map(rows.map((r) => [r.path, r]));
    // protected first: the old copy is kept; newest then ranks the rest; the draft is a different text.
    expect(byPath.get('docs/old/bicycle (copy).txt')).toMatchObject({ role: 'keep', match: 'kept', reason: 'protected' });
    expect(byPath.get('docs/backup/bicycle.txt')).toMatchObject({ role: 'remove', match: 'identical', reason: 'protected', modified: '2025-06-01T00:00:00.000Z' });
    expect(byPath.get('docs/drafts/bicycle-sentence-added.txt')).toMatchObject({ role: 'review', match: 'near-duplicate' });
    expect(byPath.get('docs/bread-copy.txt')?.role === 'remove' || byPath.get('docs/bread.txt')?.role === 'remove').toBe(true);
    // The CSV form of the same plan: same rows.
    const csvPlan = join(dir, 'plan.csv');
    expect((await runCommand(runScan, [root, '--plan', csvPlan, '--keep', 'newest', '--protect', 'docs/old', '--threads', '1'])).code).toBe(0);
    expect((await readFile(csvPlan, 'utf8')).split('\r\n').length).toBe(rows.length + 2);

    const before = await snapshot(root);
    // A file edited after the scan is never moved.
    await writeFile(join(root, 'docs/articles/bicycle.txt'), TEXT.replace('hiss', 'HISS of'));
    const edited = await snapshot(root);
    const quarantine = join(dir, 'quarantine');

    const dry = await runCommand(runApply, [plan, '--into', quarantine, '--root', root, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('would move docs/backup/bicycle.txt');
    expect(dry.out).toMatch(/would not move docs\/articles\/bicycle.txt: changed since the scan/);
    expect(existsSync(quarantine)).toBe(false);
    expect(await snapshot(root)).toEqual(edited);

    const applied = await runCommand(runApply, [plan, '--into', quarantine, '--root', root]);
    expect(applied.code).toBe(1); // the edited file was not moved
    const log = /undo log: (.*simsift-undo-.*\.json)/.exec(applied.out)![1]!;
    const moved = rows.filter((r) => r.role === 'remove' && r.path !== 'docs/articles/bicycle.txt');
    expect(moved.length).toBeGreaterThan(0);
    for (const r of moved) {
      expect(existsSync(join(root, r.path))).toBe(false);
      expect((await readFile(join(quarantine, r.path))).toString('base64')).toBe(before[r.path]);
    }
    expect(existsSync(join(root, 'docs/articles/bicycle.txt'))).toBe(true);
    expect(applied.out).toMatch(/not moved docs\/articles\/bicycle.txt: changed since the scan/);

    // Undo refuses to overwrite a file that reappeared, then puts everything back byte for byte.
    const again = moved[0]!.path;
    await writeFile(join(root, again), 'reappeared');
    const refused = await runCommand(runApply, ['--undo', log]);
    expect(refused.out).toContain(`not put back ${again}: a file reappeared`);
    expect(await readFile(join(root, again), 'utf8')).toBe('reappeared');
    await rm(join(root, again));
    const undone = await runCommand(runApply, ['--undo', log]);
    expect(undone.code).toBe(0); // the others are back already, with their bytes: nothing to do for them
    expect(undone.err).toContain(`already in place`);
    expect(await snapshot(root)).toEqual(edited);
  });

  it("never moves a copy whose group's kept file changed or vanished", async () => {
    const plan = join(dir, 'plan.json');
    expect((await runCommand(runScan, [root, '--plan', plan, '--threads', '1'])).code).toBe(0);
    const rows = parsePlanJson(await readFile(plan, 'utf8'));
    const kept = rows.find((r) => r.match === 'kept' && r.path.includes('bicycle'))!;
    await rm(join(root, kept.path));
    const applied = await runCommand(runApply, [plan, '--into', join(dir, 'q'), '--root', root]);
    for (const r of rows.filter((x) => x.group === kept.group && x.role === 'remove')) {
      expect(existsSync(join(root, r.path))).toBe(true);
      expect(applied.out).toContain(`not moved ${r.path}: its kept file ${kept.path} is missing`);
    }
  });

  it('takes --into=DIR and a plan after --', async () => {
    const plan = join(dir, '-plan.json');
    expect((await runCommand(runScan, [root, '--plan', plan, '--threads', '1'])).code).toBe(0);
    const dry = await runCommand(runApply, ['--dry-run', `--into=${join(dir, 'q')}`, `--root=${root}`, '--', plan]);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain('would move docs/backup/bicycle.txt');
  });

  it('refuses bad arguments and a file that is not a plan', async () => {
    expect((await runCommand(runApply, [])).code).toBe(2);
    expect((await runCommand(runApply, ['plan.json', '--into'])).code).toBe(2);
    expect((await runCommand(runApply, ['plan.json', '--into', 'q', '--bogus'])).err).toContain('--bogus');
    await writeFile(join(dir, 'x.json'), '{"rows":[]}');
    const r = await runCommand(runApply, [join(dir, 'x.json'), '--into', join(dir, 'q')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('not a plan');
  });
});

describe('moveVerified', () => {
  it('moves across devices by copy, fsync, verify, unlink (tmpfs /dev/shm), never over a file there', async () => {
    if (!existsSync('/dev/shm')) return;
    const shm = await mkdtemp('/dev/shm/simsift-apply-');
    const checked = async (path: string) => {
      const read = await readChecked(path);
      if (!read.ok) throw new Error(read.why);
      return read.file;
    };
    try {
      const from = join(dir, 'a.txt');
      await writeFile(from, 'bytes across devices');
      await mkdir(join(shm, 'sub'));
      await moveVerified(await checked(from), join(shm, 'sub/a.txt'));
      expect(existsSync(from)).toBe(false);
      expect(await readFile(join(shm, 'sub/a.txt'), 'utf8')).toBe('bytes across devices');
      await writeFile(from, 'second');
      await expect(moveVerified(await checked(from), join(shm, 'sub/a.txt'))).rejects.toThrow(/exists/);
      expect(await readFile(from, 'utf8')).toBe('second');
      expect(await readFile(join(shm, 'sub/a.txt'), 'utf8')).toBe('bytes across devices');
    } finally {
      await rm(shm, { recursive: true, force: true });
    }
  });
});
