/**
 * The page acts wherever the browser lets it (#37): a folder scanned through the picker, then the page
 * reloaded (the handle kept with the corpus, permission asked again on a click); a dropped folder; a
 * folder chosen through the input, picked again and checked against the scan. Each time the marked
 * files move into the quarantine and Undo puts the folder back byte for byte. OPFS folders stand in
 * for picked and dropped ones (opfs-folders.ts). The browser's permission prompt cannot be driven
 * either: `queryPermission` answers "prompt" until `requestPermission` is called, which (as
 * Chromium's) refuses a call made without a user gesture.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { BICYCLE, BREAD } from './keep-texts.ts';
import { dropOpfsFolder, opfsFiles, opfsFolder, pickerReturns } from './opfs-folders.ts';

// The reference rule keeps articles/bicycle.txt and bread-copy.txt; the three copies are marked.
const FILES: Record<string, string> = {
  'articles/bicycle.txt': BICYCLE,
  'backup/bicycle.txt': BICYCLE,
  'old/bicycle-copy.txt': BICYCLE,
  'bread.txt': BREAD,
  'bread-copy.txt': BREAD,
  'unique.txt': 'A note about nothing else in this folder, written once and never copied anywhere at all.',
};
const MARKED = ['backup/bicycle.txt', 'old/bicycle-copy.txt', 'bread.txt'];

/** Every page load: write access to a handle only after a request made on a click. */
async function permissionOnClick(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __permissionRequests: number };
    w.__permissionRequests = 0;
    let granted = false;
    const proto = FileSystemHandle.prototype as unknown as Record<string, unknown>;
    proto.queryPermission = async () => (granted ? 'granted' : 'prompt');
    proto.requestPermission = async () => {
      if (!navigator.userActivation.isActive) throw new DOMException('User activation is required to request permissions.', 'SecurityError');
      w.__permissionRequests++;
      granted = true;
      return 'granted';
    };
  });
}

const moveGroup = (page: Page) => page.getByRole('region', { name: 'Keep and clean up' }).getByRole('group', { name: 'Move to quarantine' });

/** Move marked to quarantine (into OPFS `quarantine`), then Undo: the folder `name` as before, byte for byte. */
async function moveAndUndo(page: Page, name: string, before: Record<string, string>): Promise<void> {
  const move = moveGroup(page);
  await opfsFolder(page, 'quarantine', {});
  await pickerReturns(page, 'quarantine');
  await move.getByRole('button', { name: 'Move marked to quarantine…' }).click();
  await expect(move.getByRole('status')).toContainText(`Moved ${MARKED.length} files`, { timeout: 30_000 });
  await expect(move.getByRole('status')).toContainText('0 files not moved');
  const after = await opfsFiles(page, name);
  const held = await opfsFiles(page, 'quarantine');
  for (const path of MARKED) {
    expect(after[path]).toBeUndefined();
    expect(held[`${name}/${path}`]).toBe(before[path]);
  }
  expect(Object.keys(after).sort()).toEqual(Object.keys(before).filter((p) => !MARKED.includes(p)).sort());
  expect(Object.keys(held).some((p) => /^simsift-undo-.*\.json$/.test(p))).toBe(true);
  await move.getByRole('button', { name: 'Undo the move' }).click();
  await expect(move.getByRole('status')).toContainText(`Put back ${MARKED.length} files of ${MARKED.length}; 0 files not.`);
  expect(await opfsFiles(page, name)).toEqual(before);
}

/** After a reload: the kept handle asks for write access on a click (once), then moves and undoes. */
async function allowAfterReload(page: Page, app: ResultsPage, name: string): Promise<void> {
  await waitForSaved(page);
  const before = await opfsFiles(page, name);
  await page.reload();
  await app.waitForDone();
  const move = moveGroup(page);
  await expect(move.getByRole('button', { name: `Allow changes to ${name}…` })).toBeVisible();
  await expect(move.getByRole('button', { name: 'Move marked to quarantine…' })).toHaveCount(0);
  await move.getByRole('button', { name: `Allow changes to ${name}…` }).click();
  await expect(move.getByRole('button', { name: 'Move marked to quarantine…' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __permissionRequests: number }).__permissionRequests)).toBe(1);
  await moveAndUndo(page, name, before);
}

test('a dropped folder is moved through its handle, after a reload too', async ({ page }) => {
  await permissionOnClick(page);
  const app = new ResultsPage(page);
  await app.open();
  await opfsFolder(page, 'dropped', FILES);
  await dropOpfsFolder(page, 'dropped');
  await app.waitForDone();
  // Right after the drop: a drop gives read access only, so the page asks on a click first.
  const move = moveGroup(page);
  await move.getByRole('button', { name: 'Allow changes to dropped…' }).click();
  await moveAndUndo(page, 'dropped', await opfsFiles(page, 'dropped'));
  await allowAfterReload(page, app, 'dropped');
});

test('a folder chosen through the input: the same folder picked again is checked against the scan, then moved and undone', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-move-input-'));
  try {
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, 'picked', path)), { recursive: true });
      writeFileSync(join(dir, 'picked', path), text);
    }
    const app = new ResultsPage(page);
    await app.open();
    await new PersistencePage(page).chooseFolder(join(dir, 'picked'));
    await app.waitForDone();
    const move = moveGroup(page);
    await expect(move.getByRole('button', { name: 'Move marked to quarantine…' })).toHaveCount(0);
    const pick = move.getByRole('button', { name: 'Pick the folder picked…' });

    // Another folder's name: refused.
    await opfsFolder(page, 'elsewhere', FILES);
    await pickerReturns(page, 'elsewhere');
    await pick.click();
    await expect(move.getByRole('status')).toHaveText('The folder you picked is elsewhere, not picked: nothing moved. Pick the folder you scanned.');
    // The same name, but a marked file's text is not the scan's (same size): refused, nothing moved.
    await opfsFolder(page, 'other/picked', { ...FILES, 'bread.txt': BREAD.replace('lively', 'lovely') });
    await pickerReturns(page, 'other/picked');
    await pick.click();
    await expect(move.getByRole('status')).toContainText('The folder you picked is not picked as it was scanned: 1 of 3 marked files are not there with the size and text the scan read (picked/bread.txt)');
    await expect(move.getByRole('button', { name: 'Move marked to quarantine…' })).toHaveCount(0);

    // The folder itself.
    await opfsFolder(page, 'picked', FILES);
    await pickerReturns(page, 'picked');
    await pick.click();
    await expect(move.getByRole('status')).toHaveText('picked is the folder that was scanned: its marked files are there as the scan read them.');
    await moveAndUndo(page, 'picked', await opfsFiles(page, 'picked'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
