import { expect, test, type Locator, type Page } from '@playwright/test';
import { withoutSavePicker } from './save-picker.ts';
import { ResultsPage } from './results-page.ts';

/** Presses Tab until `target` has focus (at most `limit` times); fails if it never does. */
async function tabTo(page: Page, target: Locator, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The focused element draws a visible outline. */
async function expectFocusRing(target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const outline = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
  });
  expect(outline.style).not.toBe('none');
  expect(outline.width).toBeGreaterThan(0);
}

test('everything from the sample to a pair and an export works with the keyboard alone', async ({ page }) => {
  const app = new ResultsPage(page);
  // Chromium's save picker cannot be answered from a test: this browser has none, so Export is a download.
  await withoutSavePicker(page);
  await app.open();
  const sample = page.getByRole('button', { name: 'Try a sample corpus' });
  await tabTo(page, sample);
  await expectFocusRing(sample);
  await page.keyboard.press('Enter');
  await app.waitForDone();

  // The group list: arrows move through the documents, Enter opens the pair.
  await tabTo(page, app.groups);
  await expectFocusRing(app.groups);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const active = await app.groups.getAttribute('aria-activedescendant');
  expect(active).toBeTruthy();
  await page.keyboard.press('Enter');
  await expect(app.bitDiff).toBeVisible();
  await expect(page.locator(`[id="${active}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(app.pairView.getByRole('button', { name: 'Close' })).toBeVisible();

  // The threshold slider moves with the arrow keys and regroups.
  const slider = app.histogram.getByRole('slider', { name: 'Threshold k' });
  await tabTo(page, slider, 80);
  await expectFocusRing(slider);
  const k = Number(await slider.inputValue());
  await page.keyboard.press('ArrowLeft');
  await expect(slider).toHaveValue(String(k - 1));
  await expect(app.summary).toContainText(`k = ${k - 1}`);

  // Export is a Tab away.
  await page.keyboard.press('Shift+Tab');
  const exportButton = page.getByRole('button', { name: 'Export CSV', exact: true });
  await tabTo(page, exportButton, 80);
  await expectFocusRing(exportButton);
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/^simsift-pairs-.*\.csv$/);
});
