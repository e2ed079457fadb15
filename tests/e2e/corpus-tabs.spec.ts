import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropSavePicker } from './save-picker.ts';
import { writeCorpusFolder } from '../fixtures/corpus-folder.ts';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

async function exportCsv(page: Page): Promise<string> {
  // Chromium offers a save picker, which headless Chromium cancels: export as a download, as elsewhere.
  await dropSavePicker(page);
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV', exact: true }).click()]);
  return readFileSync((await file.path())!).subarray(3).toString('utf8');
}

test('a tab that clears the corpus while another scans leaves no result over an empty corpus', async ({ context }) => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'simsift-tabs-clear-'));
  try {
    writeCorpusFolder(join(dir, 'small'));
    generateCorpus(join(dir, 'big'), { files: 1500, totalBytes: 30e6, nearEvery: 10, exactEvery: 0, perFolder: 500, seed: 12 });
    const scanning = new PersistencePage(await context.newPage());
    const clearing = new PersistencePage(await context.newPage());
    await scanning.page.goto('/');
    await clearing.page.goto('/');
    await scanning.page.bringToFront();
    await scanning.chooseFolder(join(dir, 'small'));
    await scanning.waitForState('done');
    await waitForSaved(scanning.page);
    await expect(clearing.savedDocuments).toHaveText('7 documents saved in this browser');

    await scanning.chooseFolder(join(dir, 'big'));
    await scanning.waitForState('scanning');
    await expect(scanning.page.getByText(/\b[1-9][\d,]* of 1,500 files/)).toBeVisible({ timeout: 60_000 });
    await clearing.page.bringToFront();
    await clearing.panel.getByRole('button', { name: 'Clear corpus' }).click();
    await clearing.page.getByRole('dialog', { name: 'Clear the saved corpus?' }).getByRole('button', { name: 'Clear', exact: true }).click();
    await scanning.page.bringToFront();

    // The clear waits for the scan's writes, then empties the corpus: both tabs end with nothing on show.
    await expect(clearing.savedDocuments).toHaveText('0 documents saved in this browser', { timeout: 120_000 });
    await scanning.waitForState('idle', 120_000);
    await expect(scanning.savedDocuments).toHaveText('0 documents saved in this browser');
    await waitForSaved(scanning.page);
    await scanning.page.reload();
    await scanning.waitForState('idle');
    await expect(scanning.savedDocuments).toHaveText('0 documents saved in this browser');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Known defect (#20, open): in 1 of 3 full runs the export after a resume missed 4 rows and numbered
// groups differently from the uninterrupted scan's, depending on where the reload cut the scan. Kept
// as fixme until the resume path is fixed, so that CI stays a true signal for everything else.
test('a scan resumed after a reload exports the same bytes as the same folder scanned without a break', async ({ browser }) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'simsift-resume-bytes-'));
  try {
    generateCorpus(join(dir, 'corpus'), { files: 1500, totalBytes: 20e6, nearEvery: 5, exactEvery: 3, perFolder: 300, seed: 14 });
    const whole = await browser.newContext();
    const first = new PersistencePage(await whole.newPage());
    await first.page.goto('/');
    await first.chooseFolder(join(dir, 'corpus'));
    await first.waitForState('done', 120_000);
    const expected = await exportCsv(first.page);
    await whole.close();

    const broken = await browser.newContext();
    const app = new PersistencePage(await broken.newPage());
    await app.page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('scanning');
    await expect(app.savedDocuments).not.toHaveText(/^0 documents/, { timeout: 60_000 });
    await app.page.reload(); // the tab goes away mid-scan
    const question = app.page.getByRole('group', { name: 'Interrupted scan' });
    await expect(question).toContainText('Resume?', { timeout: 30_000 });
    await question.getByLabel('Choose the folder to resume').setInputFiles(join(dir, 'corpus'));
    // The restored part is 'done' already: wait for the resumed scan's files to be saved.
    await expect(app.page.getByRole('status').filter({ hasText: 'Resuming' })).toBeVisible();
    await expect(app.savedDocuments).toHaveText('1,500 documents saved in this browser', { timeout: 120_000 });
    await app.waitForState('done', 120_000);
    await waitForSaved(app.page);
    expect(await exportCsv(app.page)).toBe(expected);
    await broken.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
