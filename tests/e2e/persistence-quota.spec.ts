import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

test('a full quota stops the scan with a clear message and keeps what was saved', async ({ page, context, baseURL }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-persist-quota-'));
  try {
    generateCorpus(join(dir, 'corpus'), { files: 400, totalBytes: 8e6, nearEvery: 0, exactEvery: 0, perFolder: 100, seed: 13 });
    // The origin's quota is lowered through the DevTools protocol, as a nearly full disk would.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL!).origin, quotaSize: 6 * 2 ** 20 });
    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await expect(app.panel.getByRole('alert')).toContainText('no more storage space', { timeout: 60_000 });
    // The scan stops ('cancelled') when the quota hits while it is still reading; when the failing
    // commit is one of those that finish behind results already shown, the results stay ('done').
    await expect(app.root).toHaveAttribute('data-scan-state', /^(cancelled|done)$/);
    // The count is final once the scan's last commits have settled.
    await waitForSaved(page);
    const saved = Number((await app.savedDocuments.innerText()).split(' ')[0]!.replaceAll(',', ''));
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(400);

    // Nothing committed is lost: the saved part comes back after a reload.
    await page.reload();
    await app.waitForState('done');
    await expect(app.savedDocuments).toHaveText(`${saved} documents saved in this browser`);
    expect(Number(await app.stat('Files scanned'))).toBe(saved);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
