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
    const app = new PersistencePage(page);
    await page.goto('/');
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL!).origin, quotaSize: 6 * 2 ** 20 });
    // Some Chromium builds accept the override and ignore it (Debian's 150.0.7871.100 reports its
    // 5 GB quota and lets 20 MB through): then no full storage can be made here, and the test says so
    // instead of passing. The unit tests of the quota path (tests/unit/storage) still run.
    const quota = await page.evaluate(async () => (await navigator.storage.estimate()).quota ?? 0);
    test.skip(quota > 8 * 2 ** 20, `this Chromium ignores Storage.overrideQuotaForOrigin (quota still ${quota} bytes)`);
    await app.chooseFolder(join(dir, 'corpus'));
    const alert = app.panel.getByRole('alert');
    await expect(alert).toContainText('Storage is full:', { timeout: 60_000 });
    // The scan stops ('cancelled') when the quota hits while it is still reading; when the failing
    // commit is one of those that finish behind results already shown, the results stay ('done').
    await expect(app.root).toHaveAttribute('data-scan-state', /^(cancelled|done)$/);
    // The count is final once the scan's last commits have settled.
    await waitForSaved(page);
    const saved = Number((await app.savedDocuments.innerText()).split(' ')[0]!.replaceAll(',', ''));
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(400);
    // What happened, in numbers, as an error, with a real Resume: not "Scan cancelled" (nobody cancelled).
    await expect(alert).toContainText(`Storage is full: ${saved} files saved, ${400 - saved} not saved.`);
    await expect(alert.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Scan progress' })).not.toContainText('Scan cancelled');
    if ((await app.root.getAttribute('data-scan-state')) === 'cancelled') {
      await expect(page.getByRole('region', { name: 'Scan progress' }).getByRole('alert')).toContainText('Storage is full:');
    }
    // Resume with the storage still full: stopped again at once, nothing lost, still said. (The
    // override is set again: in a long run Chromium was seen to drop it, and a resume then fits.)
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(baseURL!).origin, quotaSize: 6 * 2 ** 20 });
    await alert.getByRole('button', { name: 'Resume' }).click();
    await expect(alert).toContainText(`Storage is full: 0 files saved, ${400 - saved} not saved.`, { timeout: 60_000 });
    await waitForSaved(page);
    await expect(app.savedDocuments).toHaveText(`${saved} documents saved in this browser`);

    // Nothing committed is lost: the saved part comes back after a reload, said to be partial, with a resume.
    await page.reload();
    await app.waitForState('done');
    await expect(app.savedDocuments).toHaveText(`${saved} documents saved in this browser`);
    expect(Number(await app.stat('Files scanned'))).toBe(saved);
    const partial = app.panel.getByRole('group', { name: 'Interrupted scan' });
    await expect(partial).toContainText('The saved corpus is partial');
    // The last attempt was the resume (its 400 - saved files, none of which fitted).
    await expect(partial).toContainText(`the storage was full, ${400 - saved} files of the last scan not saved`);
    await expect(partial.getByRole('button', { name: 'Resume' })).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
