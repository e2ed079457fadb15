/**
 * `npm run bench -- file-read [--dir DIR] [--modes stream:32,response:32,arrayBuffer:32,post-none:100,post-none:1000,post-sync:1000,post-async:1000,size]`
 *
 * Micro-benchmark behind the ingest design: what getting the bytes of Files from a folder input
 * (`webkitdirectory`, set with setInputFiles, as a person choosing a folder) costs in headless
 * Chromium. Modes: `stream|response|arrayBuffer:C` read every file on the main thread with C reads in
 * flight; `post-none|post-sync|post-async:B` post the Files to a worker in batches of B (it ignores
 * them, reads them with FileReaderSync, or with arrayBuffer()) and time the postMessage calls on the
 * main thread; `size` reads every File's size. Each prints main-thread ms and the longest task (a
 * task that began before the observer, like the synchronous `size` loop, is not reported: read its ms).
 * Default DIR: the 10,000-file ingest corpus under bench/.data (run `npm run bench -- ingest --files 10000 --mb 100` once).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { benchOptions, listOption } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');


const WORKER = `onmessage = async (e) => {
  const { kind, files } = e.data; const t0 = performance.now(); let bytes = 0;
  if (kind === 'post-sync') { const r = new FileReaderSync(); for (const f of files) bytes += r.readAsArrayBuffer(f).byteLength; }
  else if (kind === 'post-async') { for (let i = 0; i < files.length; i += 32) { const part = await Promise.all(files.slice(i, i + 32).map((f) => f.arrayBuffer())); for (const b of part) bytes += b.byteLength; } }
  postMessage({ ms: performance.now() - t0, bytes });
};`;
const PAGE = `<!doctype html><input type=file webkitdirectory id=f><script>
window.W = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(WORKER)}], { type: 'text/javascript' })));
</script>`;

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(args, { dir: { type: 'string' }, modes: { type: 'string' } }, 'usage: npm run bench -- file-read [--dir DIR] [--modes stream:32,...]');
  if (!o) return;
  const dir = o.dir ?? join(root, 'bench', '.data', 'ingest-10000-100000000-1', 'corpus');
  const modes = listOption(o.modes, 'stream:32,response:32,arrayBuffer:32,post-none:100,post-none:1000,post-sync:1000,post-async:1000,size');
  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.on('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await chromium.launch({ executablePath: process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    for (const mode of modes) {
      const [how, nText] = mode.split(':');
      const page = await browser.newPage();
      await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      await page.goto(url);
      await page.locator('#f').setInputFiles(dir);
      const r = await page.evaluate(
        async ([how, n]) => {
          const tasks: number[] = [];
          new PerformanceObserver((l) => {
            for (const e of l.getEntries()) tasks.push(e.duration);
          }).observe({ type: 'longtask' });
          const files = [...(document.getElementById('f') as HTMLInputElement).files!];
          const w = (window as unknown as { W: Worker }).W;
          const t0 = performance.now();
          let bytes = 0;
          let mainMs = 0;
          let workerMs = 0;
          if (how === 'size') {
            for (const f of files) bytes += f.size;
            mainMs = performance.now() - t0;
          } else if (how.startsWith('post-')) {
            const batches = Math.ceil(files.length / n);
            let got = 0;
            const all = new Promise<void>((resolve) => {
              w.onmessage = (e: MessageEvent<{ ms: number; bytes: number }>) => {
                workerMs += e.data.ms;
                bytes += e.data.bytes;
                if (++got === batches) resolve();
              };
            });
            for (let i = 0; i < files.length; i += n) {
              const s = performance.now();
              w.postMessage({ kind: how, files: files.slice(i, i + n) });
              mainMs += performance.now() - s;
              await new Promise((resolve) => setTimeout(resolve, 0));
            }
            await all;
          } else {
            let next = 0;
            const lane = async () => {
              while (next < files.length) {
                const f = files[next++];
                if (how === 'stream') {
                  const reader = f.stream().getReader();
                  for (;;) {
                    const { done, value } = await reader.read();
                    if (done) break;
                    bytes += value.byteLength;
                  }
                } else {
                  // (Not `bytes += await ...`: that reads `bytes` before the await and loses updates.)
                  const b = how === 'response' ? await new Response(f).arrayBuffer() : await f.arrayBuffer();
                  bytes += b.byteLength;
                }
              }
            };
            await Promise.all(Array.from({ length: n }, lane));
          }
          const wallMs = performance.now() - t0;
          await new Promise((resolve) => setTimeout(resolve, 200));
          return { files: files.length, wallMs, mainMs, workerMs, mb: bytes / 1e6, longest: Math.max(0, ...tasks) };
        },
        [how, Number(nText ?? 0)] as [string, number],
      );
      const perFile = (ms: number) => `${((ms / r.files) * 1000).toFixed(0)} µs/file`;
      console.log(
        `${mode.padEnd(16)} ${r.files} files ${r.mb.toFixed(0)} MB: wall ${r.wallMs.toFixed(0)} ms (${Math.round((r.files / r.wallMs) * 1000)} files/s)` +
          (r.mainMs ? `, main-thread postMessage/size ${r.mainMs.toFixed(0)} ms (${perFile(r.mainMs)})` : '') +
          (r.workerMs ? `, worker reading ${r.workerMs.toFixed(0)} ms` : '') +
          `, longest task ${r.longest.toFixed(0)} ms`,
      );
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
}
