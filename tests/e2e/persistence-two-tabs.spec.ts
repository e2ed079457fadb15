import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage } from './persistence-page.ts';

test('a second tab follows the corpus another tab scans and clears', async ({ context }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-persist-tabs-'));
  try {
    generateCorpus(join(dir, 'corpus'), { files: 50, totalBytes: 50 * 3000, nearEvery: 10, exactEvery: 7, perFolder: 25, seed: 9 });
    const first = new PersistencePage(await context.newPage());
    const second = new PersistencePage(await context.newPage());
    await first.page.goto('/');
    await second.page.goto('/');
    await second.waitForState('idle');

    // Headless Chromium throttles background tabs: bring the one a person would be looking at forward.
    await first.page.bringToFront();
    await first.chooseFolder(join(dir, 'corpus'));
    await first.waitForState('done');
    const figures = await first.figures();
    // The other tab hears of the change and restores the same corpus and groups.
    await second.waitForState('done');
    await expect(second.panel.getByRole('status')).toContainText('changed in another tab');
    expect(await second.figures()).toEqual(figures);

    await second.page.bringToFront();
    // Clearing asks first; Cancel keeps everything.
    await second.panel.getByRole('button', { name: 'Clear corpus' }).click();
    const dialog = second.page.getByRole('dialog', { name: 'Clear the saved corpus?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(second.savedDocuments).toHaveText('50 documents saved in this browser');
    await second.panel.getByRole('button', { name: 'Clear corpus' }).click();
    await dialog.getByRole('button', { name: 'Clear', exact: true }).click();
    await second.waitForState('idle');
    await expect(second.savedDocuments).toHaveText('0 documents saved in this browser');
    // The first tab follows.
    await first.waitForState('idle');
    await expect(first.savedDocuments).toHaveText('0 documents saved in this browser');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
