import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, sampleSavedThenReloaded, waitForSaved } from './persistence-page.ts';
import { ResultsPage } from './results-page.ts';

test('a scanned corpus and its groups come back after a reload', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-persist-'));
  try {
    const corpus = generateCorpus(join(dir, 'corpus'), { files: 60, totalBytes: 60 * 3000, nearEvery: 10, exactEvery: 7, perFolder: 20, seed: 7 });
    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    await expect(app.savedDocuments).toHaveText(`${corpus.files} documents saved in this browser`);
    const before = await app.figures();
    expect(Number(before['Near-duplicate groups'])).toBeGreaterThan(0);
    expect(parseInt(before['Duplicate pairs'].replace(/,/g, ''), 10)).toBeGreaterThan(0);

    const timings = page.locator('.results__timings');
    await expect(timings).toContainText('Reading ');
    await waitForSaved(page);
    await page.reload();
    await app.waitForState('done');
    expect(await app.figures()).toEqual(before);
    // The restore read no file: the line says so, never "Reading 0.00 s".
    await expect(timings).toContainText('No file read (the saved corpus stood for every file)');
    await expect(app.savedDocuments).toHaveText(`${corpus.files} documents saved in this browser`);
    await expect(app.panel.getByLabel('Storage used')).toContainText(' used');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('after a reload, a pair opens with both texts read from the contents kept in this browser', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await sampleSavedThenReloaded(page, app);

  // The stored bytes of one batch come back as each document's range of one record.
  const member = 'simsift-sample/drafts/tides-one-word-changed.txt';
  await app.option(member).click();
  await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toContainText('harbour');
  const texts = app.pairView.getByRole('region', { name: /^Text of simsift-sample\/.*tides.*\.txt$/ });
  await expect(texts).toHaveCount(2);
  await expect(texts.nth(0)).toContainText('harbour');
  await expect(texts.nth(1)).toContainText('harbour');
  await expect(app.pairView.getByRole('deletion').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('pair-after-reload.png') });
});
