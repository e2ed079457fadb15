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

test('the k box keeps an out-of-range value as typed, says why, and changes nothing until it is valid', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const settings = page.getByRole('form', { name: 'Settings' });
  const k = settings.getByRole('spinbutton', { name: 'Threshold k (bits)' });
  const before = await k.inputValue();
  await k.fill('64');
  const message = settings.getByRole('alert').filter({ hasText: 'k = 64 is out of range' });
  await expect(message).toContainText(`from 0 to 16. Nothing changes until it is valid: k stays ${before}.`);
  await expect(k).toHaveAccessibleDescription(/k = 64 is out of range/);
  await expect(settings.getByRole('button', { name: 'Apply settings' })).toBeDisabled();
  // Anything that re-renders the results (here: sorting the groups) used to put the old value back.
  await page.getByLabel('Sort by').selectOption('path');
  await expect(app.option('simsift-sample/backup/sourdough.txt')).toBeVisible();
  await expect(k).toHaveValue('64');
  await expect(message).toBeVisible();
  await expect(app.summary).toContainText(`k = ${before}`);
  await k.fill('12');
  await expect(message).toHaveCount(0);
  await settings.getByRole('button', { name: 'Apply settings' }).click();
  await expect(app.summary).toContainText('k = 12');
});
