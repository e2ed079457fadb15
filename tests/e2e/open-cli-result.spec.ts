/**
 * A scan made by the CLI, reviewed in the page (#36): `simsift scan PARENT --bundle` on a folder of real
 * licence texts (Debian's /usr/share/common-licenses) with copies and edits, the bundle opened in real
 * Chromium beside that folder. Wrong and damaged files are refused with a sentence and change nothing;
 * the page reads no unchanged file; a pair shows both texts; the pairs CSV is the CLI's byte for byte;
 * the plan by the same keep rule is the CLI's whole (its root too, where the CLI saw the folder), and a
 * mark changes exactly its row; the corpus and that root survive a reload; opening again asks before replacing, and a file edited since is named.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { withoutSavePicker } from './save-picker.ts';

const LICENSES = '/usr/share/common-licenses';

function simsift(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [resolve('bin/simsift.js'), ...args], { timeout: 120_000 }, (error, _stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
    );
  });
}

/** The folder: licences, an identical copy of two of them, an edited GPL-3; each file with its own day. */
function writeFolder(folder: string): void {
  const files: Array<[string, string | ((text: string) => string), string, string]> = [
    ['GPL-2', (t) => t, 'GPL-2', '2020-01-01'],
    ['GPL-2', (t) => t, 'copies/GPL-2.txt', '2024-06-01'],
    ['GPL-3', (t) => t, 'GPL-3', '2021-01-01'],
    ['GPL-3', (t) => t.replaceAll('Free Software Foundation', 'FSF'), 'drafts/GPL-3-edited', '2025-01-01'],
    ['Apache-2.0', (t) => t, 'Apache-2.0', '2019-01-01'],
    ['Apache-2.0', (t) => t, 'old/Apache-2.0', '2018-01-01'],
    ['MPL-2.0', (t) => t, 'MPL-2.0', '2022-01-01'],
    ['LGPL-2.1', (t) => t, 'LGPL-2.1', '2023-01-01'],
    ['BSD', (t) => t, 'BSD', '2017-01-01'],
  ];
  for (const [source, edit, path, day] of files) {
    const target = join(folder, path);
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, typeof edit === 'function' ? edit(readFileSync(join(LICENSES, source), 'utf8')) : edit);
    utimesSync(target, new Date(day), new Date(day));
  }
}

async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  return readFileSync((await file.path())!, 'utf8');
}

