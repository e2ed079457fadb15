import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropSavePicker } from './save-picker.ts';
import { CORPUS_FOLDER, writeCorpusFolder } from '../fixtures/corpus-folder.ts';
import { ResultsPage } from './results-page.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

/** Clicks an export button and returns the CSV without its BOM. */
async function exportCsv(page: Page, button = 'Export CSV'): Promise<string> {
  // Chromium offers a save picker, which headless Chromium cancels: export as a download, as elsewhere.
  await dropSavePicker(page);
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  return readFileSync((await file.path())!).subarray(3).toString('utf8');
}

const at = (name: string) => `corpus/${name}`;

test('removing the reference of identical copies keeps the copies grouped, counted and saved', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-remove-ref-'));
  try {
    writeCorpusFolder(join(dir, 'corpus'));
    const app = new ResultsPage(page);
    const saved = new PersistencePage(page);
    await app.open();
    await saved.chooseFolder(join(dir, 'corpus'));
    await app.waitForDone();
    await waitForSaved(page);
    const reference = at(CORPUS_FOLDER.reference);
    await expect(app.option(reference)).toHaveAccessibleName(/reference of group/);
    await app.option(reference).click();
    await page.getByRole('button', { name: `Remove ${reference} from corpus` }).click();
    await page.getByRole('dialog', { name: 'Remove this document from the saved corpus?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(app.option(reference)).toHaveCount(0);

    const check = async () => {
      await expect(saved.savedDocuments).toHaveText('6 documents saved in this browser');
      expect(await saved.stat('Files scanned')).toBe('6');
      // The copies are still one exact class, now led by the next path, and the edited text joins them.
      await expect(app.option(at(CORPUS_FOLDER.copy1))).toHaveAccessibleName(/reference of group/);
      await expect(app.option(at(CORPUS_FOLDER.copy2))).toHaveCount(1);
      await expect(app.option(at(CORPUS_FOLDER.edited))).toHaveCount(1);
      const csv = await exportCsv(page);
      expect(csv).toContain(`${at(CORPUS_FOLDER.copy1)},${at(CORPUS_FOLDER.copy2)}`);
      expect(csv).toContain(at(CORPUS_FOLDER.edited));
      expect(csv).not.toContain(reference);
    };
    await check();
    await waitForSaved(page);
    await page.reload();
    await app.waitForDone();
    await check();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('choosing a folder again drops a file deleted from it, and says so', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-sync-'));
  try {
    const files = writeCorpusFolder(join(dir, 'corpus'));
    const app = new ResultsPage(page);
    const saved = new PersistencePage(page);
    await app.open();
    await saved.chooseFolder(join(dir, 'corpus'));
    await app.waitForDone();
    await waitForSaved(page);
    await expect(saved.savedDocuments).toHaveText('7 documents saved in this browser');

    // The reference of the identical copies is deleted on disk; the folder is chosen again.
    unlinkSync(files.reference);
    await saved.chooseFolder(join(dir, 'corpus'));
    await app.waitForDone();
    await waitForSaved(page);
    const reference = at(CORPUS_FOLDER.reference);
    await expect(saved.panel.getByRole('status')).toContainText(`1 file is no longer in the folder and left the corpus: ${reference}`);
    const check = async () => {
      await expect(saved.savedDocuments).toHaveText('6 documents saved in this browser');
      expect(await saved.stat('Files scanned')).toBe('6');
      await expect(app.option(reference)).toHaveCount(0);
      await expect(app.option(at(CORPUS_FOLDER.copy1))).toHaveAccessibleName(/reference of group/);
      const csv = await exportCsv(page);
      expect(csv).not.toContain(reference);
      expect(csv).toContain(`${at(CORPUS_FOLDER.copy1)},${at(CORPUS_FOLDER.copy2)}`);
    };
    await check();
    await page.reload();
    await app.waitForDone();
    await check();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a reference the person chose is still the reference after a reload', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-pin-'));
  try {
    writeCorpusFolder(join(dir, 'corpus'));
    const app = new ResultsPage(page);
    const saved = new PersistencePage(page);
    await app.open();
    await saved.chooseFolder(join(dir, 'corpus'));
    await app.waitForDone();
    const member = at(CORPUS_FOLDER.lighthouseEdited);
    await app.option(member).click();
    await page.getByRole('region', { name: `Near-duplicates of ${member}` }).getByRole('button', { name: `Make ${member} the reference` }).click();
    await expect(app.option(member)).toHaveAccessibleName(/reference of group/);
    const groups = await exportCsv(page, 'Export groups CSV');
    await waitForSaved(page);
    await page.reload();
    await app.waitForDone();
    await expect(app.option(member)).toHaveAccessibleName(/reference of group/);
    await expect(app.option(at(CORPUS_FOLDER.lighthouse))).not.toHaveAccessibleName(/reference of group/);
    expect(await exportCsv(page, 'Export groups CSV')).toBe(groups);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
