/**
 * The marks a person expects in the keep panel, in real Chromium: a protected folder that matches nothing
 * is an error; keep one and mark the rest, invert, "not a duplicate", a filter and an order; the marks and
 * the ignore list survive a reload; the plan leaves the ignored document out.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { BICYCLE_FILES, BREAD, writeFolder } from './keep-texts.ts';


test('marks: keep one, invert, not a duplicate, filter and order, saved across a reload, honoured by the plan', async ({ page }) => {
  test.setTimeout(120_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-marks-'));
  try {
    const folder = join(parent, 'docs');
    writeFolder(folder, { ...BICYCLE_FILES, 'bread.txt': (BREAD + ' ').repeat(4), 'bread-copy.txt': (BREAD + ' ').repeat(4) });
    const app = new ResultsPage(page);
    await app.open();
    await new PersistencePage(page).chooseFolder(folder);
    await app.waitForDone();
    const panel = page.getByRole('region', { name: 'Keep and clean up' });
    const summary = panel.getByRole('status').first();
    await expect(summary).toContainText('2 files marked for removal');

    // A protected folder that matches no file is an error, not a silent no-op.
    const protectedField = panel.getByLabel('Protected folders (one per line; everything under them is kept)');
    await protectedField.fill('docs/OLD');
    await protectedField.blur();
    await expect(panel.getByRole('alert')).toContainText('“docs/OLD” matches no file');
    await expect(panel.getByRole('button', { name: 'Export plan JSON' })).toBeDisabled();
    await protectedField.fill('');
    await protectedField.blur();
    await expect(panel.getByRole('alert')).toHaveCount(0);

    await panel.getByText('Show each group’s marks').click();
    const bicycleGroup = panel.getByRole('group', { name: /Group \d+ · near-duplicates/ });
    const group = (await bicycleGroup.locator('legend').innerText()).match(/Group (\d+)/)![1]!;
    const draft = panel.getByRole('checkbox', { name: 'Remove docs/drafts/bicycle-sentence-added.txt' });
    await expect(draft).not.toBeChecked();
    await panel.getByRole('button', { name: `Keep one, mark the rest in group ${group}` }).click();
    await expect(draft).toBeChecked();
    await expect(summary).toContainText('3 files marked for removal');
    await panel.getByRole('button', { name: `Invert marks in group ${group}` }).click();
    await expect(draft).not.toBeChecked();
    await expect(panel.getByRole('checkbox', { name: 'Remove docs/backup/bicycle.txt' })).not.toBeChecked();
    await expect(summary).toContainText('1 file marked for removal');
    await panel.getByRole('button', { name: `Invert marks in group ${group}` }).click();
    await expect(draft).toBeChecked();

    // Not a duplicate: out of the decisions.
    await panel.getByRole('button', { name: 'Not a duplicate: docs/backup/bicycle.txt' }).click();
    await expect(panel.getByRole('checkbox', { name: 'Remove docs/backup/bicycle.txt' })).toBeDisabled();
    await expect(summary).toContainText('2 files marked for removal');

    // Filter: identical copies only hides the bicycle group; order by space freed puts bread (four times the text) first.
    await panel.getByLabel('Show groups').selectOption('identical');
    await expect(bicycleGroup).toHaveCount(0);
    await panel.getByLabel('Show groups').selectOption('all');
    await panel.getByLabel('Order groups by').selectOption('reclaimable');
    await expect(panel.getByRole('group', { name: 'Marks', exact: true }).locator('legend').first()).toContainText('identical copies');

    // Saved: after a reload the marks and the ignore list are as they were.
    await waitForSaved(page);
    await page.reload();
    await app.waitForDone();
    await expect(summary).toContainText('2 files marked for removal');
    await panel.getByText('Show each group’s marks').click();
    await expect(draft).toBeChecked();
    await expect(panel.getByRole('checkbox', { name: 'Remove docs/backup/bicycle.txt' })).toBeDisabled();

    // The plan leaves the ignored document out.
    const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Export plan JSON' }).click()]);
    const plan = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { rows: Array<{ path: string; role: string; bytes_hash: string | null }> };
    expect(plan.rows.map((r) => r.path)).not.toContain('docs/backup/bicycle.txt');
    expect(plan.rows.find((r) => r.path === 'docs/drafts/bicycle-sentence-added.txt')?.role).toBe('remove');
    expect(plan.rows.every((r) => /^[0-9a-f]{16}$/.test(r.bytes_hash ?? ''))).toBe(true);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
