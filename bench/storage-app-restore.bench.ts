/**
 * `npm run bench -- storage-app-restore [--n 1000000] [--runs 2] [--port P]`: the built app's reload
 * with a saved corpus of n documents (no contents kept), in headless Chromium on an on-disk profile.
 * The corpus is written by the storage layer on the app's origin (bench/storage-restore-page.ts, every
 * 50th document a near-duplicate of the one before); each run is a fresh browser opening the app and
 * waiting for `data-scan-state="done"` (the automation contract), which includes loading the corpus and
 * the pipeline's near-duplicate stage over it. Prints the time to 'done' and the longest main-thread task.
 */
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { benchOptions, numberOption } from './harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const CHROMIUM = process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.txt': 'text/plain', '.wasm': 'application/wasm' };


export async function main(args: string[]): Promise<void> {
  const o = benchOptions(args, { n: { type: 'string' }, runs: { type: 'string' }, port: { type: 'string' } }, 'usage: npm run bench -- storage-app-restore [--n 1000000] [--runs 2] [--port P]');
  if (!o) return;
  const n = numberOption(o.n, 1_000_000, 'n');
  const runs = numberOption(o.runs, 2, 'runs');
  const port = numberOption(o.port, 4627, 'port');
  const { chromium } = await import('playwright-core');
  const work = mkdtempSync(join(tmpdir(), 'simsift-app-restore-'));
  const dist = join(work, 'dist');
  execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn', '--outDir', dist], { cwd: root, stdio: 'inherit' });
  execFileSync(
    join(root, 'node_modules/.bin/esbuild'),
    [join(here, 'storage-restore-page.ts'), '--bundle', '--format=esm', '--target=es2022', `--outfile=${join(work, 'fill.js')}`, '--log-level=warning'],
    { stdio: 'inherit' },
  );
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x').pathname;
    if (url === '/fill.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><script type="module" src="/fill.js"></script>');
      return;
    }
    const file = url === '/fill.js' ? join(work, 'fill.js') : join(dist, normalize(url === '/' ? '/index.html' : url));
    if (!file.startsWith(work) || !existsSync(file)) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${port}`;
  const profile = join(work, 'profile');
  const open = () => chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    {
      const context = await open();
      const page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(0);
      await page.goto(`${origin}/fill.html`);
      await page.waitForFunction(() => 'simsiftRestoreBench' in window);
      const filled = await page.evaluate(
        (count) => (window as unknown as { simsiftRestoreBench: { setup(n: number, k: number, b: number, t: boolean): Promise<Record<string, number>> } }).simsiftRestoreBench.setup(count, 3, 10_000, false),
        n,
      );
      console.log(`fill: ${JSON.stringify(filled)}`);
      await context.close();
    }
    for (let r = 0; r < runs; r++) {
      const context = await open();
      const page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(0);
      page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
      await page.addInitScript(() => {
        const w = window as unknown as { __longest: number };
        w.__longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => document.querySelector('[data-scan-state]')?.getAttribute('data-scan-state') === 'done', undefined, { polling: 50 });
      const figures = await page.evaluate(() => ({
        doneMs: performance.now(),
        longestTaskMs: (window as unknown as { __longest: number }).__longest,
        saved: document.querySelector('[aria-label="Saved documents"]')?.textContent ?? '',
      }));
      console.log(`run ${r + 1}: data-scan-state=done ${figures.doneMs.toFixed(0)} ms after navigation; longest main-thread task ${figures.longestTaskMs.toFixed(0)} ms; "${figures.saved}"`);
      await context.close();
    }
  } finally {
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
