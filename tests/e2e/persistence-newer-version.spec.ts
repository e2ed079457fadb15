import { expect, test } from '@playwright/test';
import { PersistencePage } from './persistence-page.ts';

test('a saved corpus from a newer SimSift gets a clear message and a working "Reset local data"', async ({ page }) => {
  const app = new PersistencePage(page);
  await page.goto('/');
  await app.waitForState('idle');
  await expect(app.savedDocuments).toHaveText('0 documents saved in this browser');
  // A newer version of the app upgrades the database (this page's connection steps aside).
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('simsift-corpus', 99);
        open.onupgradeneeded = () => open.result.createObjectStore('from-the-future');
        open.onsuccess = () => {
          open.result.close();
          resolve();
        };
        open.onerror = () => reject(open.error);
      }),
  );
  await page.reload();
  const alert = app.panel.getByRole('alert');
  await expect(alert).toContainText('written by a newer version of SimSift');
  await expect(page.getByRole('heading', { name: 'SimSift', level: 1 })).toBeVisible(); // never a blank page

  await alert.getByRole('button', { name: 'Reset local data' }).click();
  await expect(alert).toBeHidden();
  await expect(app.panel.getByRole('status')).toContainText('Local data was reset.');
  await page.reload();
  await expect(app.savedDocuments).toHaveText('0 documents saved in this browser');
  await expect(app.panel.getByRole('alert')).toHaveCount(0);
});
