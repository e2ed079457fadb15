/**
 * Choose folder through a directory handle (Chromium's showDirectoryPicker): the workers walk and read
 * the folder. A picker cannot be driven headless, so the page's `showDirectoryPicker` is replaced by one
 * that returns a real origin-private (OPFS) directory handle holding the same files as a folder on disk;
 * everything after it is the app's own path (the Choose folder button, the session, the workers).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { ResultsPage } from './results-page.ts';
import { dropOpfsFolder } from './opfs-folders.ts';

/** Every file under `dir`, as [path relative to dir, bytes as numbers]. */
function filesUnder(dir: string): Array<[string, number[]]> {
  const out: Array<[string, number[]]> = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push([relative(dir, full), [...readFileSync(full)]]);
    }
  };
  walk(dir);
  return out;
}

/** Copies `files` into the origin-private file system under the folder `name`, and makes showDirectoryPicker return that folder. */
async function folderInOpfs(page: Page, name: string, files: Array<[string, number[]]>): Promise<void> {
  await page.evaluate(
    async ({ name, files }) => {
      const root = await navigator.storage.getDirectory();
      await root.removeEntry(name, { recursive: true }).catch(() => undefined);
      const top = await root.getDirectoryHandle(name, { create: true });
      for (const [path, bytes] of files) {
        const parts = path.split('/');
        let dir = top;
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
        const writable = await (await dir.getFileHandle(parts[parts.length - 1], { create: true })).createWritable();
        await writable.write(new Uint8Array(bytes));
        await writable.close();
      }
      const w = window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle>; __pickerCalls: number };
      w.__pickerCalls = 0;
      w.showDirectoryPicker = async () => {
        w.__pickerCalls++;
        return (await navigator.storage.getDirectory()).getDirectoryHandle(name);
      };
    },
    { name, files },
  );
}

test('Choose folder reads a directory handle in the workers: same paths, skips, saved contents and pair view as the folder input', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-handles-'));
  try {
    const folder = join(dir, 'picked');
    const corpus = generateCorpus(join(folder, 'docs'), { files: 30, totalBytes: 30 * 3000, nearEvery: 10, exactEvery: 7, perFolder: 15, seed: 11 });
    mkdirSync(join(folder, '.git'));
    writeFileSync(join(folder, '.git', 'config'), '[core]\n');
    writeFileSync(join(folder, '.env'), 'SECRET=1\n');
    writeFileSync(join(folder, 'empty.txt'), '');
    writeFileSync(join(folder, 'blob.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]));
    // A name whose right-to-left override would show it as "rtl-exe.txt".
    const hostile = 'rtl-\u202Etxt.exe';
    writeFileSync(join(folder, hostile), readFileSync(join(folder, 'docs', corpus.pathOf(corpus.near[0]![0]))));

    const app = new ResultsPage(page);
    const saved = new PersistencePage(page);
    await app.open();
    await folderInOpfs(page, 'picked', filesUnder(folder));
    await page.locator('label', { hasText: 'Choose folder' }).click();
    await app.waitForDone();
    expect(await page.evaluate(() => (window as unknown as { __pickerCalls: number }).__pickerCalls)).toBe(1);

    // Paths start with the folder's name, as the folder input gives them.
    const [copy, original] = corpus.near[0]!;
    await expect(app.option(`picked/docs/${corpus.pathOf(copy)}`)).toBeVisible();
    await expect(app.option(`picked/docs/${corpus.pathOf(original)}`)).toBeVisible();
    await expect(app.groups.getByRole('option', { name: /^picked\/rtl-⟨U\+202E⟩txt\.exe, / })).toBeVisible();
    const skipped = page.getByRole('region', { name: /^Skipped/ });
    const row = (path: string) => skipped.getByRole('listitem').filter({ hasText: path });
    await expect(row('picked/.git/')).toContainText('Hidden folder');
    await expect(row('picked/.env')).toContainText('Hidden file');
    await expect(row('picked/empty.txt')).toContainText('0 bytes: an empty file, or a pipe or device');
    await expect(row('picked/blob.bin')).toContainText('Not text');
    const figures = await saved.figures();
    expect(Number(figures['Files scanned'])).toBe(corpus.files + 5);

    // The pair view reads both texts from the Files the workers opened.
    const member = `picked/docs/${corpus.pathOf(copy)}`;
    const firstWords = readFileSync(join(folder, 'docs', corpus.pathOf(copy)), 'utf8').split(' ').slice(0, 3).join(' ');
    const texts = app.pairView.getByRole('region', { name: /^Text of picked\// });
    await app.option(member).click();
    await expect(texts).toHaveCount(2);
    await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toContainText(firstWords);

    // The same folder through the folder input is the same documents: nothing is added twice.
    await waitForSaved(page);
    await expect(saved.savedDocuments).toHaveText(`${corpus.files + 3} documents saved in this browser`);
    await saved.chooseFolder(folder);
    await saved.waitForState('done');
    await waitForSaved(page);
    await expect(saved.savedDocuments).toHaveText(`${corpus.files + 3} documents saved in this browser`);
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
    await folderInOpfs(page, 'dropped', filesUnder(join(dir, 'dropped')));
    await dropOpfsFolder(page, 'dropped');
    await app.waitForDone();
    const [copy, original] = corpus.near[0]!;
    await expect(app.option(`dropped/${corpus.pathOf(copy)}`)).toBeVisible();
    await expect(app.option(`dropped/${corpus.pathOf(original)}`)).toBeVisible();
    await expect(app.stat('Files scanned')).toHaveText(String(corpus.files));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
