import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { ResultsPage } from './results-page.ts';

/** Live File objects with a name in the page after a full GC (DevTools' queryObjects). */
async function namedFilesAlive(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const proto = await cdp.send('Runtime.evaluate', { expression: 'File.prototype' });
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId! });
  const counted = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId!,
    functionDeclaration: 'function () { return this.filter((f) => f.name !== "").length; }',
    returnByValue: true,
  });
  await cdp.detach();
  return counted.result.value as number;
}

// Chromium releases a page's folder-input Files in its browser process when the page goes: 100,000 of
// them held to the end starved the reload for 20-30 s. With contents kept the corpus reads its own copy,
// so once the scan is saved the page lets them go, and a pair still opens from what was kept.
test('once a scan with kept contents is saved, the page holds none of the chosen folder’s Files', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-release-'));
  try {
    generateCorpus(join(dir, 'corpus'), { files: 40, totalBytes: 40 * 3000, nearEvery: 5, exactEvery: 7, perFolder: 20, seed: 5 });
    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    await waitForSaved(page);
    await expect.poll(() => namedFilesAlive(page), { timeout: 20_000 }).toBe(0);

    // The folder chosen again (one file edited): its new listing is let go as well once saved.
    appendFileSync(join(dir, 'corpus', readdirSync(join(dir, 'corpus'))[0]!, readdirSync(join(dir, 'corpus', readdirSync(join(dir, 'corpus'))[0]!))[0]!), '\nOne more line.\n');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    await waitForSaved(page);
    // The 39 unchanged files' Files are let go; the one file this scan read is still held by the scan's
    // own columns (until the next scan): at most the files read, never the folder.
    await expect.poll(() => namedFilesAlive(page), { timeout: 20_000 }).toBeLessThanOrEqual(1);

    const results = new ResultsPage(page);
    const texts = results.pairView.getByRole('region', { name: /^Text of corpus\// });
    await results.groups.getByRole('option').nth(1).click();
    await expect(texts).toHaveCount(2);
    // Each side is its own file's text, read from its range of the kept batch (not the whole batch).
    for (const side of [texts.nth(0), texts.nth(1)]) {
      const path = (await side.getAttribute('aria-label'))!.replace(/^Text of /, '');
      const onDisk = readFileSync(join(dir, path), 'utf8');
      await expect(side).toContainText(onDisk.trim().split('\n')[0]!.slice(0, 60));
      expect((await side.textContent())!.length).toBeLessThan(onDisk.length * 1.5 + 200);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
