/**
 * `npm run bench -- restore [--n 1000000] [--k 3] [--runs 3] [--no-tables] [--shard-bits B] [--node]
 * [--profile DIR [--reuse]] [--port P]`: how long a
 * stored corpus (documents + permuted-table shards) takes to become ready to query after a restart.
 * By default in headless Chromium on a real on-disk IndexedDB (the browser is restarted between
 * filling and each timed restore); `--node` runs the same code on fake-indexeddb (not representative).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { benchOptions, median, numberOption } from './harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const CHROMIUM = process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

type Figures = Record<string, number>;
interface BenchApi {
  setup(n: number, k: number, batchSize: number, withTables: boolean): Promise<Figures>;
  restore(): Promise<Figures>;
  rewriteTables(k: number, shardBits: number): Promise<Figures>;
  queryStored(queries: number): Promise<Figures>;
}

function show(label: string, figures: Figures): void {
  const parts = Object.entries(figures).map(([key, v]) =>
    key.endsWith('Ms') ? `${key}=${v.toFixed(0)}` : key.endsWith('Bytes') ? `${key}=${(v / 2 ** 20).toFixed(1)}MiB` : `${key}=${v}`,
  );
  console.log(`${label}: ${parts.join(' ')}`);
}


export async function main(args: string[]): Promise<void> {
  const o = benchOptions(
    args,
    {
      n: { type: 'string' }, k: { type: 'string' }, runs: { type: 'string' }, batch: { type: 'string' }, 'no-tables': { type: 'boolean' },
      'shard-bits': { type: 'string' }, profile: { type: 'string' }, reuse: { type: 'boolean' }, node: { type: 'boolean' }, port: { type: 'string' },
    },
    'usage: npm run bench -- restore [--n 1000000] [--k 3] [--runs 3] [--batch 10000] [--no-tables] [--shard-bits B] [--profile FILE] [--reuse] [--node] [--port P]',
  );
  if (!o) return;
  const n = numberOption(o.n, 1_000_000, 'n');
  const k = numberOption(o.k, 3, 'k');
  const runs = numberOption(o.runs, 3, 'runs');
  const batch = numberOption(o.batch, 10_000, 'batch');
  const withTables = o['no-tables'] !== true;
  const shardBits = numberOption(o['shard-bits'], -1, 'shard-bits');
  const profile = o.profile;
  const reuse = o.reuse === true;
  console.log(`restore benchmark: ${n} documents, k=${k}, tables ${withTables ? 'stored' : 'not stored'}, ${runs} runs`);
  const totals = o.node === true
    ? await runInNode(n, k, batch, withTables, runs)
    : await runInChromium({ n, k, batch, withTables, runs, shardBits, profile, reuse, port: numberOption(o.port, 47321, 'port') });
  console.log(`restore to ready-to-query, median of ${runs}: ${median(totals).toFixed(0)} ms (target <= 3000 ms in Chromium)`);
}

interface ChromiumOptions {
  n: number;
  k: number;
  batch: number;
  withTables: boolean;
  runs: number;
  shardBits: number;
  /** Keep the browser profile here (and with `reuse`, restore what an earlier run filled). */
  profile: string | undefined;
  reuse: boolean;
  port: number;
}

async function runInChromium(o: ChromiumOptions): Promise<number[]> {
  const { chromium } = await import('playwright-core');
  const work = mkdtempSync(join(tmpdir(), 'simsift-restore-'));
  const profile = o.profile ?? join(work, 'profile');
  // Bundle the page script with esbuild (a vite dependency): no dev server, no network.
  execFileSync(
    join(root, 'node_modules/.bin/esbuild'),
    [join(here, 'storage-restore-page.ts'), '--bundle', '--format=esm', '--target=es2022', `--outfile=${join(work, 'page.js')}`, '--log-level=warning'],
    { stdio: 'inherit' },
  );
  const script = readFileSync(join(work, 'page.js'));
  const server = createServer((req, res) => {
    if (req.url === '/page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><meta charset="utf-8"><title>restore bench</title><script type="module" src="/page.js"></script>');
    }
  });
  // A fixed port keeps the origin (and so the stored database) the same across runs with --reuse.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  try {
    // Each phase is a fresh browser on the same on-disk profile, like closing and reopening the app.
    if (!o.reuse) {
      const filled = await inBrowser(chromium, profile, url, 'setup', [o.n, o.k, o.batch, o.withTables ? 1 : 0]);
      show('fill (setup, not timed as restore)', filled);
    }
    if (o.withTables && (o.reuse || o.shardBits >= 0)) {
      show('tables rewritten', await inBrowser(chromium, profile, url, 'rewriteTables', [o.k, o.shardBits]));
    }
    const totals: number[] = [];
    for (let r = 0; r < o.runs; r++) {
      const figures = await inBrowser(chromium, profile, url, 'restore', []);
      show(`restore run ${r + 1}`, figures);
      totals.push(figures.totalMs!);
    }
    if (o.withTables) {
      show('one-file check from the stored shards (fresh browser, no restore)', await inBrowser(chromium, profile, url, 'queryStored', [20]));
    }
    return totals;
  } finally {
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

async function inBrowser(
  chromium: typeof import('playwright-core').chromium,
  profile: string,
  url: string,
  phase: 'setup' | 'restore' | 'rewriteTables' | 'queryStored',
  phaseArgs: number[],
): Promise<Figures> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(0);
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(url);
    await page.waitForFunction(() => 'simsiftRestoreBench' in window);
    return await page.evaluate(
      ([which, a]) => {
        const api = (window as unknown as { simsiftRestoreBench: BenchApi }).simsiftRestoreBench;
        if (which === 'setup') return api.setup(a[0]!, a[1]!, a[2]!, a[3] === 1);
        if (which === 'rewriteTables') return api.rewriteTables(a[0]!, a[1]!);
        if (which === 'queryStored') return api.queryStored(a[0]!);
        return api.restore();
      },
      [phase, phaseArgs] as const,
    );
  } finally {
    await context.close();
  }
}

async function runInNode(n: number, k: number, batch: number, withTables: boolean, runs: number): Promise<number[]> {
  await import('./storage-fake-idb.ts');
  (globalThis as { window?: unknown }).window = globalThis;
  await import('./storage-restore-page.ts');
  const api = (globalThis as unknown as { simsiftRestoreBench: BenchApi }).simsiftRestoreBench;
  show('fill (setup, fake-indexeddb)', await api.setup(n, k, batch, withTables));
  const totals: number[] = [];
  for (let r = 0; r < runs; r++) {
    const figures = await api.restore();
    show(`restore run ${r + 1} (fake-indexeddb, in-memory)`, figures);
    totals.push(figures.totalMs!);
  }
  return totals;
}
