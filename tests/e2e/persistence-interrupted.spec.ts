import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage } from './persistence-page.ts';
import { walkSavedRecords } from './saved-records.ts';

/** The newest scan session's committed count, read straight from the app's IndexedDB. */
async function committedSoFar(page: Page): Promise<number> {
  const [committed] = await walkSavedRecords(page, 'scan-sessions', (session) => ({ take: (session.committed as number | undefined) ?? 0, stop: true }), null, { direction: 'prev' });
  return committed ?? 0;
}

test('a scan cut off by a reload is offered for resuming, and resuming scans only the missing files', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-persist-resume-'));
  try {
    const files = 1500;
    generateCorpus(join(dir, 'corpus'), { files, totalBytes: 20e6, nearEvery: 0, exactEvery: 0, perFolder: 250, seed: 21 });
    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('scanning');
    await expect.poll(() => committedSoFar(page), { timeout: 60_000, intervals: [100] }).toBeGreaterThan(0);
    await page.reload(); // the tab goes away mid-scan

    const question = page.getByRole('group', { name: 'Interrupted scan' });
    await expect(question).toContainText(/The last scan was interrupted — [\d,]+ of 1,500 files saved\. Resume\?/, { timeout: 30_000 });
    const saved = Number((await app.savedDocuments.innerText()).split(' ')[0]!.replaceAll(',', ''));
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(files);

    await question.getByLabel('Choose the folder to resume').setInputFiles(join(dir, 'corpus'));
    await expect(page.getByRole('status').filter({ hasText: 'Resuming' })).toContainText(`${(files - saved).toLocaleString('en')} of 1,500 files were not saved yet`);
    await app.waitForState('done');
    await expect(app.savedDocuments).toHaveText('1,500 documents saved in this browser');
    expect(await app.stat('Files scanned')).toBe('1,500');
    await expect(question).toBeHidden();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
