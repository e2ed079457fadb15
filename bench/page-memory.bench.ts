/**
 * `npm run bench -- page-memory [--files 20000] [--seed 1] [--port P] [--no-contents] [--timeline]`
 *
 * What the app's renderer holds after a folder-input scan of real text (#38's memory target), told
 * apart as Chromium's own memory dump does: the renderer that runs the page (not every renderer
 * summed: the service worker's and a spare one hold about 240 MB whatever the page does), sampled
 * every 150 ms from /proc (RSS, anonymous), the JS heaps of the page and each worker (CDP
 * `Runtime.getHeapUsage`: objects and ArrayBuffer backing stores) at the RSS peak, Chromium's
 * allocator totals (a `light` memory-infra dump: partition_alloc's array_buffer and buffer
 * partitions, malloc, v8, blink_gc) when the results show, and the same RSS after a forced GC in
 * every thread (what was only uncollected garbage). Memory only: it prints no timings. `--timeline`:
 * the renderer's RSS about every 2 s, each sample named by the scan phases (simsift: measures) it fell in.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import { benchOptions, numberOption } from './harness.ts';
import { realCorpusOnDisk } from './real-corpus.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** The page's renderer (the one whose main thread is `pid`'s): RSS and anonymous bytes from smaps_rollup. */
function residentOf(pid: number): { rss: number; anon: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb('Rss'), anon: kb('Anonymous') };
}

/** Renderer pids under this process (Chromium's command line names the role). */
function rendererPids(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (/--type=renderer/.test(readFileSync(`/proc/${name}/cmdline`, 'utf8'))) out.push(Number(name));
    } catch {
      // exited between the listing and the read
    }
  }
  return out;
}

/** Sends CDP messages to the page's workers (attached without flattening) and collects their heap usage. */
function workerHeaps(session: CDPSession) {
  const workers = new Map<string, string>();
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  session.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { url: string } }) => void workers.set(e.sessionId, e.targetInfo.url.split('/').pop()!.replace(/-[\w-]{8}\.js$/, '')));
  session.on('Target.detachedFromTarget', (e: { sessionId: string }) => void workers.delete(e.sessionId));
  session.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result ?? null), pending.delete(m.id);
  });
  const send = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) }).catch(() => resolve(null));
      setTimeout(() => resolve(null), 2000);
    });
  return {
    attach: () => session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false }),
    /** Used heap and ArrayBuffer backing bytes per thread kind (workers of one script summed). */
    async usage(): Promise<Map<string, { used: number; backing: number }>> {
      const out = new Map<string, { used: number; backing: number }>();
      const add = (name: string, h: { usedSize: number; backingStorageSize?: number } | null) => {
        if (!h) return;
        const was = out.get(name) ?? { used: 0, backing: 0 };
        out.set(name, { used: was.used + h.usedSize, backing: was.backing + (h.backingStorageSize ?? 0) });
      };
      add('page', (await session.send('Runtime.getHeapUsage').catch(() => null)) as { usedSize: number } | null);
      for (const [id, name] of workers) add(name, (await send(id, 'Runtime.getHeapUsage')) as { usedSize: number } | null);
      return out;
    },
    async collectGarbage(): Promise<void> {
      await session.send('HeapProfiler.collectGarbage');
      for (const id of workers.keys()) await send(id, 'HeapProfiler.collectGarbage');
    },
  };
}

/** Prints the page renderer's RSS samples about every `step` ms (and the peak), each named by the scan phases it fell in. */
async function printTimeline(page: Page, samples: Array<[number, number]>, peak: number, step = 2000): Promise<void> {
  const marks = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    phases: performance.getEntriesByType('measure').filter((e) => e.name.startsWith('simsift:')).map((e) => [e.name.slice(8), e.startTime, e.startTime + e.duration] as [string, number, number]),
  }));
  const start = Math.min(...marks.phases.map(([, from]) => from));
  let last = -Infinity;
  for (const [at, rss] of samples) {
    const t = at - marks.origin;
    if (t < start || (t - last < step && rss !== peak)) continue;
    last = t;
    const during = marks.phases.filter(([, from, to]) => from <= t && t <= to).map(([name]) => name);
    console.log(`    ${MB(rss).padStart(7)}${rss === peak ? ' (peak)' : ''} ${during.join(', ') || 'between phases'}`);
  }
}

