import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { waitForSaved } from './persistence-page.ts';
import { ResultsPage } from './results-page.ts';

test('an excerpt is listed under its source with its containment, the shared passage is marked in the source, and a reload keeps both', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-contained-'));
  try {
    // A real licence, the 40% of its lines from its middle as an excerpt, and an unrelated text.
    const gpl = readFileSync('tests/fixtures/licences/GPL-2.txt', 'utf8');
    const lines = gpl.split('\n');
    const excerpt = lines.slice(Math.floor(lines.length * 0.35), Math.floor(lines.length * 0.75)).join('\n');
    const files = { 'GPL-2.txt': gpl, 'excerpt.txt': excerpt, 'tides.txt': readFileSync('public/sample/articles/tides.txt', 'utf8') };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const app = new ResultsPage(page);
    await app.open();
    await app.chooseFiles(Object.keys(files).map((name) => join(dir, name)));

    // Containment is off by default: turning it on regroups (the passages come from the kept feature sets).
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByLabel('Contained documents (0: off)').fill('0.9');
    await settings.getByRole('button', { name: 'Apply settings' }).click();
    await app.waitForDone();

    const contained = page.getByRole('region', { name: 'Contained documents' });
    await expect(contained.getByRole('listitem', { name: 'GPL-2.txt contains 1 document' })).toBeVisible();
    const row = contained.getByRole('button', { name: /^excerpt\.txt, contained in GPL-2\.txt, containment (0\.9\d|1\.00)$/ });
    await expect(row).toBeVisible();

    // The pair view marks the passage of the source the excerpt is made of, scrolled into view.
    await row.click();
    const source = app.pairView.getByRole('region', { name: 'Text of GPL-2.txt' });
    await expect(source.locator('mark.ss-pair-shared').first()).toBeAttached();
    const markShown = () =>
      source.evaluate((pane) => {
        const mark = pane.querySelector('mark.ss-pair-shared');
        if (!mark) return 'no mark';
        const p = pane.getBoundingClientRect();
        const m = mark.getBoundingClientRect();
        return pane.scrollTop > 200 && m.top >= p.top - 1 && m.top < p.bottom ? 'shown' : `scrollTop ${pane.scrollTop}, mark ${m.top - p.top}`;
      });
    await expect.poll(markShown).toBe('shown');
    // The first marked passage is the excerpt's start (give or take the first words the diff aligns
    // apart), and the marks hold the excerpt's text.
    const words = excerpt.trim().split(/\s+/);
    const first = (await source.locator('mark.ss-pair-shared').first().textContent())!.replace(/\s+/g, ' ');
    expect(first).toContain(words.slice(3, 10).join(' '));
    const all = (await source.locator('mark.ss-pair-shared').allTextContents()).join('').replace(/\s+/g, ' ');
    expect(all).toContain(words.slice(100, 160).join(' '));
    await expect(app.pairView.getByRole('note')).toContainText('excerpt.txt is contained in GPL-2.txt');
    await page.screenshot({ path: test.info().outputPath('contained-list.png') });
    await app.pairView.screenshot({ path: test.info().outputPath('contained-pair.png') });
    // Still there once the other pane's scroll has echoed (it once scrolled the whole back to its top).
    expect(await markShown()).toBe('shown');

    // The setting and the passages are saved with the corpus: after a reload the excerpt is listed again.
    await waitForSaved(page);
    await page.reload();
    await app.waitForDone();
    await expect(page.getByRole('region', { name: 'Contained documents' }).getByRole('button', { name: /^excerpt\.txt, contained in GPL-2\.txt/ })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Settings' }).getByLabel('Contained documents (0: off)')).toHaveValue('0.9');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
