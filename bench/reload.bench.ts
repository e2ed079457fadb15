/**
 * `npm run bench -- reload [--files 100000] [--runs 3] [--rescan]`: the built app opening a saved corpus
 * of the ingest bench's real-text files, as a person coming back finds it. Set-up (untimed, once, kept):
 * a browser profile on disk under bench/.data/ in which the folder was scanned through `Choose folder`
 * and the saving settled. Each run is a fresh browser on that profile opening the app, timed to
 * `data-scan-state="done"`; prints each restore step (the `simsift:restore-*` measures) and the long
 * tasks. With `--rescan` the set-up scans again and the first run is the reload of that same tab right
 * after its scan (the old page torn down while the new one restores); `--pause S` waits S seconds first.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import { realCorpusOnDisk } from './real-corpus.ts';
import { benchOptions, numberOption } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The saved corpus lives under this origin in the kept profile: the port must never change.
const PORT = 4391;
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// Long tasks from the document's start (installed before the app's scripts run).
const OBSERVE_TASKS = `globalThis.__name = (f) => f; globalThis.__tasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) globalThis.__tasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });`;

/** Opens (or reloads) the app and times it to 'done'; prints the restore's steps and long tasks. */
async function timedOpen(page: Page, url: string, label: string): Promise<void> {
  const t0 = performance.now();
  await page.goto(url);
  // IndexedDB is per origin: a profile saved under another port opens empty, and would wait forever.
  const outcome = await page.waitForFunction(
    () => {
      if (document.querySelector('[data-scan-state="done"]')) return 'done';
      const saved = document.querySelector('[aria-label="Saved documents"]')?.textContent ?? '';
      const restoring = /Restoring the saved corpus/.test(document.body.textContent ?? '');
      // Empty for 3 s on end: before the saved corpus is looked up the panel also reads 0.
      const w = globalThis as unknown as { __emptySince?: number };
      if (restoring || !saved.startsWith('0 documents')) w.__emptySince = undefined;
      else w.__emptySince ??= performance.now();
      return w.__emptySince !== undefined && performance.now() - w.__emptySince > 3000 ? 'empty' : false;
    },
    undefined,
    { timeout: 600_000, polling: 250 },
  );
  if ((await outcome.jsonValue()) === 'empty') throw new Error(`no saved corpus at ${url} in this profile: run with --rescan`);
  const seconds = (performance.now() - t0) / 1000;
  await page.waitForTimeout(1000);
  const seen = await page.evaluate(() => ({
    steps: performance
      .getEntriesByType('measure')
      .filter((e) => e.name.startsWith('simsift:restore'))
      .map((e) => `${e.name.slice('simsift:restore-'.length)} ${Math.round(e.duration)}`),
    tasks: (globalThis as unknown as { __tasks: Array<[number, number]> }).__tasks,
  }));
  const longest = Math.max(0, ...seen.tasks.map(([, d]) => d));
  console.log(`  ${label}: ${seconds.toFixed(2)} s to groups; longest main-thread task ${longest} ms (${seen.tasks.length} over 50 ms)`);
  console.log(`    steps (ms): ${seen.steps.join(', ')}`);
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(args, { files: { type: 'string' }, runs: { type: 'string' }, rescan: { type: 'boolean' }, pause: { type: 'string' } }, 'usage: npm run bench -- reload [--files 100000] [--runs 3] [--rescan [--pause S]]');
  if (!o) return;
  const files = numberOption(o.files, 100_000, 'files');
  const runs = numberOption(o.runs, 3, 'runs');
  // With --rescan: seconds on the results before the reload (a person reading them; the page lets go of the folder's Files meanwhile).
  const pause = numberOption(o.pause, 0, 'pause');
  const corpus = realCorpusOnDisk(files, 10_000, 1);
  const profile = join(dirname(corpus.dir), 'reload-profile');
  const outDir = mkdtempSync(join(tmpdir(), 'simsift-reload-build-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: PORT, strictPort: true } });
  const url = `http://127.0.0.1:${PORT}/`;
  const open = () => chromium.launchPersistentContext(profile, { executablePath: process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium', args: ARGS, serviceWorkers: 'block' });
  try {
    console.log(`reload bench: ${corpus.files} real-text files (${(corpus.bytes / 1e6).toFixed(0)} MB) saved in ${profile}`);
    let first = 0;
    if (o.rescan === true || !existsSync(profile)) {
      rmSync(profile, { recursive: true, force: true });
      const context = await open();
      const page = context.pages()[0] ?? (await context.newPage());
      await page.addInitScript({ content: OBSERVE_TASKS });
      await page.goto(url);
      const t0 = performance.now();
      await page.getByLabel('Choose folder', { exact: true }).setInputFiles(corpus.dir, { timeout: 900_000 });
      await page.locator('[data-scan-state="done"]').waitFor({ timeout: 1_800_000 });
      while (!(await page.evaluate(() => performance.getEntriesByName('simsift:saving-after-results').length))) await page.waitForTimeout(500);
      console.log(`  set-up: scanned and saved in ${((performance.now() - t0) / 1000).toFixed(1)} s (untimed)`);
      if (pause > 0) await page.waitForTimeout(pause * 1000);
      await timedOpen(page, url, pause > 0 ? `reload ${pause} s after the scan was saved, same tab` : 'reload right after the scan was saved, same tab');
      await context.close();
      first = 1;
    }
    for (let run = first; run < runs; run++) {
      const context = await open();
      const page = context.pages()[0] ?? (await context.newPage());
      await page.addInitScript({ content: OBSERVE_TASKS });
      await timedOpen(page, url, `browser started, app opened (run ${run + 1})`);
      await timedOpen(page, url, `then reloaded (run ${run + 1})`);
      await context.close();
    }
  } finally {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
