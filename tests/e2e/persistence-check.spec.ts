import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

test('checking files against a restored corpus names their duplicates without adding them', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-persist-check-'));
  try {
    const corpus = generateCorpus(join(dir, 'corpus'), { files: 30, totalBytes: 30 * 3000, nearEvery: 0, exactEvery: 0, perFolder: 30, seed: 17 });
    const original = corpus.pathOf(4);
    const words = readFileSync(join(dir, 'corpus', original), 'utf8').split(' ');
    for (const at of [30, 150, 260]) words[at] = 'qqqqqq';
    writeFileSync(join(dir, 'edited.txt'), words.join(' '));
    writeFileSync(join(dir, 'copy.txt'), readFileSync(join(dir, 'corpus', corpus.pathOf(9))));
    writeFileSync(join(dir, 'new.txt'), 'an entirely unrelated text '.repeat(40));

    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    await waitForSaved(page);
    await page.reload();
    await app.waitForState('done');

    await app.panel.getByLabel('Check files against the corpus').setInputFiles(['edited.txt', 'copy.txt', 'new.txt'].map((f) => join(dir, f)));
    const results = app.panel.getByRole('region', { name: 'Check results' });
    await expect(results.getByRole('listitem').filter({ hasText: 'edited.txt' })).toContainText(`near-duplicate of corpus/${original} (distance`);
    await expect(results.getByRole('listitem').filter({ hasText: 'edited.txt' })).toContainText('Jaccard 0.9');
    await expect(results.getByRole('listitem').filter({ hasText: 'copy.txt' })).toContainText(`exact copy of corpus/${corpus.pathOf(9)}`);
    await expect(results.getByRole('listitem').filter({ hasText: 'new.txt' })).toContainText('no duplicate in the corpus');
    // Nothing was added.
    await expect(app.savedDocuments).toHaveText('30 documents saved in this browser');
    expect(await app.stat('Files scanned')).toBe('30');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('at a small k the check queries the stored permuted tables, and the corpus panel says so', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-persist-tables-'));
  try {
    const corpus = generateCorpus(join(dir, 'corpus'), { files: 30, totalBytes: 30 * 3000, nearEvery: 0, exactEvery: 0, perFolder: 30, seed: 17 });
    const original = corpus.pathOf(4);
    const words = readFileSync(join(dir, 'corpus', original), 'utf8').split(' ');
    words[150] = 'qqqqqq';
    writeFileSync(join(dir, 'edited.txt'), words.join(' '));

    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    await expect(app.panel.getByLabel('Index in use')).toHaveText('index: a scan of every fingerprint (at this k, faster than permuted tables)');
    await page.getByRole('region', { name: 'Distance histogram' }).getByRole('spinbutton', { name: 'Threshold k (number)' }).fill('8');
    await expect(app.panel.getByLabel('Index in use')).toHaveText('index: permuted tables, 9 tables (k ≤ 8)');

    // The tables were stored: after a reload the check reads them.
    await waitForSaved(page);
    await page.reload();
    await app.waitForState('done');
    await expect(app.panel.getByLabel('Index in use')).toHaveText('index: permuted tables, 9 tables (k ≤ 8)');
    await app.panel.getByLabel('Check files against the corpus').setInputFiles([join(dir, 'edited.txt')]);
    const results = app.panel.getByRole('region', { name: 'Check results' });
    await expect(results.getByRole('listitem').filter({ hasText: 'edited.txt' })).toContainText(`near-duplicate of corpus/${original} (distance`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
