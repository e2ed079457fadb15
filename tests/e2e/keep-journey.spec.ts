/**
 * From a duplicate list to a clean folder, the whole journey: scan a folder in real Chromium, set the
 * keep rules (a protected folder, newest first), change marks with the keyboard and the mouse, export
 * the plan, then `simsift apply --dry-run`, apply, and undo with the CLI. A file edited after the scan
 * must stay where it is; every moved file must be in quarantine with its bytes; undo must restore the
 * folder byte for byte.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { IngestPage } from './ingest-page.ts';
import { BICYCLE, BREAD } from './keep-texts.ts';


function simsift(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [resolve('bin/simsift.js'), ...args], { timeout: 120_000 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Every file under `dir` with its bytes (base64), by relative path. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[join(entry.parentPath, entry.name).slice(dir.length + 1)] = readFileSync(join(entry.parentPath, entry.name)).toString('base64');
  }
  return out;
}

test('keep rules, marks, the plan, simsift apply and undo', async ({ page }) => {
  test.setTimeout(240_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-keep-'));
  const quarantine = mkdtempSync(join(tmpdir(), 'simsift-quarantine-'));
  try {
    const folder = join(parent, 'docs');
    const files: Record<string, [string, string]> = {
      'articles/bicycle.txt': [BICYCLE, '2024-03-01'],
      'backup/bicycle.txt': [BICYCLE, '2025-09-01'],
      'old/bicycle-copy.txt': [BICYCLE, '2020-01-01'],
      'drafts/bicycle-sentence-added.txt': [BICYCLE + ' One more sentence about plastic tyre levers.', '2025-10-01'],
      'bread.txt': [BREAD, '2025-05-01'],
      'bread-copy.txt': [BREAD, '2024-05-01'],
      'notes/bread-old.txt': [BREAD, '2023-05-01'],
      'unique.txt': ['A note about nothing else in this folder, written once and never copied anywhere at all.', '2025-01-01'],
    };
    for (const [path, [text, date]] of Object.entries(files)) {
      mkdirSync(join(folder, path, '..'), { recursive: true });
      writeFileSync(join(folder, path), text);
      utimesSync(join(folder, path), new Date(date), new Date(date));
    }

    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(folder);
    await app.waitForState('done');
    const panel = page.getByRole('region', { name: 'Keep and clean up' });
    const summary = panel.getByRole('status').first();
    // Today's rule: the reference kept, identical copies marked, the draft (a different text) to review.
    await expect(summary).toContainText('4 files marked for removal');

    await panel.getByText('Show each group’s marks').click();
    // No rule yet: the list says what decides (never a first item that starts with "then").
    await expect(panel.getByRole('list', { name: 'Keep rules' }).getByRole('listitem')).toHaveText(['the group’s reference (no rule added yet)']);
    // Rules: docs/old protected, then newest first.
    await panel.getByLabel('Protected folders (one per line; everything under them is kept)').fill('docs/old');
    await panel.getByLabel('Protected folders (one per line; everything under them is kept)').blur();
    await panel.getByLabel('Add a keep rule').selectOption('newest');
    await panel.getByRole('button', { name: 'Add rule' }).click();
    await expect(panel.getByRole('list', { name: 'Keep rules' })).toContainText('protected folder');
    await expect(panel.getByRole('list', { name: 'Keep rules' }).getByRole('listitem').nth(1)).toContainText('newest');
    await expect(panel.getByLabel('Kept: docs/old/bicycle-copy.txt')).toBeVisible();
    await expect(panel.getByLabel('Kept: docs/bread.txt')).toBeVisible();
    await expect(panel.getByRole('checkbox', { name: 'Remove docs/backup/bicycle.txt' })).toBeChecked();
    const draft = panel.getByRole('checkbox', { name: 'Remove docs/drafts/bicycle-sentence-added.txt' });
    await expect(draft).not.toBeChecked();

    // Before any mark is changed, the app's plan is byte for byte what the CLI writes with the same rules.
    const cliPlan = join(quarantine, 'cli-plan.json');
    const cli = simsift(['scan', parent, '--plan', cliPlan, '--protect', 'docs/old', '--keep', 'newest']);
    const [first] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export plan JSON' }).click()]);
    const appPlan = readFileSync((await first.path())!, 'utf8');
    const scanned = await cli;
    expect(scanned.code, scanned.stderr).toBe(0);
    // The same bytes but the root: the CLI records the folder's absolute path, which a browser never knows.
    const cliText = readFileSync(cliPlan, 'utf8');
    expect(cliText).toContain(`"root": ${JSON.stringify(realpathSync(parent))},`);
    expect(appPlan).toBe(cliText.replace(/"root": ".*",\n/, '"root": null,\n'));
    rmSync(cliPlan, { force: true });

    // Marks: the draft by keyboard, bread-copy unmarked with the mouse.
    await draft.focus();
    await page.keyboard.press('Space');
    await expect(draft).toBeChecked();
    await panel.getByRole('checkbox', { name: 'Remove docs/bread-copy.txt' }).click();
    await expect(panel.getByRole('checkbox', { name: 'Remove docs/bread-copy.txt' })).not.toBeChecked();
    const freed = ['articles/bicycle.txt', 'backup/bicycle.txt', 'drafts/bicycle-sentence-added.txt', 'notes/bread-old.txt'];
    const bytes = freed.reduce((n, p) => n + Buffer.byteLength(files[p]![0]), 0);
    await expect(summary).toContainText(`4 files marked for removal would free`);
    await expect(summary).toContainText(`(${bytes.toLocaleString('en')} bytes)`);

    // Export the plan (JSON) and read it.
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export plan JSON' }).click()]);
    const plan = join(quarantine, 'plan.json');
    copyFileSync((await download.path())!, plan);
    const rows = JSON.parse(readFileSync(plan, 'utf8')).rows as Array<Record<string, unknown>>;
    const row = (p: string) => rows.find((r) => r.path === `docs/${p}`)!;
    expect(row('old/bicycle-copy.txt')).toMatchObject({ role: 'keep', reason: 'protected', match: 'kept' });
    expect(row('backup/bicycle.txt')).toMatchObject({ role: 'remove', match: 'identical', modified: '2025-09-01T00:00:00.000Z' });
    expect(row('drafts/bicycle-sentence-added.txt')).toMatchObject({ role: 'remove', reason: 'marked', match: 'near-duplicate' });
    expect(row('bread-copy.txt')).toMatchObject({ role: 'review', reason: 'unmarked', match: 'identical' });
    expect(row('bread.txt')).toMatchObject({ role: 'keep', reason: 'newest' });
    expect(rows.some((r) => r.path === 'docs/unique.txt')).toBe(false);

    // A file edited after the scan.
    writeFileSync(join(folder, 'notes/bread-old.txt'), BREAD.replace('lively', 'very lively'));
    const before = snapshot(parent);

    const into = join(quarantine, 'q');
    const dry = await simsift(['apply', plan, '--into', into, '--root', parent, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would move docs/backup/bicycle.txt');
    expect(dry.stdout).toMatch(/would not move docs\/notes\/bread-old.txt: changed since the scan/);
    expect(existsSync(into)).toBe(false);
    expect(snapshot(parent)).toEqual(before);

    const applied = await simsift(['apply', plan, '--into', into, '--root', parent]);
    expect(applied.code, applied.stderr).toBe(1); // the edited file was not moved
    for (const p of ['articles/bicycle.txt', 'backup/bicycle.txt', 'drafts/bicycle-sentence-added.txt']) {
      expect(existsSync(join(folder, p))).toBe(false);
      expect(readFileSync(join(into, 'docs', p)).toString('base64')).toBe(before[`docs/${p}`]);
    }
    expect(readFileSync(join(folder, 'notes/bread-old.txt'), 'utf8')).toContain('very lively');
    expect(existsSync(join(into, 'docs/notes/bread-old.txt'))).toBe(false);
    expect(applied.stdout).toMatch(/not moved docs\/notes\/bread-old.txt: changed since the scan/);
    const log = /undo log: (.*simsift-undo-.*\.json)/.exec(applied.stdout)![1]!;
    expect(existsSync(log)).toBe(true);

    const undone = await simsift(['apply', '--undo', log]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(snapshot(parent)).toEqual(before);
  } finally {
    rmSync(parent, { recursive: true, force: true });
    rmSync(quarantine, { recursive: true, force: true });
  }
});
