/**
 * After a reload, new files scanned into the saved corpus are verified against it with the saved
 * documents' feature-set sizes and MinHash sketches: the histogram's caption names the candidates they
 * ruled out without measuring, as it does after a scan. Real prose (the npm packages' documents).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { realTextSources } from '../../bench/real-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

/** Writes `text` at `path` under `root`, making its folders. */
function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

test('new files after a reload are checked against saved documents by their saved set sizes and sketches', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-bounds-'));
  try {
    // Saved: each document cut to 60% and to 75% of its lines (Jaccard with the whole about that,
    // below the 0.8 threshold); added after the reload: the whole documents.
    const decoder = new TextDecoder();
    const sources = realTextSources({ kernel: 'if-installed' }).filter((s) => !s.path.startsWith('kernel/'));
    for (const s of sources) {
      const lines = decoder.decode(s.bytes).split('\n');
      put(join(dir, 'saved'), `cut60/${s.path}`, lines.slice(0, Math.ceil(lines.length * 0.6)).join('\n'));
      put(join(dir, 'saved'), `cut75/${s.path}`, lines.slice(0, Math.ceil(lines.length * 0.75)).join('\n'));
      put(join(dir, 'whole'), s.path, lines.join('\n'));
    }
    const app = new PersistencePage(page);
    const checks = page.getByRole('region', { name: 'Distance histogram' }).getByRole('status');
    await page.goto('/');
    await app.chooseFolder(join(dir, 'saved'));
    await app.waitForState('done');
    await waitForSaved(page);
    await page.screenshot({ path: test.info().outputPath('1-saved-scan.png'), fullPage: true });
    await page.reload();
    await app.waitForState('done');
    await page.screenshot({ path: test.info().outputPath('2-after-reload.png'), fullPage: true });

    await app.chooseFolder(join(dir, 'whole'));
    await app.waitForState('done');
    await expect(app.savedDocuments).toHaveText(`${3 * sources.length} documents saved in this browser`);
    await page.screenshot({ path: test.info().outputPath('3-added-after-reload.png'), fullPage: true });
    // The whole documents' candidates with their saved cuts are ruled out unmeasured, and said so.
    await expect(checks).toContainText(/ruled out without measuring/);
    await expect(checks).toContainText(/by their feature-set sizes/);
    await page.getByRole('region', { name: 'Distance histogram' }).screenshot({ path: test.info().outputPath('4-histogram-caption.png') });
    console.log(`after the reload and the added folder: ${await checks.innerText()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
