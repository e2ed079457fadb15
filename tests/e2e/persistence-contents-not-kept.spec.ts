import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { sampleSavedThenReloaded } from './persistence-page.ts';

const SAMPLE = join(import.meta.dirname, '../../public/sample');

test('without kept contents, the pair view says so after a reload and shows the pair once the files are picked again', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await page.getByRole('checkbox', { name: /Keep file contents/ }).click();
  await expect(page.getByRole('checkbox', { name: /Keep file contents/ })).not.toBeChecked();
  await sampleSavedThenReloaded(page, app);

  const member = 'simsift-sample/drafts/tides-one-word-changed.txt';
  await app.option(member).click();
  const note = page.getByRole('group', { name: 'File contents not kept' });
  await expect(note).toContainText('not kept in this browser');
  await expect(note).toContainText(member);
  await expect(app.pairView).toHaveCount(0);

  await note
    .getByLabel(/Pick the files? again to show the pair/)
    .setInputFiles([
      // The group's reference is the tides text that has a copy (articles/ and backup/), the drafts its members.
      join(SAMPLE, 'articles', 'tides.txt'),
      ...readdirSync(join(SAMPLE, 'drafts')).filter((f) => f.startsWith('tides')).map((f) => join(SAMPLE, 'drafts', f)),
    ]);
  await expect(note).toHaveCount(0);
  await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toContainText('harbour');
  await expect(app.pairView.getByRole('deletion').first()).toBeVisible();
});
