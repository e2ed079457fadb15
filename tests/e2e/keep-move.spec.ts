/**
 * Acting from the app: a folder scanned through its handle (dropped), marks, "Move marked to quarantine"
 * into a folder the person picks, and Undo, in real Chromium. The dropped folder and the quarantine the
 * page's `showDirectoryPicker` returns are origin-private (OPFS) folders, so the test can read them back
 * byte for byte; everything after the drop and the pick (the checks, the copies, the removals, Undo) is
 * the app's own path. The folder must be byte for byte as before after Undo.
 */
import { expect, test, type Page } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { BICYCLE, BREAD } from './keep-texts.ts';
import { dropOpfsFolder, opfsFiles, opfsFolder, pickerReturns } from './opfs-folders.ts';


const FILES: Record<string, string> = {
  'articles/bicycle.txt': BICYCLE,
  'backup/bicycle.txt': BICYCLE,
  'old/bicycle-copy.txt': BICYCLE,
  'drafts/bicycle-sentence-added.txt': BICYCLE + ' One more sentence about plastic tyre levers.',
  'bread.txt': BREAD,
  'bread-copy.txt': BREAD,
  'unique.txt': 'A note about nothing else in this folder, written once and never copied anywhere at all.',
};

/** Makes OPFS folders `picked` (holding FILES) and `quarantine` (empty). */
async function setUp(page: Page): Promise<void> {
  await opfsFolder(page, 'picked', FILES);
  await opfsFolder(page, 'quarantine', {});
}

test('mark, move to quarantine, undo: the folder byte for byte as before', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await setUp(page);
  await dropOpfsFolder(page, 'picked');
  await app.waitForDone();
  const before = await opfsFiles(page, 'picked');
  expect(Object.keys(before).length).toBe(7);

  const panel = page.getByRole('region', { name: 'Keep and clean up' });
  // The reference rule: articles/bicycle.txt and bread.txt kept, their copies marked; the draft to review.
  await expect(panel.getByRole('status').first()).toContainText('3 files marked for removal');
  await panel.getByText('Show each group’s marks').click();
  await panel.getByRole('checkbox', { name: 'Remove picked/drafts/bicycle-sentence-added.txt' }).check();
  await expect(panel.getByRole('status').first()).toContainText('4 files marked for removal');
  // bread-copy.txt (kept: first in path order) edited after the scan: its copy bread.txt must then stay.
  await page.evaluate(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('picked');
    const writable = await (await dir.getFileHandle('bread-copy.txt')).createWritable();
    await writable.write('Sourdough, edited after the scan.');
    await writable.close();
    // A copy edited to another text of the same size: only the scan's content hash can tell.
    const backup = await (await dir.getDirectoryHandle('backup')).getFileHandle('bicycle.txt');
    const text = (await (await backup.getFile()).text()).replace('hiss', 'fizz');
    const w = await backup.createWritable();
    await w.write(text);
    await w.close();
  });
  const edited = await opfsFiles(page, 'picked');

  expect(edited['backup/bicycle.txt']).not.toBe(before['backup/bicycle.txt']);
  expect(edited['backup/bicycle.txt']!.length).toBe(before['backup/bicycle.txt']!.length);
  // The quarantine folder the person picks.
  await pickerReturns(page, 'quarantine');
  const move = panel.getByRole('group', { name: 'Move to quarantine' });
  await move.getByRole('button', { name: 'Move marked to quarantine…' }).click();
  await expect(move.getByRole('status')).toContainText('Moved 2 files', { timeout: 30_000 });
  await expect(move.getByRole('status')).toContainText('2 files not moved');
  await expect(move.getByRole('list', { name: 'Not moved' })).toContainText('picked/backup/bicycle.txt: changed since the scan');
  await expect(move.getByRole('list', { name: 'Not moved' })).toContainText('picked/bread.txt: its kept file picked/bread-copy.txt is changed since the scan');

  const moved = ['old/bicycle-copy.txt', 'drafts/bicycle-sentence-added.txt'];
  const after = await opfsFiles(page, 'picked');
  const held = await opfsFiles(page, 'quarantine');
  for (const path of moved) {
    expect(after[path]).toBeUndefined();
    expect(held[`picked/${path}`]).toBe(before[path]);
  }
  expect(after['bread-copy.txt']).toBe(edited['bread-copy.txt']);
  expect(after['bread.txt']).toBe(before['bread.txt']);
  expect(after['backup/bicycle.txt']).toBe(edited['backup/bicycle.txt']);
  expect(after['articles/bicycle.txt']).toBe(before['articles/bicycle.txt']);
  expect(Object.keys(held).some((p) => /^simsift-undo-.*\.json$/.test(p))).toBe(true);

  await move.getByRole('button', { name: 'Undo the move' }).click();
  await expect(move.getByRole('status')).toContainText('Put back 2 files of 2; 0 files not.');
  expect(await opfsFiles(page, 'picked')).toEqual(edited);
  const left = await opfsFiles(page, 'quarantine');
  expect(Object.keys(left).filter((p) => p.startsWith('picked/'))).toEqual([]);
});
