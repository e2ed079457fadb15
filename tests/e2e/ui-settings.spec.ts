import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';

test('applying settings regroups (grouping) or scans again (features)', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const settings = page.getByRole('form', { name: 'Settings' });
  // A new scan replaces the progress line; a regroup leaves the very same element in place.
  const scanned = await page.getByText(/^Scanned 32 files/).elementHandle();

  // Grouping changes only how verified pairs are grouped: no new scan.
  await settings.getByRole('radio', { name: /^Connected components/ }).check();
  await settings.getByRole('button', { name: 'Apply settings' }).click();
  await expect(app.summary).toContainText('components');
  await expect(app.root).toHaveAttribute('data-scan-state', 'done');
  expect(await scanned!.evaluate((e) => e.isConnected)).toBe(true);

  // Features change every fingerprint: the files are scanned again with the new settings.
  await settings.getByRole('radio', { name: /^Character n-grams/ }).check();
  await settings.getByRole('button', { name: 'Apply settings' }).click();
  await expect(app.summary).toContainText('char5', { timeout: 60_000 });
  await expect(app.root).toHaveAttribute('data-scan-state', 'done');
  await expect(app.summary).toContainText('components');
  await expect(app.stat('Files scanned')).toHaveText('32');
  expect(await scanned!.evaluate((e) => e.isConnected)).toBe(false);
});
