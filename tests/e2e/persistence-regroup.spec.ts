import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { waitForSaved } from './persistence-page.ts';

test('after a reload, changing k regroups the restored corpus as after a scan', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const member = 'simsift-sample/drafts/bicycle-repair-one-word-changed.txt';
  await expect(app.option(member)).toHaveCount(1);
  const listBefore = await app.groupCount.textContent();

  await waitForSaved(page);
  await page.reload();
  await app.waitForDone();
  await expect(app.option(member)).toHaveCount(1);

  // The restored corpus regroups in the workers: at k = 0 the edited copy leaves its group.
  await app.setThreshold(0);
  await expect(app.option(member)).toHaveCount(0);
  await expect(app.summary).toContainText('k = 0');
  await expect(app.root).toHaveAttribute('data-scan-state', 'done');

  // Back to the scan's k: the groups are the scan's again.
  await app.setThreshold(12);
  await expect(app.option(member)).toHaveCount(1);
  await expect(app.groupCount).toHaveText(listBefore!);

  // The regrouped parameters are what the next reload restores.
  await app.setThreshold(0);
  await expect(app.option(member)).toHaveCount(0);
  // The new k is saved behind the shown groups; the panel is busy until it is.
  await expect(page.getByRole('region', { name: 'Saved corpus' })).toHaveAttribute('aria-busy', 'false');
  await page.reload();
  await app.waitForDone();
  await expect(app.option(member)).toHaveCount(0);
  await expect(app.summary).toContainText('k = 0');
});
