/**
 * A folder dropped from the file manager (a real drop of a folder on disk, through the DevTools protocol:
 * disk-folders.ts): Chromium gives its directory handle, and the workers walk and read the folder.
 * Everything after the drop is the app's own path (the drop zone, the session, the workers).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { ResultsPage } from './results-page.ts';
import { dropFolderOnApp } from './disk-folders.ts';

/** The handles the last scan's workers listed the folder through (Chromium gave the drop's handle). */
function listedHandles(page: Page): Promise<number | undefined> {
  return page.evaluate(() => ((performance.getEntriesByName('simsift:listing').at(-1) as PerformanceMeasure | undefined)?.detail as { handles?: number } | undefined)?.handles);
}

test('a dropped folder is read through its directory handle in the workers: same paths, skips, saved contents and pair view as the folder input', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-handles-'));
  try {
    const folder = join(dir, 'picked');
    const corpus = generateCorpus(join(folder, 'docs'), { files: 30, totalBytes: 30 * 3000, nearEvery: 10, exactEvery: 7, perFolder: 15, seed: 11 });
    mkdirSync(join(folder, '.git'));
    writeFileSync(join(folder, '.git', 'config'), '[core]\n');
    writeFileSync(join(folder, '.env'), 'SECRET=1\n');
    writeFileSync(join(folder, 'empty.txt'), '');
    writeFileSync(join(folder, 'blob.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]));

    const app = new ResultsPage(page);
    const saved = new PersistencePage(page);
    await app.open();
    await dropFolderOnApp(page, { disk: folder });
    await app.waitForDone();
    expect(await listedHandles(page)).toBe(1);

    // Paths start with the folder's name, as the folder input gives them.
    const [copy, original] = corpus.near[0]!;
    await expect(app.option(`picked/docs/${corpus.pathOf(copy)}`)).toBeVisible();
    await expect(app.option(`picked/docs/${corpus.pathOf(original)}`)).toBeVisible();
    const skipped = page.getByRole('region', { name: /^Skipped/ });
    const row = (path: string) => skipped.getByRole('listitem').filter({ hasText: path });
    await expect(row('picked/.git/')).toContainText('Hidden folder');
    await expect(row('picked/.env')).toContainText('Hidden file');
    await expect(row('picked/empty.txt')).toContainText('0 bytes: an empty file, or a pipe or device');
    await expect(row('picked/blob.bin')).toContainText('Not text');
    const figures = await saved.figures();
    expect(Number(figures['Files scanned'])).toBe(corpus.files + 4);

    // The pair view reads both texts from the Files the workers opened.
    const member = `picked/docs/${corpus.pathOf(copy)}`;
    const firstWords = readFileSync(join(folder, 'docs', corpus.pathOf(copy)), 'utf8').split(' ').slice(0, 3).join(' ');
    const texts = app.pairView.getByRole('region', { name: /^Text of picked\// });
    await app.option(member).click();
    await expect(texts).toHaveCount(2);
    await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toContainText(firstWords);

    // The same folder through the folder input is the same documents: nothing is added twice.
    await waitForSaved(page);
    await expect(saved.savedDocuments).toHaveText(`${corpus.files + 2} documents saved in this browser`);
    await saved.chooseFolder(folder);
    await saved.waitForState('done');
    await waitForSaved(page);
    await expect(saved.savedDocuments).toHaveText(`${corpus.files + 2} documents saved in this browser`);
    expect(await saved.figures()).toEqual(figures);

    // After a reload, the contents the handle scan kept open the pair.
    await page.reload();
    await app.waitForDone();
    expect(await saved.figures()).toEqual(figures);
    await app.option(member).click();
    await expect(texts).toHaveCount(2);
    await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toContainText(firstWords);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a dropped folder that comes with a directory handle is read through it', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-handles-drop-'));
  try {
    const corpus = generateCorpus(join(dir, 'dropped'), { files: 12, totalBytes: 12 * 3000, nearEvery: 4, exactEvery: 0, perFolder: 6, seed: 3 });
    const app = new ResultsPage(page);
    await app.open();
    await dropFolderOnApp(page, { disk: join(dir, 'dropped') });
    await app.waitForDone();
    const [copy, original] = corpus.near[0]!;
    await expect(app.option(`dropped/${corpus.pathOf(copy)}`)).toBeVisible();
    await expect(app.option(`dropped/${corpus.pathOf(original)}`)).toBeVisible();
    await expect(app.stat('Files scanned')).toHaveText(String(corpus.files));
    expect(await listedHandles(page)).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a dropped folder holding names a directory handle does not list is read through its entries: every file', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-handles-names-'));
  try {
    // Names Chromium's File System Access refuses (a handle lists none of them), as a crawl or an editor leaves them.
    const folder = join(dir, 'crawl');
    const corpus = generateCorpus(folder, { files: 6, totalBytes: 6 * 3000, nearEvery: 3, exactEvery: 0, perFolder: 6, seed: 5 });
    const [copy, original] = corpus.near[0]!;
    const text = readFileSync(join(folder, corpus.pathOf(original)));
    for (const name of ['page.html?id=2', 'notes.txt~', 'Re: minutes.txt']) writeFileSync(join(folder, name), text);
    const app = new ResultsPage(page);
    await app.open();
    await dropFolderOnApp(page, { disk: folder });
    await app.waitForDone();
    await expect(app.stat('Files scanned')).toHaveText(String(corpus.files + 3));
    await expect(app.option('crawl/Re: minutes.txt')).toBeVisible();
    await expect(app.option(`crawl/${corpus.pathOf(copy)}`)).toBeVisible();
    expect(await listedHandles(page)).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
