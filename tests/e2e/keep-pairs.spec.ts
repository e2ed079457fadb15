/**
 * Marks and counts in real Chromium: every group is reachable in the marks panel (a virtual list), whose count
 * is the group list's; a pair marked "not a duplicate" leaves only that pair; and the summary and the
 * Export caption count the rows Export CSV writes after such marks.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { escapeRegExp, ResultsPage } from './results-page.ts';
import { withoutSavePicker } from './save-picker.ts';
import { BICYCLE_FILES, writeFolder } from './keep-texts.ts';
import { mulberry32 } from '../fixtures/mulberry32.ts';

/** A text of 80 made-up words from `seed`: no two seeds share many 3-word shingles. */
function randomText(seed: number): string {
  const next = mulberry32(seed);
  return Array.from({ length: 80 }, () => (next() % 1_000_000).toString(36) + 'x').join(' ');
}

/** Writes `files` under `folder` and scans it with Choose folder (downloads as files, no save picker). */
async function scanFolder(page: Page, folder: string, files: Readonly<Record<string, string>>): Promise<ResultsPage> {
  writeFolder(folder, files);
  await withoutSavePicker(page);
  const app = new ResultsPage(page);
  await app.open();
  await page.getByLabel('Choose folder', { exact: true }).setInputFiles(folder);
  await app.waitForDone();
  return app;
}

