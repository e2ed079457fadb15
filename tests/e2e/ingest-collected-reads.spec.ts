import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { IngestPage } from './ingest-page.ts';

// A 20,000-file scan once stopped for good at 19,968 files: Chromium had collected the Blob streams its
// read lanes were reading (a BYOB read's stream referenced only by that read's continuation) and those
// reads never settled. Collections forced back to back make that happen within the first files.
test('a scan finishes while the page collects garbage over and over (no read is lost to the collector)', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-collected-'));
  const cdp = await page.context().newCDPSession(page);
  let collecting = true;
  const collector = (async () => {
    while (collecting) await cdp.send('HeapProfiler.collectGarbage').catch(() => undefined);
  })();
  try {
    // An odd count and folders of 37: the last batch is a partial one.
    const corpus = generateCorpus(join(dir, 'corpus'), { files: 601, totalBytes: 601 * 2000, nearEvery: 10, exactEvery: 7, perFolder: 37, seed: 38 });
    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(join(dir, 'corpus'));
    await expect(app.root).toHaveAttribute('data-scan-state', 'done', { timeout: 45_000 });
    await expect(app.progressStatus).toContainText(`Scanned ${corpus.files} files`);
  } finally {
    collecting = false;
    await collector;
    rmSync(dir, { recursive: true, force: true });
  }
});
