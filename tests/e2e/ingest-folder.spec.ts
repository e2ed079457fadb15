import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { IngestPage } from './ingest-page.ts';

test('choosing a folder fingerprints it and shows exact and near duplicates', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-folder-'));
  try {
    const corpus = generateCorpus(join(dir, 'corpus'), { files: 60, totalBytes: 60 * 3000, nearEvery: 10, exactEvery: 7, perFolder: 20, seed: 7 });
    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    const results = app.results;
    await expect(results.getByRole('heading', { name: `Exact duplicates (${corpus.exact.length})` })).toBeVisible();
    const exactGroups = results.getByRole('list', { name: 'Exact-duplicate groups' });
    const [copy, original] = corpus.exact[0];
    const group = exactGroups.getByRole('listitem').filter({ hasText: corpus.pathOf(copy) }).first();
    await expect(group).toContainText(corpus.pathOf(original));
    // Every planted near-duplicate shows up as a pair with its distance. The pair names the file
    // that stands for the original's text, which may be an exact copy of the original.
    const nearGroups = results.getByRole('list', { name: 'Near-duplicate groups' });
    const sameText = (doc: number) => {
      const docs = new Set([doc]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [a, b] of corpus.exact) {
          if (docs.has(a) !== docs.has(b)) {
            docs.add(a).add(b);
            grew = true;
          }
        }
      }
      return [...docs].map((d) => `corpus/${corpus.pathOf(d)}`);
    };
    for (const [nearCopy, nearOriginal] of corpus.near) {
      const row = nearGroups.getByRole('row').filter({ hasText: `corpus/${corpus.pathOf(nearCopy)}` });
      await expect(row).toHaveCount(1);
      const cells = await row.getByRole('cell').allTextContents();
      expect(sameText(nearOriginal)).toContain(cells[0] === `corpus/${corpus.pathOf(nearCopy)}` ? cells[1] : cells[0]);
      expect(cells[2]).toMatch(/^\d+$/);
    }
    await expect(page.getByRole('status')).toContainText(`Scanned ${corpus.files} files`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the main thread runs no task over 100 ms while a few thousand files are scanned', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-longtask-'));
  try {
    generateCorpus(dir, { files: 4000, totalBytes: 4000 * 4000, nearEvery: 9, exactEvery: 13, perFolder: 500, seed: 11 });
    const app = new IngestPage(page);
    await app.open();
    await app.recordLongTasks();
    await app.chooseFolder(dir);
    await app.waitForState('done');
    // Let the final render's task land in the observer.
    await page.waitForTimeout(300);
    const tasks = await app.longTasksDuringScan();
    expect(Math.max(0, ...tasks), `long tasks: ${tasks.map((t) => Math.round(t)).join(', ')}`).toBeLessThanOrEqual(100);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
