import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropSavePicker } from './save-picker.ts';
import { writeCorpusFolder } from '../fixtures/corpus-folder.ts';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { ResultsPage } from './results-page.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { cancelOnceFilesDone } from './ingest-page.ts';

async function exportCsv(page: Page, button = 'Export CSV'): Promise<string> {
  // Chromium offers a save picker, which headless Chromium cancels: export as a download, as elsewhere.
  await dropSavePicker(page);
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  return readFileSync((await file.path())!).subarray(3).toString('utf8');
}

test('a file too large to compare is still listed as too large after a reload', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-skips-'));
  try {
    writeCorpusFolder(join(dir, 'corpus'));
    // 65 MB of text: over the 64 MB a document may have; the page skips it without a worker.
    const line = 'the quick brown fox jumps over the lazy dog and runs far away\n';
    writeFileSync(join(dir, 'corpus', 'huge.txt'), line.repeat(Math.ceil((65 * 1024 * 1024) / line.length)));
    const app = new ResultsPage(page);
    const saved = new PersistencePage(page);
    await app.open();
    await saved.chooseFolder(join(dir, 'corpus'));
    await app.waitForDone();
    await waitForSaved(page);
    const skippedList = page.getByRole('list', { name: 'Skipped files' });
    const check = async () => {
      expect(await saved.stat('Files scanned')).toBe('8');
      await expect(skippedList.getByRole('listitem').filter({ hasText: 'corpus/huge.txt' })).toContainText('Too large (65.0 MB)');
      await expect(page.getByRole('list', { name: 'Skipped by reason' })).toContainText(/Too large.*: 1/);
      await expect(skippedList).not.toContainText('Could not be read');
    };
    await check();
    await page.reload();
    await app.waitForDone();
    await check();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the same folder exports the same bytes after a reload as right after its scan', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-ties-'));
  try {
    // Several batches, exact copies and near-duplicates: ties between batches decide references.
    generateCorpus(join(dir, 'corpus'), { files: 1500, totalBytes: 1500 * 1500, nearEvery: 5, exactEvery: 3, perFolder: 300, seed: 5 });
    const app = new ResultsPage(page);
    await app.open();
    await new PersistencePage(page).chooseFolder(join(dir, 'corpus'));
    await app.waitForDone();
    const pairs = await exportCsv(page);
    const groups = await exportCsv(page, 'Export groups CSV');
    await waitForSaved(page);
    await page.reload();
    await app.waitForDone();
    expect(await exportCsv(page)).toBe(pairs);
    expect(await exportCsv(page, 'Export groups CSV')).toBe(groups);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('after Cancel and a reload, the partial corpus says so and offers Resume', async ({ page }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'simsift-cancel-reload-'));
  try {
    generateCorpus(join(dir, 'corpus'), { files: 2000, totalBytes: 30e6, nearEvery: 0, exactEvery: 0, perFolder: 500, seed: 3 });
    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('scanning');
    await cancelOnceFilesDone(page, '2,000');
    await app.waitForState('cancelled');
    await waitForSaved(page);
    const savedCount = Number((await app.savedDocuments.innerText()).split(' ')[0]!.replaceAll(',', ''));
    expect(savedCount).toBeGreaterThan(0);
    expect(savedCount).toBeLessThan(2000);

    await page.reload();
    const question = page.getByRole('group', { name: 'Interrupted scan' });
    await expect(question).toContainText(`The last scan was cancelled — ${savedCount.toLocaleString('en')} of 2,000 files saved. Resume?`, { timeout: 30_000 });
    await expect(question.getByRole('button', { name: 'Resume' })).toBeVisible();
    await app.waitForState('done');
    expect(await app.stat('Files scanned')).toBe(savedCount.toLocaleString('en'));
    await expect(app.savedDocuments).toHaveText(`${savedCount.toLocaleString('en')} documents saved in this browser`);

    await question.getByLabel('Choose the folder to resume').setInputFiles(join(dir, 'corpus'));
    // The restored part is 'done' already: wait for the resumed scan's files to be saved.
    await expect(page.getByRole('status').filter({ hasText: 'Resuming' })).toBeVisible();
    await expect(app.savedDocuments).toHaveText('2,000 documents saved in this browser', { timeout: 120_000 });
    await app.waitForState('done');
    expect(await app.stat('Files scanned')).toBe('2,000');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
