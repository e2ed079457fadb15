import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';
import { docxOf, paragraphsOf } from '../fixtures/licences/docx-rendering.ts';

test('opening a group member shows the bit diff and both texts with their differences', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const member = 'simsift-sample/drafts/tides-paragraphs-reordered.txt';
  await app.option(member).click();
  await expect(app.option(member)).toHaveAttribute('aria-selected', 'true');

  // Bit diff: both fingerprints as 64 cells, the distance, the estimate and the exact Jaccard.
  await expect(app.bitDiff.getByRole('img', { name: new RegExp(`^Fingerprint of ${member}: [0-9a-f]{16}$`) })).toBeVisible();
  const distance = await app.bitDiff.getByRole('definition').nth(0).textContent();
  expect(Number(distance!.match(/^\d+/)![0])).toBeGreaterThan(0);
  await expect(app.bitDiff.getByRole('img', { name: /^Differing bits/ })).toBeVisible();
  await expect(app.bitDiff.getByRole('definition').nth(1)).toHaveText(/^0\.\d{3}$/);
  await expect(app.bitDiff.getByRole('definition').nth(2)).toHaveText(/^(0\.\d{3}|1\.000)$/);

  // Pair view: the reference and the member side by side, the changed word marked on each side.
  await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toContainText('harbour');
  // The other side is the group's reference, another version of the same article.
  const texts = app.pairView.getByRole('region', { name: /^Text of simsift-sample\/.*tides.*\.txt$/ });
  await expect(texts).toHaveCount(2);
  await expect(texts.nth(0)).toContainText('harbour');
  await expect(app.pairView.getByRole('deletion').first()).toBeVisible();
  await expect(app.pairView.getByRole('insertion').first()).toBeVisible();

  await app.pairView.getByRole('button', { name: 'Close' }).click();
  await expect(app.pairView).toHaveCount(0);
});

test('the pair view lists every near-duplicate of a document, opens any of them, and can make it the reference', async ({ page }) => {
  const app = new ResultsPage(page);
  await app.open();
  await app.trySample();
  const member = 'simsift-sample/drafts/tides-sentence-added.txt';
  await app.option(member).click();
  const list = page.getByRole('region', { name: `Near-duplicates of ${member}` });
  // The reference's identical copy is a near-duplicate of the member too, though the group row pairs
  // the member with the reference only.
  await expect(list.getByRole('button', { name: /^simsift-sample\/backup\/tides\.txt/ })).toBeVisible();
  await list.getByRole('button', { name: /^simsift-sample\/backup\/tides\.txt/ }).click();
  await expect(app.pairView.getByRole('region', { name: 'Text of simsift-sample/backup/tides.txt' })).toBeVisible();
  await expect(app.pairView.getByRole('region', { name: `Text of ${member}` })).toBeVisible();

  await list.getByRole('button', { name: `Make ${member} the reference` }).click();
  await expect(app.option(member)).toHaveAccessibleName(new RegExp(`^${member.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, reference of group \\d+`));
});

test('a pair opens at its first difference, and its size ratio and containment stand beside Jaccard', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-pair-measures-'));
  try {
    const sample = join('public', 'sample');
    const texts = ['articles', 'notes', 'stories'].flatMap((folder) =>
      readdirSync(join(sample, folder)).sort().map((name) => readFileSync(join(sample, folder, name), 'utf8')),
    );
    const long = texts.join('\n');
    // One word changed near the very end: the first (and only) difference is far below the top.
    const tail = long.slice(-300).replace(/\b([a-z]{5,})\b/, '$1x');
    const tides = readFileSync(join(sample, 'articles', 'tides.txt'), 'utf8');
    const files = {
      'long.txt': long,
      'long edited at the end.txt': long.slice(0, -300) + tail,
      'tides.txt': tides,
      'tides ten times.txt': tides.repeat(10),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const app = new ResultsPage(page);
    await app.open();
    await app.chooseFiles(Object.keys(files).map((name) => join(dir, name)));

    await app.option('long edited at the end.txt').click();
    await expect(app.pairView.locator('del, ins').first()).toBeAttached();
    // Pane A was scrolled (far down) so that its first marked change shows inside it.
    const paneA = app.pairView.getByRole('region', { name: /^Text of / }).first();
    await expect
      .poll(() =>
        paneA.evaluate((pane) => {
          const mark = pane.querySelector('del, ins');
          if (!mark) return 'no mark';
          const p = pane.getBoundingClientRect();
          const m = mark.getBoundingClientRect();
          return pane.scrollTop > 1000 && m.top >= p.top && m.bottom <= p.bottom ? 'shown' : `scrollTop ${pane.scrollTop}, mark ${m.top - p.top}`;
        }),
      )
      .toBe('shown');

    // Ten copies of a text in one file: Jaccard near 1 (sets ignore repetition); the size ratio says it.
    await app.option('tides ten times.txt').click();
    await expect(app.bitDiff.getByRole('definition').filter({ hasText: '×' })).toHaveText('10.0×');
    const stats = app.bitDiff.locator('dl > div');
    await expect(stats.filter({ hasText: 'Containment' }).getByRole('definition')).toHaveText('1.000');
    await expect(stats.filter({ hasText: 'Exact Jaccard' }).getByRole('definition')).toHaveText(/^0\.9\d\d$/);
    await expect(app.bitDiff.getByRole('note')).toContainText(/is 10\.0× as long as/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Word rendering of a text file shows only its real changes, not its line wrapping', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-docx-diff-'));
  try {
    const gpl = readFileSync('tests/fixtures/licences/GPL-2.txt', 'utf8');
    const edited = gpl.replace('Everyone is permitted', 'Everybody is permitted').replace('the GNU Lesser General Public License', 'the GNU Library General Public License');
    writeFileSync(join(dir, 'GPL-2.txt'), gpl);
    writeFileSync(join(dir, 'GPL-2.docx'), docxOf(paragraphsOf(edited)));
    const app = new ResultsPage(page);
    await app.open();
    await app.chooseFiles([join(dir, 'GPL-2.txt'), join(dir, 'GPL-2.docx')]);
    await app.option('GPL-2.docx').click();
    await expect(app.pairView.getByRole('status')).toHaveText('2 words removed, 2 words added');
    await expect(app.pairView).toContainText('2 changes');
    const marked = async (role: 'deletion' | 'insertion') => (await app.pairView.getByRole(role).allTextContents()).sort();
    expect([...(await marked('deletion')), ...(await marked('insertion'))].sort()).toEqual(['Everybody', 'Everyone', 'Lesser', 'Library']);
    await app.pairView.screenshot({ path: 'test-results/pair-view-docx.png' });

    // Ignoring case and punctuation compares the words as the fingerprint reads them: the same two changes.
    await app.pairView.getByRole('checkbox', { name: 'Ignore case and punctuation' }).check();
    await expect(app.pairView.getByRole('status')).toHaveText('2 words removed, 2 words added');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
