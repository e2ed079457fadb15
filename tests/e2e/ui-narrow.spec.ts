/**
 * The review page on a phone-sized screen (390 px wide): the group list, the fingerprints, the pair view
 * and the keep panel fit the width, and every file name in the group list is shown whole.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { docxOf, paragraphsOf } from '../fixtures/licences/docx-rendering.ts';

test('at 390 px wide the file names in the group list are whole and the page does not scroll sideways', async ({ page }) => {
  const parent = mkdtempSync(join(tmpdir(), 'simsift-narrow-'));
  try {
    const gpl = readFileSync('tests/fixtures/licences/GPL-2.txt', 'utf8');
    const folder = join(parent, 'corpus');
    const files: Record<string, string | Uint8Array> = {
      'usr-share-common-licenses/debian/GPL-2.txt': gpl,
      'renderings/word-processor-exports/GPL-2 (rendered by pandoc).docx': docxOf(paragraphsOf(gpl)),
      'archive/2019/backups/licences/GPL-2 copy.txt': gpl.replace('Everyone', 'Everybody'),
    };
    for (const [path, body] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), body);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const app = new ResultsPage(page);
    await app.open();
    await page.getByLabel('Choose folder', { exact: true }).setInputFiles(folder);
    await app.waitForDone();
    await app.groups.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/narrow-groups.png', fullPage: true });

    for (const name of ['GPL-2.txt', 'GPL-2 (rendered by pandoc).docx', 'GPL-2 copy.txt']) {
      const row = app.groups.getByRole('option', { name: new RegExp(`/${name.replace(/[.()]/g, '\\$&')}, `) });
      const shown = row.locator('.ss-path-name');
      await expect(shown).toHaveText(name);
      // Whole: the name's box holds all of its text (no ellipsis), and it is wider than a few letters.
      const box = await shown.evaluate((el) => ({ width: el.getBoundingClientRect().width, scroll: el.scrollWidth, client: el.clientWidth }));
      expect(box.scroll, name).toBeLessThanOrEqual(box.client + 1);
      expect(box.width, name).toBeGreaterThan(50);
    }

    await app.option('corpus/renderings/word-processor-exports/GPL-2 (rendered by pandoc).docx').click();
    await expect(app.pairView.getByRole('status')).toHaveText(/words? removed|same words/);
    // Headings name the files as they are spelled (no upper-casing of paths), and the fingerprints name them too.
    const heading = page.getByRole('heading', { name: /near-duplicates? of/i });
    await expect(heading.locator('bdi').first()).toHaveCSS('text-transform', 'none');
    await expect(app.bitDiff.getByText('GPL-2 (rendered by pandoc).docx')).toBeVisible();
    await app.bitDiff.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/narrow-pair.png', fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The keep panel's marks, open, fit the width too, and name the files whole.
    const keep = page.getByRole('region', { name: 'Keep and clean up' });
    await keep.getByText('Show each group’s marks').click();
    await expect(keep.getByRole('group', { name: /^Group 1 · / })).toBeVisible();
    await keep.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/narrow-keep.png', fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