test('a CLI scan opened beside its folder is reviewed, marked and exported as the CLI writes it', async ({ page }) => {
  test.setTimeout(180_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-open-'));
  const out = mkdtempSync(join(tmpdir(), 'simsift-open-out-'));
  try {
    const folder = join(parent, 'docs');
    writeFolder(folder);
    const bundle = join(out, 'scan.simsift');
    const cliPlan = join(out, 'cli-plan.json');
    const cliCsv = join(out, 'cli.csv');
    // PARENT holds only the folder: the CLI's paths then start with its name, as the page's do.
    const cli = await simsift(['scan', parent, '--bundle', bundle, '--plan', cliPlan, '--keep', 'newest', '--out', cliCsv]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stderr).toContain('simsift scan: bundle');

    await withoutSavePicker(page);
    const app = new ResultsPage(page);
    await app.open();
    const corpus = page.getByRole('region', { name: 'Saved corpus' });
    const open = corpus.getByRole('group', { name: 'Open a CLI result' });
    const bundleInput = open.getByLabel('Open a CLI result');

    // Wrong and damaged files: a sentence, nothing opened.
    await bundleInput.setInputFiles(cliCsv);
    await expect(open.getByRole('alert')).toContainText('“cli.csv” cannot be opened as a CLI result. This file is the pairs CSV, not a bundle');
    const damaged = readFileSync(bundle);
    damaged[damaged.length - 100] ^= 1;
    writeFileSync(join(out, 'damaged.simsift'), damaged);
    await bundleInput.setInputFiles(join(out, 'damaged.simsift'));
    await expect(open.getByRole('alert')).toContainText('It is damaged (its checksum does not match');
    await expect(open.getByLabel('Choose the folder')).toHaveCount(0);

    // The bundle, then a folder that is not its own: refused, nothing stored.
    await bundleInput.setInputFiles(bundle);
    await expect(open).toContainText(`A scan of ${realpathSync(parent)} by SimSift`);
    await expect(open).toContainText('9 documents, 1 verified pair of different texts; word3, binary');
    const other = join(out, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'note.txt'), 'nothing of the scan is here, only a short note about the weather');
    await open.getByLabel('Choose the folder').setInputFiles(other);
    await expect(open.getByRole('alert')).toContainText('The folder "other" does not hold this result\'s files');
    await expect(corpus.getByLabel('Saved documents')).toHaveText('0 documents saved in this browser');

    // Its folder: the CLI's groups, no file read again.
    await open.getByLabel('Choose the folder').setInputFiles(folder);
    await expect(corpus.getByText('9 files unchanged (same size and modification time: not read).')).toBeVisible({ timeout: 60_000 });
    await app.waitForDone();
    await expect(corpus.getByLabel('Saved documents')).toHaveText('9 documents saved in this browser');
    expect(await download(page, 'Export CSV')).toBe(readFileSync(cliCsv, 'utf8'));

    // Review a pair: both texts from the folder, side by side, the edit marked.
    const edited = 'docs/drafts/GPL-3-edited';
    await app.option(edited).click();
    await expect(app.pairView.getByRole('region', { name: `Text of ${edited}` })).toContainText('FSF');
    await expect(app.pairView.getByRole('region', { name: 'Text of docs/GPL-3' })).toContainText('Free Software Foundation');
    await expect(app.pairView.getByRole('deletion').first()).toBeVisible();

    // The same keep rule as the CLI's --keep newest: the same plan, root and all (the bundle says where the folder lay).
    const keep = page.getByRole('region', { name: 'Keep and clean up' });
    await keep.getByText('Show each group’s marks').click();
    await keep.getByLabel('Add a keep rule').selectOption('newest');
    await keep.getByRole('button', { name: 'Add rule' }).click();
    await expect(keep.getByLabel('Kept: docs/copies/GPL-2.txt')).toBeVisible();
    const cliText = readFileSync(cliPlan, 'utf8');
    expect(cliText).toContain(`"root": ${JSON.stringify(realpathSync(parent))},`);
    const appPlan = await download(page, 'Export plan JSON');
    expect(appPlan).toBe(cliText);

    // A mark: the older GPL-3 (newest keeps the edited one, so it is left to review) marked for removal; exactly that row changes.
    const older = 'docs/GPL-3';
    await keep.getByRole('checkbox', { name: `Remove ${older}` }).check();
    const marked = JSON.parse(await download(page, 'Export plan JSON')).rows as Array<Record<string, unknown>>;
    const before = JSON.parse(cliText).rows as Array<Record<string, unknown>>;
    expect(before.find((r) => r.path === older)).toMatchObject({ role: 'review' });
    expect(marked.filter((r) => r.path !== older)).toEqual(before.filter((r) => r.path !== older));
    expect(marked.find((r) => r.path === older)).toEqual({ ...before.find((r) => r.path === older), role: 'remove', reason: 'marked' });

    // A reload: the opened scan is the saved corpus.
    await page.reload();
    await app.waitForDone();
    await expect(app.option(edited)).toBeVisible();
    expect(await download(page, 'Export CSV')).toBe(readFileSync(cliCsv, 'utf8'));
    expect(JSON.parse(await download(page, 'Export plan JSON')).root).toBe(realpathSync(parent));

    // A file edited since the CLI's scan, and the bundle opened again: asked first, then the file is named.
    appendFileSync(join(folder, 'LGPL-2.1'), '\nA line added after the scan.\n');
    await bundleInput.setInputFiles(bundle);
    await open.getByLabel('Choose the folder').setInputFiles(folder);
    const dialog = corpus.getByRole('dialog', { name: 'Replace the saved corpus?' });
    await expect(dialog).toContainText('replaces the saved corpus (9 documents)');
    await dialog.getByRole('button', { name: 'Keep the saved corpus' }).click();
    await expect(open.getByRole('status')).toHaveText('The saved corpus was kept; scan.simsift was not opened.');
    await bundleInput.setInputFiles(bundle);
    await open.getByLabel('Choose the folder').setInputFiles(folder);
    await dialog.getByRole('button', { name: 'Replace the saved corpus' }).click();
    await expect(corpus.getByText('8 files unchanged (same size and modification time: not read); 1 changed: docs/LGPL-2.1.')).toBeVisible({ timeout: 60_000 });
  } finally {
    rmSync(parent, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});
