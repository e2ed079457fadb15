import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';

test('changing the threshold k regroups at once, without scanning again', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const member = 'simsift-sample/drafts/bicycle-repair-one-word-changed.txt';
  await expect(app.option(member)).toHaveCount(1);
  const nearBefore = Number(await app.stat('Near-duplicate groups').textContent());
  const listBefore = await app.groupCount.textContent();

  // At k = 0 only identical fingerprints stay paired: this edited copy (several bits from every other version) leaves the list.
  await app.setThreshold(0);
  await expect(app.option(member)).toHaveCount(0);
  await expect(app.groupCount).not.toHaveText(listBefore!);
  expect(Number(await app.stat('Near-duplicate groups').textContent())).toBeLessThan(nearBefore);
  await expect(app.histogram.getByRole('status')).toContainText('within k = 0');
  await expect(app.summary).toContainText('k = 0');
  await expect(app.root).toHaveAttribute('data-scan-state', 'done');

  // Back up to the scan's k: the groups return as they were.
  await app.setThreshold(12);
  await expect(app.option(member)).toHaveCount(1);
  await expect(app.groupCount).toHaveText(listBefore!);
});
