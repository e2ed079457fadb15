import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { UI_CORPUS, writeUiCorpus } from '../fixtures/ui-corpus.ts';
import { ResultsPage } from './results-page.ts';

test('no request leaves the origin during a whole scan and review', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const dir = mkdtempSync(join(tmpdir(), 'simsift-privacy-'));
  try {
    const files = writeUiCorpus(dir);
    const app = new ResultsPage(page);
    await app.open();
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'self'");

    await app.trySample();
    await app.chooseFiles(Object.values(files));
    await app.option(UI_CORPUS.hostile).click();
    await expect(app.pairView.getByRole('region').first()).toBeVisible();

    expect(requests.length).toBeGreaterThan(0);
    const outside = requests.filter((url) => {
      if (url.startsWith('data:')) return false;
      return new URL(url.startsWith('blob:') ? url.slice(5) : url).origin !== origin;
    });
    expect(outside).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
