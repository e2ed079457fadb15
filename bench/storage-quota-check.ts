/**
 * `npx tsx bench/storage-quota-check.ts`: checks the quota path in real headless Chromium. The origin's
 * quota is lowered through the DevTools protocol (Storage.overrideQuotaForOrigin), batches with file
 * contents are added until one fails, and it prints what the storage layer threw and what was kept.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'simsift-quota-'));
execFileSync(
  join(here, '../node_modules/.bin/esbuild'),
  [join(here, 'storage-quota-page.ts'), '--bundle', '--format=esm', '--target=es2022', `--outfile=${join(work, 'page.js')}`, '--log-level=warning'],
  { stdio: 'inherit' },
);
const script = readFileSync(join(work, 'page.js'));
const server = createServer((req, res) => {
  const js = req.url === '/page.js';
  res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html' });
  res.end(js ? script : '<!doctype html><meta charset="utf-8"><title>quota</title><script type="module" src="/page.js"></script>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const context = await chromium.launchPersistentContext(join(work, 'profile'), {
  executablePath: process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  headless: true,
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(0);
  const cdp = await context.newCDPSession(page);
  const quotaBytes = 8 * 2 ** 20;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: quotaBytes });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => 'simsiftQuotaCheck' in window);
  const result = await page.evaluate(() =>
    (window as unknown as { simsiftQuotaCheck: { fillUntilFull(a: number, b: number, c: number): Promise<unknown> } })
      .simsiftQuotaCheck.fillUntilFull(4, 256 * 1024, 100),
  );
  console.log(`quota override: ${quotaBytes} bytes`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await context.close();
  server.close();
  rmSync(work, { recursive: true, force: true });
}
