import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';

test('trying the sample corpus shows a summary and the duplicate groups', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await expect(page.getByRole('heading', { name: 'Find near-duplicate texts in a folder' })).toBeVisible();
  await app.trySample();

  await expect(app.stat('Files scanned')).toHaveText('32');
  // Groups hold identical copies and near-duplicates together; one group holds identical texts only.
  await expect(app.stat('Exact-duplicate groups')).not.toHaveText('0');
  await expect(app.stat('Near-duplicate groups')).not.toHaveText('0');
  await expect(app.stat('Duplicate pairs')).toContainText('identical');
  await expect(app.summary).toContainText('word3');
  // The first-visit explanation gives way to the results.
  await expect(page.getByRole('heading', { name: 'Find near-duplicate texts in a folder' })).toHaveCount(0);

  // A one-word edit is a near-duplicate of its original, listed with its distance (which may be 0:
  // the fingerprints of texts one word apart can be equal, while their Jaccard is below 1).
  await expect(app.option('simsift-sample/drafts/tides-one-word-changed.txt')).toHaveAccessibleName(/distance \d+, similarity [01]\.\d{3}/);
  // The rows' columns are headed, and each document's file size is shown.
  const list = page.getByRole('region', { name: 'Duplicate groups' });
  for (const heading of ['size', 'distance', 'estimate', 'Jaccard']) await expect(list.getByText(heading, { exact: true })).toBeVisible();
  const size = statSync(join('public', 'sample', 'drafts', 'tides-one-word-changed.txt')).size;
  const shown = `${(size / 1000).toFixed(1)} KB`;
  await expect(app.option('simsift-sample/drafts/tides-one-word-changed.txt')).toHaveAccessibleDescription(`File size ${shown}`);
  await expect(app.option('simsift-sample/drafts/tides-one-word-changed.txt').getByText(shown, { exact: true })).toBeVisible();
  // A byte-identical copy is listed as identical to its reference; the filter finds it.
  await page.getByRole('searchbox', { name: 'Filter by path' }).fill('backup/old');
  await expect(app.groupCount).toContainText('1 of');
  await expect(app.option('simsift-sample/backup/old/sourdough copy.txt')).toBeVisible();
  await expect(app.option('simsift-sample/backup/sourdough.txt')).toBeVisible();
});
