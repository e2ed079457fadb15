import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { UI_CORPUS, writeUiCorpus } from '../fixtures/ui-corpus.ts';
import { ResultsPage } from './results-page.ts';

test('a file named like HTML shows exactly its name, and no element is made from it', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const dir = mkdtempSync(join(tmpdir(), 'simsift-hostile-'));
  try {
    const files = writeUiCorpus(dir);
    const app = new ResultsPage(page);
    await app.open();
    await app.chooseFiles(Object.values(files));

    const row = app.option(UI_CORPUS.hostile);
    await expect(row).toBeVisible();
    await expect(row.getByText(UI_CORPUS.hostile, { exact: true })).toBeVisible();
    await row.click();
    await expect(app.pairView.getByRole('heading', { name: UI_CORPUS.hostile, exact: true })).toBeVisible();
    await expect(app.bitDiff).toContainText(` · ${UI_CORPUS.hostile}`);
    await expect(page.locator('img')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a right-to-left override in a name is shown escaped and isolated in the list, the pair view and its buttons', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-bidi-'));
  try {
    const files = writeUiCorpus(dir);
    // Displayed raw, this name reads "rtl-exe.txt"; it is an exact copy of compost.txt.
    const rtl = join(dir, 'rtl-\u202Etxt.exe');
    copyFileSync(files.unrelated, rtl);
    const shown = 'rtl-⟨U+202E⟩txt.exe';
    const app = new ResultsPage(page);
    await app.open();
    await app.chooseFiles([...Object.values(files), rtl]);

    const row = app.option(shown);
    await expect(row).toBeVisible();
    await expect(row.locator('bdi')).toHaveText(shown);
    await row.click();
    await expect(app.pairView.getByRole('heading', { name: shown, exact: true })).toBeVisible();
    await expect(app.pairView.getByRole('heading', { name: shown, exact: true }).locator('bdi')).toHaveAttribute('title', shown);
    await expect(app.bitDiff).toContainText(` · ${shown}`);
    // The copy's list of near-duplicates names the other document (whichever of the two is the reference).
    const neighbours = page.getByRole('region', { name: /^Near-duplicates of / });
    await expect(neighbours).toContainText(shown);
    await expect(neighbours.locator('bdi', { hasText: shown }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: `Remove ${shown} from corpus` })).toBeVisible();
    // Nowhere on the page is the override itself rendered.
    expect(await page.locator('body').innerText()).not.toContain('\u202E');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
