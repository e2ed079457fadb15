/**
 * Installable and offline: the built app carries a web app manifest and a service worker that precaches
 * it; after one visit the page opens with the network off and scans a folder (its workers, pdf.js and the
 * Word reader included), and nothing it or its service worker asks for leaves the origin.
 */
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { ResultsPage } from './results-page.ts';

test('after one visit the app opens and scans offline, and asks nothing of another origin', async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const requests: string[] = [];
  const failed: string[] = [];
  // The context sees the service worker's own requests (its precache fetches) as well as the page's.
  context.on('request', (r) => requests.push(r.url()));
  context.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText}`));

  const app = new ResultsPage(page);
  await app.open();
  // Installable: a manifest with a name, standalone display and PNG icons of 192 and 512 px.
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest).toMatchObject({ short_name: 'SimSift', display: 'standalone', start_url: '/' });
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) expect((await page.request.get(icon.src)).ok()).toBe(true);
  // The worker is active once everything is precached (install waits for the whole precache).
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${origin}/`);
  const isolatedOnline = await page.evaluate(() => crossOriginIsolated);

  await context.setOffline(true);
  await page.reload();
  await expect(app.root).toHaveAttribute('data-scan-state', 'idle');
  // The network is off: a URL outside the precache cannot be fetched (navigator.onLine is no witness:
  // Chromium 150 reads true after a reload under the emulated offline network).
  const probe = `${origin}/offline-probe-${Date.now()}`;
  expect(await page.evaluate((url) => fetch(url, { cache: 'no-store' }).then(() => 'fetched', () => 'failed'), probe)).toBe('failed');
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The cached page keeps its headers, so the index workers still share memory as they did online.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(isolatedOnline);

  // A text, its PDF and its Word rendering: the ingest, pdf.js and index workers all load from the cache.
  const docs = resolve('tests/fixtures/documents');
  await app.chooseFiles(['cc0.txt', 'cc0.pdf', 'cc0.docx'].map((name) => `${docs}/${name}`));
  await expect(app.stat('Files scanned')).toHaveText('3');
  await expect(app.stat('Skipped')).toHaveText('0');
  await expect(app.stat('Near-duplicate groups')).toHaveText('1');
  await app.option('cc0.pdf').click();
  await expect(app.pairView.getByRole('region', { name: 'Text of cc0.pdf' })).toContainText('CC0');

  expect(requests.length).toBeGreaterThan(0);
  const outside = requests.filter((url) => !url.startsWith('data:') && new URL(url.startsWith('blob:') ? url.slice(5) : url).origin !== origin);
  expect(outside).toEqual([]);
  expect(failed.filter((line) => !line.startsWith(probe))).toEqual([]);
});
