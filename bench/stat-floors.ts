/**
 * The browser's floors for a second scan (`npm run bench -- ingest --again N`), both in the same run:
 * a blank page asking every file its size and time, nothing read, once on its main thread and once in
 * workers (one per core, as the app's ingest pool). Through a folder input the workers get the Files
 * posted in batches; through a handle each worker walks a share of the folder and opens its files.
 */
import type { Page } from '@playwright/test';
import { dropDiskFolder, type DiskRootWindow, type HandleRoot } from '../tests/e2e/disk-folders.ts';

/** A blank page with nothing but a folder input. */
const BLANK_PAGE = '<!doctype html><title>stat floor</title><input type=file webkitdirectory aria-label="Choose folder">';

/** One floor: seconds from the start to the last answer, files asked, and (workers) how long the page spent posting. */
export interface StatFloor {
  seconds: number;
  files: number;
  workers: number;
  /** Through a folder input with workers: the main thread's time inside postMessage (cloning a File asks its metadata there). */
  postSeconds?: number;
}

/** Files per message to a worker: a few thousand, as the app would post them. */
const FILES_PER_POST = 2000;

type FloorWindow = { __floor: Promise<{ ms: number; postMs: number; files: number; workers: number; sum: number }> };

/** A page at `url` with the blank content and `globalThis.__name` for tsx-wrapped functions. */
async function blankPage(newPage: () => Promise<Page>, url: string): Promise<Page> {
  const page = await newPage();
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await page.goto(url);
  await page.setContent(BLANK_PAGE);
  return page;
}

/**
 * A blank page chooses `dir` through its folder input and asks every File its size and time: `main`
 * on its main thread, one File after another; `workers` posts them to hardwareConcurrency workers
 * (started and answering before the input, as the app's are), which ask there.
 */
export async function folderStatFloor(newPage: () => Promise<Page>, url: string, dir: string, where: 'main' | 'workers'): Promise<StatFloor> {
  const page = await blankPage(newPage, url);
  try {
    await page.evaluate(
      async ([where, perPost]) => {
        const w = window as unknown as FloorWindow;
        const count = where === 'workers' ? navigator.hardwareConcurrency || 2 : 0;
        const src = 'onmessage = (e) => { let sum = 0; for (const f of e.data) sum += f.size + f.lastModified; postMessage(sum); };';
        const script = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
        const workers = Array.from({ length: count }, () => new Worker(script));
        // Each worker has started and answered once before the clock starts.
        await Promise.all(workers.map((worker) => new Promise((resolve) => ((worker.onmessage = resolve), worker.postMessage([])))));
        const input = document.querySelector('input')!;
        w.__floor = new Promise((resolve) => {
          input.addEventListener('change', () => {
            const t0 = performance.now();
            const files = [...input.files!];
            if (count === 0) {
              let sum = 0;
              for (const file of files) sum += file.size + file.lastModified;
              resolve({ ms: performance.now() - t0, postMs: 0, files: files.length, workers: 0, sum });
              return;
            }
            let answers = 0;
            let sum = 0;
            const posts = Math.ceil(files.length / perPost);
            for (const worker of workers) {
              worker.onmessage = (e: MessageEvent<number>) => {
                sum += e.data;
                if (++answers === posts) resolve({ ms: performance.now() - t0, postMs, files: files.length, workers: count, sum });
              };
            }
            for (let from = 0, k = 0; from < files.length; from += perPost, k++) workers[k % count]!.postMessage(files.slice(from, from + perPost));
            const postMs = performance.now() - t0;
          });
        });
      },
      [where, FILES_PER_POST] as const,
    );
    await page.getByLabel('Choose folder', { exact: true }).setInputFiles(dir, { timeout: 600_000 });
    const r = await page.evaluate(() => (window as unknown as FloorWindow).__floor);
    if (!(r.sum > 0)) throw new Error('the stat floor saw no sizes or times');
    return { seconds: r.ms / 1000, files: r.files, workers: r.workers, ...(where === 'workers' ? { postSeconds: r.postMs / 1000 } : {}) };
  } finally {
    await page.close();
  }
}

/**
 * Workers (one per core) each walk a share of the folder `root` (OPFS or disk; the root's entries dealt out in
 * name order) and open every file of it with `getFile()`, 16 in flight, asking its size and time.
 */
export async function handleStatFloorInWorkers(newPage: () => Promise<Page>, url: string, root: HandleRoot): Promise<StatFloor> {
  const page = await blankPage(newPage, url);
  try {
    if ('disk' in root) await dropDiskFolder(page, root.disk);
    const r = await page.evaluate(async (name) => {
      const count = navigator.hardwareConcurrency || 2;
      const src = `onmessage = async (e) => {
        const [root, share, count] = e.data;
        if (!root) return postMessage(null);
        const top = [];
        for await (const child of root.values()) top.push(child);
        top.sort((a, b) => (a.name < b.name ? -1 : 1));
        const handles = [];
        const stack = top.filter((_, i) => i % count === share);
        while (stack.length > 0) {
          const h = stack.pop();
          if (h.kind === 'file') handles.push(h);
          else for await (const child of h.values()) stack.push(child);
        }
        let next = 0, sum = 0;
        const lane = async () => { while (next < handles.length) { const f = await handles[next++].getFile(); sum += f.size + f.lastModified; } };
        await Promise.all(Array.from({ length: 16 }, lane));
        postMessage([handles.length, sum]);
      };`;
      const script = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
      const workers = Array.from({ length: count }, () => new Worker(script));
      await Promise.all(workers.map((worker) => new Promise((resolve) => ((worker.onmessage = resolve), worker.postMessage([null])))));
      const root = name ? await (await navigator.storage.getDirectory()).getDirectoryHandle(name) : await (window as unknown as DiskRootWindow).__diskRoot;
      const t0 = performance.now();
      const answers = await Promise.all(
        workers.map((worker, share) => new Promise<[number, number]>((resolve) => ((worker.onmessage = (e) => resolve(e.data)), worker.postMessage([root, share, count])))),
      );
      return { ms: performance.now() - t0, files: answers.reduce((n, [f]) => n + f, 0), sum: answers.reduce((n, [, s]) => n + s, 0), workers: count };
    }, 'opfs' in root ? root.opfs : '');
    if (!(r.sum > 0)) throw new Error('the handle stat floor saw no sizes or times');
    return { seconds: r.ms / 1000, files: r.files, workers: r.workers };
  } finally {
    await page.close();
  }
}

/** The two floors on one line each, for the second scan's report. */
export function printFloors(secondSeconds: number, main: StatFloor, workers: StatFloor, handle: boolean): void {
  const how = handle ? 'walk + getFile(), 16 in flight' : 'File.size and lastModified';
  console.log(`    blank page, every file asked its size and time, the same run (${how}):`);
  console.log(`      on the main thread:    ${main.seconds.toFixed(2)} s (${main.files} files); second scan / that ${(secondSeconds / main.seconds).toFixed(2)}x`);
  const posting = workers.postSeconds === undefined ? '' : `; the page spent ${workers.postSeconds.toFixed(2)} s posting them (${FILES_PER_POST} Files a message)`;
  console.log(`      in ${workers.workers} workers:          ${workers.seconds.toFixed(2)} s (${workers.files} files${posting}); main / workers ${(main.seconds / workers.seconds).toFixed(2)}x`);
}
