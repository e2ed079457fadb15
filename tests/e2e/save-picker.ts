/**
 * The save picker in tests. Playwright cannot answer Chromium's `showSaveFilePicker` (headless Chromium
 * cancels it), so a test either plays a browser without one (the export is then a download, as in
 * Firefox and Safari) or answers it with a file in the origin-private file system, as a person choosing
 * a file would, and reads that file back.
 */
import type { Page } from '@playwright/test';

/** From the next page load on, the browser offers no save picker: exports are downloads. */
export async function withoutSavePicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
}

/** From the next page load on, the save picker answers with the file of the suggested name in the origin-private file system. */
export async function savePickerAnswersWithOpfs(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as { showSaveFilePicker?: unknown }).showSaveFilePicker = async (options?: { suggestedName?: string }) => {
      const root = await navigator.storage.getDirectory();
      return root.getFileHandle(options?.suggestedName ?? 'export', { create: true });
    };
  });
}

/** From now on in this page, the browser offers no save picker: the next export is a download. */
export async function dropSavePicker(page: Page): Promise<void> {
  await page.evaluate(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
}
