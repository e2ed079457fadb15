/**
 * The keep panel's exclusions leave files unread (#37), as the CLI's --exclude does: a later scan of the
 * folder does not read the files they match, says how many it left out, and the saved corpus loses
 * them as files not in the folder (named as left out by the exclusions); a new folder's matching file is
 * never read at all.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { IngestPage } from './ingest-page.ts';
import { waitForSaved } from './persistence-page.ts';
import { BICYCLE, BREAD } from './keep-texts.ts';

/** Makes the folder `dir` hold exactly `files` (path -> text). */
function folderOnDisk(dir: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

test('files the exclusions match are not read by the next scans and leave the saved corpus', async ({ page }) => {
  const app = new ResultsPage(page);
  const ingest = new IngestPage(page);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-exclusions-'));
  await app.open();
  const picked = folderOnDisk(join(parent, 'picked'), { 'a/bicycle.txt': BICYCLE, 'old/bicycle.txt': BICYCLE, 'bread.txt': BREAD, 'bread-copy.txt': BREAD });
  let folder = picked;
  const chooseFolder = () => page.getByLabel('Choose folder', { exact: true }).setInputFiles(folder);
  await chooseFolder();
  await app.waitForDone();
  await expect(app.option('picked/old/bicycle.txt')).toBeVisible();

  const panel = page.getByRole('region', { name: 'Keep and clean up' });
  await panel.getByText('Leave files out of the marks and the plan').click();
  await panel.getByLabel('Patterns, one per line (*, **, ?; e.g. *.log, drafts/**)').fill('old/**');
  await panel.getByLabel('Extensions (log, tmp)').focus();
  await waitForSaved(page);

  // The folder chosen again: the excluded file is not read, and leaves the corpus.
  await chooseFolder();
  await app.waitForDone();
  await expect(ingest.progressStatus).toContainText('; 1 left out by your exclusions, not read).');
  await expect(page.getByText('1 file left out by your exclusions left the corpus: picked/old/bicycle.txt')).toBeVisible();
  await expect(app.option('picked/old/bicycle.txt')).toHaveCount(0);
  await expect(app.option('picked/a/bicycle.txt')).toHaveCount(0);
  await expect(app.option('picked/bread.txt')).toBeVisible();

  // A new folder: its matching file is never read (2 of 3 files read).
  folder = folderOnDisk(join(parent, 'second'), { 'old/x.txt': BREAD, 'y.txt': BICYCLE, 'z.txt': BICYCLE });
  await chooseFolder();
  await app.waitForDone();
  await expect(ingest.progressStatus).toContainText(/Scanned 2 files in \d+ s \(2 read, [\d.]+ k?B; 1 left out by your exclusions, not read\)\./);
  await expect(app.option('second/y.txt')).toBeVisible();
  await expect(app.option('second/old/x.txt')).toHaveCount(0);

  // After a reload the corpus still holds neither.
  await waitForSaved(page);
  await page.reload();
  await app.waitForDone();
  await expect(app.option('second/y.txt')).toBeVisible();
  await expect(app.option('picked/old/bicycle.txt')).toHaveCount(0);
  await expect(app.option('second/old/x.txt')).toHaveCount(0);
  rmSync(parent, { recursive: true, force: true });
});