test('every group is reachable in the marks, a pair marked not a duplicate leaves only that pair, and the counts are the rows', async ({ page }) => {
  test.setTimeout(120_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-pairs-'));
  try {
    const folder = join(parent, 'docs');
    const files: Record<string, string> = { ...BICYCLE_FILES };
    for (let i = 1; i <= 60; i++) {
      files[`many/t${i}.txt`] = randomText(i);
      files[`many/t${i}-copy.txt`] = randomText(i);
    }
    const app = await scanFolder(page, folder, files);
    await expect(app.groupCount).toHaveText(/^61 groups,/);

    const panel = page.getByRole('region', { name: 'Keep and clean up' });
    await panel.getByText('Show each group’s marks').click();
    // One virtual list of every group (its count is the group list's): only the groups on screen are made,
    // and scrolling to its end reaches the last.
    await expect(panel.getByText(/^61 groups listed: scroll/)).toBeVisible();
    const marks = panel.getByRole('group', { name: 'Marks', exact: true });
    const last = panel.getByRole('group', { name: /^Group 61 · / });
    await expect(last).toHaveCount(0);
    expect(await marks.getByRole('group', { name: /^Group \d+ · / }).count()).toBeLessThan(30);
    await marks.scrollIntoViewIfNeeded();
    // Scrolled to its end (again while the measured heights replace the estimates), the last group shows.
    await expect(async () => {
      await marks.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(last).toBeInViewport({ timeout: 500 });
    }).toPass({ timeout: 20_000 });
    await expect(last.getByRole('checkbox')).toHaveCount(1);
    await marks.evaluate((el) => el.scrollTo(0, 0));

    // The draft is a near-duplicate of both bicycle copies: two pairs. Marked not a duplicate of its
    // group's reference, only that pair goes; its pair with the other copy stays.
    const pairsBefore = 60 + 3;
    await expect(app.stat('Duplicate pairs')).toContainText(`${pairsBefore}`);
    const draft = 'docs/drafts/bicycle-sentence-added.txt';
    const separate = panel.getByRole('button', { name: new RegExp(`^Not a duplicate of docs/(articles|backup)/bicycle\\.txt: ${draft.replace(/[./]/g, '\\$&')}$`) });
    const reference = (await separate.getAttribute('aria-label'))!.match(/^Not a duplicate of (\S+):/)![1]!;
    await separate.click();
    await expect(separate).toHaveAttribute('aria-pressed', 'true');
    await expect(panel.getByRole('checkbox', { name: `Remove ${draft}` })).toBeDisabled();
    // And a document marked not a duplicate leaves all of its pairs (t1 with its copy).
    await panel.getByRole('button', { name: 'Not a duplicate: docs/many/t1-copy.txt' }).click();

    const rowsAfter = pairsBefore - 2;
    await expect(app.stat('Duplicate pairs')).toContainText(`${rowsAfter}`);
    const exportButton = page.getByRole('button', { name: 'Export CSV', exact: true });
    await expect(exportButton).toHaveAccessibleDescription(new RegExp(`^${rowsAfter} duplicate pairs, one row each`));
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    const rows = readFileSync((await download.path())!, 'utf8').split('\r\n').slice(1, -1);
    expect(rows.length).toBe(rowsAfter);
    const pairOf = (a: string, b: string) => rows.some((r) => r.includes(`,${a},${b},`) || r.includes(`,${b},${a},`));
    const other = reference.includes('articles') ? 'docs/backup/bicycle.txt' : 'docs/articles/bicycle.txt';
    expect(pairOf(reference, draft)).toBe(false);
    expect(pairOf(other, draft)).toBe(true);
    expect(pairOf(reference, other)).toBe(true);
    expect(rows.some((r) => r.includes('docs/many/t1-copy.txt'))).toBe(false);

    // The groups CSV has as many groups as the list counts, and the plan as many rows as its status says.
    const listed = Number((await app.groupCount.textContent())!.match(/^(\d+) groups/)![1]);
    const [groupsFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export groups CSV', exact: true }).click()]);
    const groupRows = readFileSync((await groupsFile.path())!, 'utf8').split('\r\n').slice(1, -1);
    expect(new Set(groupRows.map((r) => r.split(',')[0])).size).toBe(listed);
    const [planFile] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export plan JSON', exact: true }).click()]);
    const planRows = JSON.parse(readFileSync((await planFile.path())!, 'utf8')).rows as unknown[];
    await expect(panel.getByRole('group', { name: 'Export plan' }).getByRole('status')).toContainText(`Downloading the plan (${planRows.length} rows)`);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('a pair marked "not duplicates of each other" in the pair view leaves only that pair, and the keep panel sees the same mark', async ({ page }) => {
  test.setTimeout(120_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-pair-mark-'));
  try {
    const folder = join(parent, 'docs');
    const app = await scanFolder(page, folder, BICYCLE_FILES);
    await expect(app.stat('Duplicate pairs')).toContainText('3');

    // The draft against the copy that is not its group's reference (opened from the draft's near-duplicates).
    const draft = 'docs/drafts/bicycle-sentence-added.txt';
    await app.option(draft).click();
    const reference = (await app.pairView.getByRole('region', { name: /^Text of docs\/(articles|backup)\/bicycle\.txt$/ }).getAttribute('aria-label'))!.slice('Text of '.length);
    const other = reference.includes('articles') ? 'docs/backup/bicycle.txt' : 'docs/articles/bicycle.txt';
    await page.getByRole('region', { name: `Near-duplicates of ${draft}` }).getByRole('button', { name: new RegExp(`^${other.replace(/[./]/g, '\\$&')}`) }).click();
    await expect(app.pairView.getByRole('region', { name: `Text of ${other}` })).toBeVisible();
    const mark = page.getByRole('group', { name: 'This pair' }).getByRole('button', { name: 'Not duplicates of each other' });
    await expect(mark).toHaveAttribute('aria-pressed', 'false');
    await expect(app.option(draft)).not.toContainText('Not duplicates of each other');
    await mark.click();
    await expect(mark).toHaveAttribute('aria-pressed', 'true');
    // The group list says so on both rows (the two are members of the reference's group), naming the other.
    await expect(app.option(draft)).toContainText('Not duplicates of each other');
    await expect(app.option(draft)).toHaveAccessibleName(new RegExp(`, not duplicates of each other with ${escapeRegExp(other)}$`));
    await expect(app.option(other)).toHaveAccessibleName(new RegExp(`, not duplicates of each other with ${escapeRegExp(draft)}$`));
    await expect(app.option(reference)).not.toContainText('Not duplicates of each other');

    // Only that pair goes: the summary, the Export caption and the CSV say 2, and the draft keeps its pair with the reference.
    await expect(app.stat('Duplicate pairs')).toContainText('2');
    const exportButton = page.getByRole('button', { name: 'Export CSV', exact: true });
    await expect(exportButton).toHaveAccessibleDescription(/^2 duplicate pairs, one row each/);
    const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()]);
    const rows = readFileSync((await download.path())!, 'utf8').split('\r\n').slice(1, -1);
    const pairOf = (a: string, b: string) => rows.some((r) => r.includes(`,${a},${b},`) || r.includes(`,${b},${a},`));
    expect(rows.length).toBe(2);
    expect(pairOf(other, draft)).toBe(false);
    expect(pairOf(reference, draft)).toBe(true);
    expect(pairOf(reference, other)).toBe(true);
    // The marks are untouched: the draft is still its reference's near-duplicate there.
    const panel = page.getByRole('region', { name: 'Keep and clean up' });
    await panel.getByText('Show each group’s marks').click();
    await expect(panel.getByRole('checkbox', { name: `Remove ${draft}` })).toBeEnabled();
    const fromReference = panel.getByRole('button', { name: `Not a duplicate of ${reference}: ${draft}` });
    await expect(fromReference).toHaveAttribute('aria-pressed', 'false');

    // The same mark on the pair with the reference shows in the keep panel at once, and is saved.
    await app.option(draft).click();
    await expect(app.pairView.getByRole('region', { name: `Text of ${reference}` })).toBeVisible();
    await expect(mark).toHaveAttribute('aria-pressed', 'false');
    await mark.click();
    await expect(fromReference).toHaveAttribute('aria-pressed', 'true');
    await expect(panel.getByRole('checkbox', { name: `Remove ${draft}` })).toBeDisabled();
    await expect(app.stat('Duplicate pairs')).toContainText('1');
    await expect(app.option(draft)).toHaveAccessibleName(new RegExp(`, not duplicates of each other with (${escapeRegExp(reference)}, ${escapeRegExp(other)}|${escapeRegExp(other)}, ${escapeRegExp(reference)})$`));
    await page.reload();
    await app.waitForDone();
    await expect(app.stat('Duplicate pairs')).toContainText('1');
    await expect(app.option(draft)).toContainText('Not duplicates of each other');
    await app.option(draft).click();
    await expect(mark).toHaveAttribute('aria-pressed', 'true');
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
