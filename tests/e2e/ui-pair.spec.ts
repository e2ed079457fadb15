import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';

test('opening a group member shows the bit diff and both texts with their differences', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const member = 'simsift-sample/drafts/tides-paragraphs-reordered.txt';
  await app.option(member).click();
  await expect(app.option(member)).toHaveAttribute('aria-selected', 'true');

  // Bit diff: both fingerprints as 64 cells, the distance, the estimate and the exact Jaccard.
  await expect(app.bitDiff.getByRole('img', { name: new RegExp(`^Fingerprint of ${member}: [0-9a-f]{16}$`) })).toBeVisible();
  const distance = await app.bitDiff.getByRole('definition').nth(0).textContent();
  expect(Number(distance!.match(/^\d+/)![0])).toBeGreaterThan(0);
  await expect(app.bitDiff.getByRole('img', { name: /^Differing bits/ })).toBeVisible();
  await expect(app.bitDiff.getByRole('definition').nth(1)).toHaveText(/^0\.\d{3}$/);
  await expect(app.bitDiff.getByRole('definition').nth(2)).toHaveText(/^(0\.\d{3}|1\.000)$/);

  // Pair view: the reference and the member side by side, the changed word marked on each side.
  await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toContainText('harbour');
  // The other side is the group's reference, another version of the same article.
  const texts = app.pairView.getByRole('region', { name: /^Text of simsift-sample\/.*tides.*\.txt$/ });
  await expect(texts).toHaveCount(2);
  await expect(texts.nth(0)).toContainText('harbour');
  await expect(app.pairView.getByRole('deletion').first()).toBeVisible();
  await expect(app.pairView.getByRole('insertion').first()).toBeVisible();

  await app.pairView.getByRole('button', { name: 'Close' }).click();
  await expect(app.pairView).toHaveCount(0);
});

test('the pair view lists every near-duplicate of a document, opens any of them, and can make it the reference', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const member = 'simsift-sample/drafts/tides-sentence-added.txt';
  await app.option(member).click();
  const list = page.getByRole('region', { name: `Near-duplicates of ${member}` });
  // The reference's identical copy is a near-duplicate of the member too, though the group row pairs
  // the member with the reference only.
  await expect(list.getByRole('button', { name: /^simsift-sample\/backup\/tides\.txt/ })).toBeVisible();
  await list.getByRole('button', { name: /^simsift-sample\/backup\/tides\.txt/ }).click();
  await expect(app.pairView.getByRole('region', { name: 'Text of simsift-sample/backup/tides.txt' })).toBeVisible();
  await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toBeVisible();

  await list.getByRole('button', { name: `Make ${member} the reference` }).click();
  await expect(app.option(member)).toHaveAccessibleName(new RegExp(`^${member.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, reference of group \\d+`));
});
