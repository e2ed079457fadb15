import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

test('removing a group member from the corpus (with confirmation) updates the groups and survives a reload', async ({ page }) => {
  const app = new ResultsPage(page);
  const saved = new PersistencePage(page);
  await app.open();
  await app.trySample();
  const member = 'simsift-sample/drafts/bicycle-repair-one-word-changed.txt';
  // The saved count catches up once the scan's batches, committed behind the results, are in.
  await waitForSaved(page);
  const count = Number((await saved.savedDocuments.innerText()).match(/^\d+/)![0]);
  await app.option(member).click();

  // Before any click, the button says that the file on disk is untouched; so does the dialog.
  await expect(page.getByRole('button', { name: `Remove ${member} from corpus` })).toHaveAccessibleDescription(/file on disk is untouched/);
  // Cancel keeps it; Remove removes it.
  await page.getByRole('button', { name: `Remove ${member} from corpus` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this document from the saved corpus?' });
  await expect(dialog).toHaveAccessibleDescription(/removed from this browser only .* The file on disk is untouched/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(app.option(member)).toHaveCount(1);
  await page.getByRole('button', { name: `Remove ${member} from corpus` }).click();
  await dialog.getByRole('button', { name: 'Remove' }).click();

  await expect(app.option(member)).toHaveCount(0);
  await expect(saved.savedDocuments).toHaveText(`${count - 1} documents saved in this browser`);
  await expect(saved.panel.getByRole('status').filter({ hasText: '1 document was removed' })).toBeVisible();
  await expect(app.option('simsift-sample/drafts/bicycle-repair-sentence-added.txt')).toHaveCount(1);

  await waitForSaved(page);
  await page.reload();
  await app.waitForDone();
  await expect(saved.savedDocuments).toHaveText(`${count - 1} documents saved in this browser`);
  await expect(app.option(member)).toHaveCount(0);
});
