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

test("the histogram's k box refuses an out-of-range k as typed (typing 64 never becomes 16)", async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const box = app.histogram.getByRole('spinbutton', { name: 'Threshold k (number)' });
  await app.setThreshold(10);
  await expect(app.summary).toContainText('k = 10');
  await box.fill('64');
  await expect(box).toHaveValue('64');
  await expect(app.histogram.getByRole('alert')).toHaveText('k = 64 is out of range: enter a whole number from 0 to 16. k stays 10.');
  await expect(box).toHaveAccessibleDescription(/k = 64 is out of range/);
  await expect(app.histogram.getByRole('status')).toContainText('within k = 10');
  await expect(app.summary).toContainText('k = 10');
  await expect(box).toHaveValue('64');
  await box.fill('8');
  await expect(app.histogram.getByRole('alert')).toHaveCount(0);
  await expect(app.summary).toContainText('k = 8');
});

test('the histogram shows verified near-duplicates apart from rejected candidates, on a y axis', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const bars = app.histogram.getByRole('listitem', { name: /^Distance \d+: / });
  const labels = await bars.evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''));
  let verified = 0;
  for (const label of labels) {
    const m = label.match(/^Distance (\d+): ([\d,]+) candidate pairs?, ([\d,]+) verified, ([\d,]+) rejected$/);
    expect(m, label).not.toBeNull();
    const [all, yes, no] = [m![2], m![3], m![4]].map((x) => Number(x.replace(/,/g, '')));
    expect(yes + no).toBe(all);
    verified += yes;
  }
  expect(verified).toBeGreaterThan(0);
  await expect(app.histogram.getByRole('status')).toContainText(`${verified} verified`);
  await expect(app.histogram).toContainText('candidates rejected by exact Jaccard');
  await app.histogram.screenshot({ path: 'test-results/histogram.png' });
});

test('the recall note is for the chosen similarity, and names the k that would reach one this k cannot', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const note = app.histogram.getByText(/^At k = \d+, about/);
  await expect(note).toContainText('of the pairs at Jaccard 0.8–0.9 are found');
  const settings = page.getByRole('form', { name: 'Settings' });
  await settings.getByLabel('Similarity threshold').fill('0.5');
  await settings.getByRole('button', { name: 'Apply settings' }).click();
  await expect(app.summary).toContainText('Jaccard ≥ 0.5');
  await app.setThreshold(16);
  await expect(note).toContainText('of the pairs at Jaccard 0.5–0.6 are found');
  await expect(note).toContainText('k = 16 cannot reach similarity 0.5: k = 23 would find 95%, more than this page searches (16); simsift scan --k 23 does.');
});
