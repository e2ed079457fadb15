import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

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

    await waitForSaved(page);
    await page.reload();
    await app.waitForState('done');
    expect(await app.figures()).toEqual(before);
    await expect(app.savedDocuments).toHaveText(`${corpus.files} documents saved in this browser`);
    await expect(app.panel.getByLabel('Storage used')).toContainText(' used');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
