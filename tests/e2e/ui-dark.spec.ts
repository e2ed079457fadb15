import { expect, test, type Locator } from '@playwright/test';
import { ResultsPage } from './results-page.ts';

/** Relative luminance (0 black .. 1 white) of an element's computed CSS colour property. */
async function luminance(locator: Locator, property: 'color' | 'background-color'): Promise<number> {
  const css = await locator.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
  const [r, g, b] = css.match(/[\d.]+/g)!.slice(0, 3).map((v) => Number(v) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of an element's text against a background luminance. */
function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

test.describe('with the system in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('every screen turns dark and stays readable; the switch pins light and is remembered', async ({ page }) => {
    const app = new ResultsPage(page);
    await app.open();
    const body = page.locator('html');
    expect(await luminance(body, 'background-color')).toBeLessThan(0.05);
    await app.trySample();
    const member = 'simsift-sample/drafts/tides-paragraphs-reordered.txt';
    await app.option(member).click();
    await expect(app.pairView.getByRole('deletion').first()).toBeVisible();

    // Panels, the group list, the marked differences, the histogram and the keep panel: dark surfaces, light text.
    const panels = [app.summary, app.groups, app.pairView, app.histogram, app.bitDiff, page.getByRole('region', { name: 'Keep and clean up' })];
    for (const panel of panels) {
      await expect(panel).toBeVisible();
      const panelText = await luminance(panel, 'color');
      expect(panelText).toBeGreaterThan(0.5);
    }
    const surface = await luminance(app.summary, 'background-color');
    expect(surface).toBeLessThan(0.05);
    for (const mark of [app.pairView.getByRole('deletion').first(), app.pairView.getByRole('insertion').first()]) {
      expect(contrast(await luminance(mark, 'color'), await luminance(mark, 'background-color'))).toBeGreaterThan(4.5);
    }
    const verifiedBar = app.histogram.locator('.ss-hist-verified').first();
    expect(await luminance(verifiedBar, 'background-color')).toBeGreaterThan(0.2);

    // A dialog (Clear corpus) is dark as well, its text readable.
    await page.getByRole('button', { name: 'Clear corpus' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear the saved corpus?' });
    expect(contrast(await luminance(dialog, 'color'), await luminance(dialog, 'background-color'))).toBeGreaterThan(7);
    expect(await luminance(dialog, 'background-color')).toBeLessThan(0.05);
    await page.screenshot({ path: '/work/shots/dark-mode-dialog.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.screenshot({ path: '/work/shots/dark-mode.png', fullPage: true });

    // The switch overrides the system: Light makes the page light, and a reload keeps it.
    const theme = page.getByRole('combobox', { name: 'Theme' });
    await expect(theme).toHaveValue('system');
    await theme.selectOption('light');
    expect(await luminance(body, 'background-color')).toBeGreaterThan(0.8);
    expect(await luminance(app.summary, 'color')).toBeLessThan(0.05);
    await page.reload();
    await expect(app.root).toHaveAttribute('data-scan-state', /idle|done/);
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('light');
    expect(await luminance(body, 'background-color')).toBeGreaterThan(0.8);
    // System follows the system again.
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    expect(await luminance(body, 'background-color')).toBeLessThan(0.05);
  });
});

test('with the system in light mode, the switch pins dark across a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const app = new ResultsPage(page);
  await app.open();
  const body = page.locator('html');
  expect(await luminance(body, 'background-color')).toBeGreaterThan(0.8);
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  expect(await luminance(body, 'background-color')).toBeLessThan(0.05);
  await page.reload();
  await expect(app.root).toHaveAttribute('data-scan-state', 'idle');
  expect(await luminance(body, 'background-color')).toBeLessThan(0.05);
  expect(await luminance(page.getByRole('heading', { name: 'SimSift' }), 'color')).toBeGreaterThan(0.5);
});
