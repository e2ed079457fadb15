import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { IngestPage, cancelOnceFilesDone } from './ingest-page.ts';

test('cancel stops a scan, keeps what finished, and a new scan can start right away', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-cancel-'));
  try {
    generateCorpus(join(dir, 'big'), { files: 3000, totalBytes: 45e6, nearEvery: 0, exactEvery: 0, perFolder: 500, seed: 3 });
    generateCorpus(join(dir, 'small'), { files: 5, totalBytes: 5000, nearEvery: 0, exactEvery: 0, perFolder: 5, seed: 4 });
    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(join(dir, 'big'));
    await app.waitForState('scanning');
    // Cancel once some files are done, so there is something finished to keep.
    // How long the cancel takes is measured by bench/browser/main-thread.bench.spec.ts, not asserted here.
    await cancelOnceFilesDone(page, '3,000');
    await app.waitForState('cancelled');
    await expect(app.progressStatus).toContainText('Scan cancelled.');
    await expect(app.results).toContainText('The scan was cancelled');
    // What finished before the cancel is still searched (in fresh workers): the summary fills in,
    // while the state stays 'cancelled'.
    // (Distinct texts are counted by the search: 0 until it has run.)
    await expect(app.results).toContainText(/\([1-9][\d,]* distinct texts\)/);
    await expect(app.root).toHaveAttribute('data-scan-state', 'cancelled');

    await app.chooseFolder(join(dir, 'small'));
    await app.waitForState('done');
    await expect(app.progressStatus).toContainText('Scanned 5 files');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