/** The allocator totals of process `pid` in a memory-infra trace streamed from `handle` (only dump events are kept). */
async function allocatorTotals(browserSession: CDPSession, handle: string, pid: number): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  const dumped = new Set<number>();
  let rest = '';
  const take = (line: string) => {
    if (!line.includes('"ph":"v"')) return;
    const event = JSON.parse(line.replace(/,\s*$/, '')) as { pid: number; args: { dumps: { allocators?: Record<string, { attrs?: { size?: { value: string } } }> } } };
    dumped.add(event.pid);
    if (event.pid !== pid) return;
    for (const [name, node] of Object.entries(event.args.dumps.allocators ?? {})) {
      const size = node.attrs?.size?.value;
      if (size && /^(partition_alloc\/partitions\/\w+|malloc|v8|blink_gc|cc|shared_memory)$/.test(name)) totals.set(name, parseInt(size, 16));
    }
  };
  for (;;) {
    const r = (await browserSession.send('IO.read', { handle, size: 1 << 20 })) as { data: string; base64Encoded?: boolean; eof: boolean };
    const lines = (rest + (r.base64Encoded ? Buffer.from(r.data, 'base64').toString() : r.data)).split('\n');
    rest = lines.pop()!;
    lines.forEach(take);
    if (r.eof) break;
  }
  take(rest);
  if (totals.size === 0) console.log(`  (no memory dump of pid ${pid} in the trace; dumps of ${[...dumped].join(', ') || 'none'})`);
  return totals;
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(args, { files: { type: 'string' }, seed: { type: 'string' }, port: { type: 'string' }, 'no-contents': { type: 'boolean' }, timeline: { type: 'boolean' } }, 'usage: npm run bench -- page-memory [--files 20000] [--seed 1] [--port P] [--no-contents] [--timeline]');
  if (!o) return;
  const files = numberOption(o.files, 20_000, 'files');
  const corpus = realCorpusOnDisk(files, 10_000, numberOption(o.seed, 1, 'seed'));
  const outDir = mkdtempSync(join(tmpdir(), 'simsift-bench-build-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: numberOption(o.port, 4391, 'port'), strictPort: o.port !== undefined } });
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${numberOption(o.port, 4391, 'port')}/`;
  const browser = await chromium.launch({ executablePath: process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const browserSession = await browser.newBrowserCDPSession();
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByRole('region', { name: 'Drop zone' }).waitFor();
    if (o['no-contents'] === true) await page.getByRole('checkbox', { name: /Keep file contents/ }).click();
    const heaps = workerHeaps(await page.context().newCDPSession(page));
    await heaps.attach();
    // Every renderer is sampled; the page's is the one that grows most (the service worker's and a spare one barely move).
    const idle = new Map(rendererPids().map((p) => [p, residentOf(p)]));
    const peaks = new Map(idle);
    let atPeak = await heaps.usage();
    let done = false;
    const samples = new Map<number, Array<[number, number]>>();
    const sampler = (async () => {
      while (!done) {
        let grew = false;
        for (const p of rendererPids()) {
          let now: { rss: number; anon: number };
          try {
            now = residentOf(p);
          } catch {
            continue; // a renderer that exited since the listing
          }
          if (!samples.has(p)) samples.set(p, []);
          samples.get(p)!.push([Date.now(), now.rss]);
          if (now.rss > (peaks.get(p)?.rss ?? 0)) (grew ||= now.rss - (idle.get(p)?.rss ?? 0) > 50e6), peaks.set(p, now);
        }
        if (grew) atPeak = await heaps.usage();
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    await page.getByLabel('Choose folder', { exact: true }).setInputFiles(corpus.dir, { timeout: 600_000 });
    await page.locator('[data-scan-state="done"], [data-scan-state="error"]').waitFor({ timeout: 600_000 });
    // Saving goes on behind the results.
    while (!(await page.evaluate(() => performance.getEntriesByName('simsift:saving-after-results').length))) await page.waitForTimeout(250);
    await page.waitForTimeout(1000);
    done = true;
    await sampler;
    // Traced only for the dump: a trace started with the browser fills its buffer before the scan ends (the dump is then dropped).
    await browserSession.send('Tracing.start', { traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], memoryDumpConfig: { triggers: [] } as unknown as Record<string, never> }, transferMode: 'ReturnAsStream' });
    const dump = (await browserSession.send('Tracing.requestMemoryDump', { levelOfDetail: 'light' })) as { success: boolean };
    if (!dump.success) console.log('  (Chromium did not take the memory dump)');
    const complete = new Promise<{ stream: string }>((resolve) => browserSession.once('Tracing.tracingComplete', resolve as (e: unknown) => void));
    await browserSession.send('Tracing.end');
    const pid = [...peaks.keys()].reduce((a, b) => (peaks.get(b)!.rss - (idle.get(b)?.rss ?? 0) > peaks.get(a)!.rss - (idle.get(a)?.rss ?? 0) ? b : a));
    const peak = peaks.get(pid)!;
    const allocators = await allocatorTotals(browserSession, (await complete).stream, pid);
    const end = residentOf(pid);
    await heaps.collectGarbage();
    await page.waitForTimeout(3000);
    const collected = residentOf(pid);
    const text = corpus.bytes;
    console.log(`page-memory bench: ${corpus.files} real-text files, ${MB(text)} of text, contents ${o['no-contents'] === true ? 'not kept' : 'kept'}; the page's renderer only`);
    const before = idle.get(pid) ?? { rss: 0, anon: 0 };
    console.log(`  idle ${MB(before.rss)} RSS (${MB(before.anon)} anonymous); peak ${MB(peak.rss)} (${MB(peak.anon)}) = ${(peak.rss / text).toFixed(2)}x the text, growth ${((peak.rss - before.rss) / text).toFixed(2)}x`);
    console.log(`  after the results ${MB(end.rss)}; after a GC in every thread ${MB(collected.rss)} (${MB(collected.anon)} anonymous)`);
    console.log(`  JS heaps at the peak (used / ArrayBuffer backing): ${[...atPeak].map(([name, h]) => `${name} ${MB(h.used)} / ${MB(h.backing)}`).join(', ')}`);
    if (o.timeline === true) {
      console.log('  the renderer during the scan (RSS, the phases running):');
      await printTimeline(page, samples.get(pid) ?? [], peak.rss);
    }
    console.log(`  allocators after the results: ${[...allocators].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => `${name} ${MB(bytes)}`).join(', ')}`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
