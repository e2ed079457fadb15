/**
 * A folder chosen again (#34), as a person does it: choose a folder, edit one file and touch another on
 * disk, choose it again. The corpus panel says how many files were unchanged (not read), read again,
 * changed; the export equals a fresh scan of the folder in a new profile; after a reload the same, with
 * the modification times (keep-newest keeps the same file before and after the reload).
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropSavePicker } from './save-picker.ts';
import { CORPUS_FOLDER, writeCorpusFolder } from '../fixtures/corpus-folder.ts';
import { ResultsPage } from './results-page.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

async function exportCsv(page: Page): Promise<string> {
  await dropSavePicker(page);
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV', exact: true }).click()]);
  return readFileSync((await file.path())!).subarray(3).toString('utf8');
}

const at = (name: string) => `corpus/${name}`;

test('a folder chosen again reads only what changed, says so, and keeps the times after a reload', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'simsift-rescan-'));
  try {
    const folder = join(dir, 'corpus');
    const files = writeCorpusFolder(folder);
    // Distinct times: of the three identical copies, the last by path is the newest.
    Object.values(files).forEach((path, i) => utimesSync(path, new Date(Date.UTC(2024, 0, 1 + i)), new Date(Date.UTC(2024, 0, 1 + i))));
    utimesSync(files.copy2, new Date(Date.UTC(2025, 5, 1)), new Date(Date.UTC(2025, 5, 1)));
    const app = new ResultsPage(page);
    const saved = new PersistencePage(page);
    await app.open();
    await saved.chooseFolder(folder);
    await app.waitForDone();
    await waitForSaved(page);

    // On disk: one file edited (a line appended), one touched (a new time, the same bytes).
    appendFileSync(files.lighthouseEdited, '\nOne more line about the lamp.\n');
    utimesSync(files.unrelated, new Date(Date.UTC(2025, 6, 1)), new Date(Date.UTC(2025, 6, 1)));
    await saved.chooseFolder(folder);
    await app.waitForDone();
    await waitForSaved(page);
    await expect(saved.panel.getByRole('status')).toContainText(
      `5 files unchanged (same size and modification time: not read); 1 read again, contents unchanged; 1 changed: ${at('f-lighthouse-edited.txt')}.`,
    );
    // The results line counts the whole folder, as the summary does (it said "Scanned 2 files").
    await expect(page.getByRole('region', { name: 'Scan progress' }).getByRole('status')).toContainText(/Scanned 7 files in \d+ s \(2 read, [\d.]+ [kK]?B; 5 unchanged since saved, not read\)\./);
    await page.screenshot({ path: test.info().outputPath('after-choose-again.png'), fullPage: true });

    // A fresh scan of the same folder in a new profile exports the same bytes.
    const fresh = await browser.newPage();
    const freshApp = new ResultsPage(fresh);
    await freshApp.open();
    await new PersistencePage(fresh).chooseFolder(folder);
    await freshApp.waitForDone();
    const expected = await exportCsv(fresh);
    await fresh.close();

    const keep = page.getByRole('region', { name: 'Keep and clean up' });
    const check = async () => {
      await expect(saved.savedDocuments).toHaveText('7 documents saved in this browser');
      expect(await exportCsv(page)).toBe(expected);
      await expect(app.option(at(CORPUS_FOLDER.lighthouseEdited))).toHaveCount(1);
      // Keep the newest: the newest identical copy, from the saved times.
      await expect(keep.getByLabel(`Kept: ${at(CORPUS_FOLDER.copy2)}`)).toBeVisible();
      await expect(keep).not.toContainText('no modification time');
    };
    await keep.getByText('Show each group’s marks').click();
    await keep.getByLabel('Add a keep rule').selectOption('newest');
    await keep.getByRole('button', { name: 'Add rule' }).click();
    await check();
    await page.reload();
    await app.waitForDone();
    if (!(await keep.getByLabel(`Kept: ${at(CORPUS_FOLDER.copy2)}`).isVisible())) await keep.getByText('Show each group’s marks').click();
    await check();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
