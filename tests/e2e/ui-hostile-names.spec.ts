import { mkdtempSync, rmSync } from 'node:fs';
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
