/**
 * `npm run bench -- ingest [--text generated|real] [--files 100000] [--mb 1000] [--source folder|drop|handle|disk] [--seed 1] [--baseline] [--tasks]`
 *
 * Drives the BUILT app (vite build into a temp dir, vite preview) in headless Chromium through a
 * user's way in, and prints time to groups, MB/s and the longest main-thread task during the scan.
 * - `--source folder` (default): a generated corpus on disk (bench/.data/, made once, reused) is
 *   chosen with `setInputFiles` on the `Choose folder` input: the same path as a person choosing it.
 * - `--source drop`: the same kind of corpus is generated in the page as File objects and dropped on
 *   the drop zone (a `drop` event carrying a DataTransfer): the drop path, without disk metadata.
 * - `--source handle`: the same corpus on disk is first copied (untimed) into the origin-private file
 *   system (OPFS) of a browser profile on disk, then dropped on the app with its drop item answering
 *   with that OPFS folder's handle: the app's directory-handle path, where the ingest workers walk and
 *   read the files. Time to groups runs from the drop event to `data-scan-state="done"`.
 * - `--source disk`: the corpus folder on disk itself dropped on the app (tests/e2e/disk-folders.ts:
 *   dragged from outside the page through the DevTools protocol): Chromium gives its directory handle,
 *   what a person's drop gives; nothing copied. The blank-page baselines and floors read the same disk
 *   folder through its handle.
 * Every 10th document is a near-duplicate of the one before (about 1 word in 150 changed) and every
 * 17th an exact copy. Time to groups runs from the input event to `data-scan-state="done"`.
 * - `--text real` (folder only): files of real text instead (real-corpus.ts `buildIngestTextCorpus`:
 *   runs of lines cut from the kernel's documentation and npm packages' docs, about 10 KB each
 *   (`--mb` defaults to files / 100), every tenth file a near copy of the one before).
 * It prints the scan's phase table (the `simsift:*` User Timing measures the scan records, see
 * src/scan/phase-timing.ts) and waits for the saving that goes on behind the results.
 * `--baseline` (default with `--text real`; `--no-baseline` skips it) first times a blank page that only
 * reads every file's bytes from a plain folder input, 16 `arrayBuffer()` reads in flight.
 * `--no-contents` unticks "Keep file contents" first (the saved corpus then keeps no file contents).
 * `--reload` then reloads the page and times the restore of the saved corpus (kept contents included).
 * `--again N` (folder, handle or disk) copies the corpus first (untimed), then after the first scan edits N files of
 * the copy (with handle, the OPFS folder too, cut back afterwards) and chooses it again: first and second time to groups, their ratio, and the export after
 * the second scan compared with `simsift scan` of the same folder (bench/ingest-again.ts).
 * `--profile` samples the page's main thread and its workers (CDP Profiler, 1 ms; worker-profiles.ts)
 * from the input to the groups and prints the functions with the most self time, with their share of
 * each thread's busy samples: where the main thread's and the workers' share of the scan goes.
 * `--trace` records Chromium's trace (TRACE_CATEGORIES) of the blank read and of the app's scan, prints
 * each one's busiest threads and writes both to bench/.data/ingest-trace-*.json, with the marks
 * `bench:scan-start`/`bench:scan-end` around each scan: `npx tsx bench/trace-summary.ts APP BLANK` splits
 * the page's main thread by event, side by side (the trace's extra work makes a traced run's times moot).
 * `--check` exports the app's CSV after the scan and compares it with `simsift scan` of the same folder
 * (exit code 1 when they differ). `--port P` serves the built app on port P (default 4390, or the next
 * free one), so benches of several worktrees never share an origin.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, expect, type BrowserContext, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import { generateCorpus, type CorpusSpec } from '../tests/fixtures/generate-corpus.ts';
import { realCorpusOnDisk } from './real-corpus.ts';
import { benchOptions, numberOption } from './harness.ts';
import { cliCsv, copyCorpus, exportCsv, removeCopy, timeAgain } from './ingest-again.ts';
import { folderStatFloor, handleStatFloorInWorkers, type StatFloor } from './stat-floors.ts';
import { cliFingerprintCost, watchBrowserUsage } from './machine-usage.ts';
import { dropDiskFolder, dropFolderOnApp, type DiskRootWindow, type HandleRoot } from '../tests/e2e/disk-folders.ts';
import { printTop, printWorkerProfiles, profileWorkers, summarizeProfile, type CpuProfile } from './worker-profiles.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A long animation frame as `--tasks` prints it. */
interface LongFrame {
  start: number;
  ms: number;
  blocking: number;
  layout: number;
  scripts: Array<{ what: string; ms: number; forced: number }>;
}

/** `npm run bench -- ingest`'s options. */
const INGEST_OPTIONS = {
  files: { type: 'string' }, mb: { type: 'string' }, source: { type: 'string' }, seed: { type: 'string' }, text: { type: 'string' },
  baseline: { type: 'boolean' }, 'no-baseline': { type: 'boolean' }, profile: { type: 'boolean' }, trace: { type: 'boolean' },
  'no-contents': { type: 'boolean' }, reload: { type: 'boolean' }, tasks: { type: 'boolean' }, again: { type: 'string' },
  usage: { type: 'boolean' }, check: { type: 'boolean' }, port: { type: 'string' },
} as const;

/** The on-disk corpus for `spec`, generated once under bench/.data/. */
function corpusOnDisk(spec: CorpusSpec): { dir: string; files: number; bytes: number } {
  const dir = join(root, 'bench', '.data', `ingest-${spec.files}-${spec.totalBytes}-${spec.seed}`);
  const marker = join(dir, 'corpus.json');
  if (existsSync(marker)) return { dir: join(dir, 'corpus'), ...JSON.parse(readFileSync(marker, 'utf8')) };
  rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const info = generateCorpus(join(dir, 'corpus'), spec);
  writeFileSync(marker, JSON.stringify({ files: info.files, bytes: info.bytes }));
  console.log(`generated ${info.files} files, ${(info.bytes / 1e6).toFixed(0)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s (${dir})`);
  return { dir: join(dir, 'corpus'), files: info.files, bytes: info.bytes };
}

/**
 * `--trace`'s categories: tasks and mojo messages, plus V8 (GC, microtask rounds: v8.execute's
 * RunMicrotasks), Blink (serialization, layout, paint), IndexedDB and IPC events, to split the native
 * time the JS sampler shows as "(program)". bench/trace-summary.ts reads the traces.
 */
const TRACE_CATEGORIES = [
  'toplevel', 'mojom', 'ipc', 'v8', 'v8.execute', 'blink', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'IndexedDB', 'blink.user_timing',
];

/** A blank page with nothing but a folder input, for the read baseline. */
const BLANK_PAGE = '<!doctype html><title>read baseline</title><input type=file webkitdirectory aria-label="Choose folder">';

/**
 * The baseline: a blank page reads every file's bytes from a folder input, 16 reads in flight,
 * timed from the input's change event to the last byte (`arrayBuffer()`, the plain way).
 */
async function readBaseline(newPage: () => Promise<Page>, url: string, dir: string): Promise<{ seconds: number; files: number; bytes: number; deliverSeconds: number; startEpoch: number }> {
  const page = await newPage();
  try {
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.goto(url);
    await page.setContent(BLANK_PAGE);
    await page.evaluate(() => {
      const w = window as unknown as { __read: Promise<{ ms: number; files: number; bytes: number }>; __t0: number };
      const input = document.querySelector('input')!;
      w.__read = new Promise((resolve) => {
        input.addEventListener('change', () => {
          const t0 = performance.now();
          w.__t0 = performance.timeOrigin + t0;
          // The window bench/trace-summary.ts reads (the FileList's delivery before it left out).
          performance.mark('bench:scan-start');
          const files = input.files!;
          let next = 0;
          let bytes = 0;
          const lane = async () => {
            while (next < files.length) {
              const read = await files[next++].arrayBuffer();
              bytes += read.byteLength;
            }
          };
          void Promise.all(Array.from({ length: 16 }, lane)).then(() => {
            performance.mark('bench:scan-end');
            resolve({ ms: performance.now() - t0, files: files.length, bytes });
          });
        });
      });
    });
    const t0 = performance.now();
    await page.getByLabel('Choose folder', { exact: true }).setInputFiles(dir, { timeout: 600_000 });
    const deliverSeconds = (performance.now() - t0) / 1000;
    const r = await page.evaluate(() => (window as unknown as { __read: Promise<{ ms: number; files: number; bytes: number }> }).__read);
    const startEpoch = await page.evaluate(() => (window as unknown as { __t0: number }).__t0);
    return { seconds: r.ms / 1000, files: r.files, bytes: r.bytes, deliverSeconds, startEpoch };
  } finally {
    await page.close();
  }
}

/**
 * Set-up of `--source handle`, untimed: copies the folder `dir` into the origin-private file system of
 * `context` (a folder of the same name under the OPFS root), through a blank page's folder input,
 * 16 files in flight. Returns the folder's name and what was copied.
 */
async function copyIntoOpfs(context: BrowserContext, url: string, dir: string): Promise<{ name: string; files: number; bytes: number; seconds: number }> {
  const page = await context.newPage();
  try {
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.goto(url);
    await page.setContent(BLANK_PAGE);
    const name = basename(dir);
    const done = await page.evaluate(async (name) => {
      // Every run starts without a saved corpus (the profile is kept between runs).
      for (const db of await indexedDB.databases()) {
        await new Promise((resolve) => {
          const request = indexedDB.deleteDatabase(db.name!);
          request.onsuccess = request.onerror = request.onblocked = resolve;
        });
      }
      const root = await navigator.storage.getDirectory();
      try {
        const marker = await (await root.getFileHandle(`${name}.complete`)).getFile();
        return JSON.parse(await marker.text()) as { files: number; bytes: number };
      } catch {
        return null;
      }
    }, name);
    if (done) return { name, ...done, seconds: 0 };
    await page.evaluate(() => {
      const w = window as unknown as { __copy: Promise<{ name: string; files: number; bytes: number; ms: number }> };
      const input = document.querySelector('input')!;
      w.__copy = new Promise((resolve, reject) => {
        input.addEventListener('change', () => {
          const t0 = performance.now();
          const files = input.files!;
          const folders = new Map<string, Promise<FileSystemDirectoryHandle>>();
          const folder = (path: string): Promise<FileSystemDirectoryHandle> => {
            let found = folders.get(path);
            if (!found) {
              const cut = path.lastIndexOf('/');
              found = (cut < 0 ? navigator.storage.getDirectory() : folder(path.slice(0, cut))).then((parent) => parent.getDirectoryHandle(path.slice(cut + 1), { create: true }));
              folders.set(path, found);
            }
            return found;
          };
          const name = files[0].webkitRelativePath.split('/')[0];
          let next = 0;
          let bytes = 0;
          const lane = async () => {
            while (next < files.length) {
              const file = files[next++];
              const path = file.webkitRelativePath;
              const cut = path.lastIndexOf('/');
              const handle = await (await folder(path.slice(0, cut))).getFileHandle(path.slice(cut + 1), { create: true });
              const writable = await handle.createWritable();
              await writable.write(file);
              await writable.close();
              bytes += file.size;
            }
          };
          void navigator.storage
            .getDirectory()
            .then((root) => root.removeEntry(name, { recursive: true }).catch(() => undefined))
            .then(() => Promise.all(Array.from({ length: 16 }, lane)))
            .then(async () => {
              // Marks the copy complete (beside the folder, not in it: the scan would list it).
              const marker = await (await (await navigator.storage.getDirectory()).getFileHandle(`${name}.complete`, { create: true })).createWritable();
              await marker.write(JSON.stringify({ files: files.length, bytes }));
              await marker.close();
            })
            .then(() => resolve({ name, files: files.length, bytes, ms: performance.now() - t0 }), reject);
        });
      });
    });
    await page.getByLabel('Choose folder', { exact: true }).setInputFiles(dir, { timeout: 600_000 });
    const r = await page.evaluate(() => (window as unknown as { __copy: Promise<{ name: string; files: number; bytes: number; ms: number }> }).__copy);
    return { name: r.name, files: r.files, bytes: r.bytes, seconds: r.ms / 1000 };
  } finally {
    await page.close();
  }
}

/**
 * The baseline of `--source handle`: a blank page walks the OPFS folder `name` and reads every file's
 * bytes through its handle (`getFile()`, then `arrayBuffer()`), 16 in flight, nothing else: what reading
 * through a directory handle costs by itself in this browser.
 */
async function readHandleBaseline(newPage: () => Promise<Page>, url: string, root: HandleRoot, mode: 'read' | 'stat' = 'read'): Promise<{ seconds: number; walkSeconds: number; files: number; bytes: number }> {
  const page = await newPage();
  try {
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.goto(url);
    await page.setContent(BLANK_PAGE);
    if ('disk' in root) await dropDiskFolder(page, root.disk);
    const r = await page.evaluate(async ([name, mode]) => {
      const rootHandle = name ? await (await navigator.storage.getDirectory()).getDirectoryHandle(name) : await (window as unknown as DiskRootWindow).__diskRoot;
      const t0 = performance.now();
      const handles: FileSystemFileHandle[] = [];
      const stack = [rootHandle];
      while (stack.length > 0) {
        const dir = stack.pop()!;
        for await (const child of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
          if (child.kind === 'directory') stack.push(child as FileSystemDirectoryHandle);
          else handles.push(child as FileSystemFileHandle);
        }
      }
      const tWalk = performance.now();
      let next = 0;
      let bytes = 0;
      const lane = async () => {
        while (next < handles.length) {
          const file = await handles[next++].getFile();
          // 'stat': what a quick check cannot avoid through a handle, the File (its size and time), nothing read.
          // (Awaited first: `bytes += await ...` would read bytes before the await and lose the other lanes' sums.)
          const read = mode === 'stat' ? file.size + 0 * file.lastModified : (await file.arrayBuffer()).byteLength;
          bytes += read;
        }
      };
      await Promise.all(Array.from({ length: 16 }, lane));
      return { ms: performance.now() - t0, walkMs: tWalk - t0, files: handles.length, bytes };
    }, ['opfs' in root ? root.opfs : '', mode] as const);
    return { seconds: r.ms / 1000, walkSeconds: r.walkMs / 1000, files: r.files, bytes: r.bytes };
  } finally {
    await page.close();
  }
}

/** Runs in the page: makes the corpus as Files (self-contained: it is serialized into the page). */
function makeFilesInPage(spec: CorpusSpec): { files: number; bytes: number } {
  let s = spec.seed | 0;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'de', 'fa', 'gu', 'ha', 'ji', 'po', 'ze', 'an', 'el', 'or', 'un', 'is'];
  const vocab = new Set<string>();
  while (vocab.size < 20000) {
    let w = '';
    const n = 1 + Math.floor(next() * 4);
    for (let i = 0; i < n; i++) w += syllables[Math.floor(next() * syllables.length)];
    vocab.add(w);
  }
  const words = [...vocab];
  const mean = spec.totalBytes / spec.files;
  const files: File[] = [];
  let bytes = 0;
  let previous = '';
  for (let i = 0; i < spec.files; i++) {
    let doc: string;
    if (spec.exactEvery && i > 0 && i % spec.exactEvery === 0) doc = previous;
    else if (spec.nearEvery && i > 0 && i % spec.nearEvery === 0) {
      const parts = previous.split(' ');
      for (let e = Math.max(1, Math.floor(parts.length / 150)); e > 0; e--) parts[Math.floor(next() * parts.length)] = 'xxxx';
      doc = parts.join(' ');
    } else {
      const size = Math.max(64, Math.round(mean * (0.5 + next())));
      const parts: string[] = [];
      let length = 0;
      while (length < size) {
        const w = words[Math.floor(next() * next() * words.length)];
        parts.push(w);
        length += w.length + 1;
      }
      doc = parts.join(' ');
    }
    files.push(new File([doc], `doc${String(i).padStart(6, '0')}.txt`, { type: 'text/plain' }));
    bytes += doc.length;
    previous = doc;
  }
  (window as unknown as { __benchFiles: File[] }).__benchFiles = files;
  return { files: files.length, bytes };
}

/**
 * Prints where the main thread's samples went (idle left out), from the first sample in the app's
 * `collectFromFileList` on (before it, Chromium builds the FileList: the input's delivery, not the
 * scan): the functions with the most self time, then the same time charged to the nearest function of
 * the app's bundle on the stack (native work such as a read, a postMessage or an IndexedDB put
 * counted to the app code that asked for it), then to the outermost app function (the task's entry).
 */
function printProfile(profile: CpuProfile): void {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const start = profile.samples.findIndex((id) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) if (nodes.get(at)!.callFrame.functionName === 'collectFromFileList') return true;
    return false;
  });
  const { total, self, nearest, outermost } = summarizeProfile(profile, start);
  console.log(`  main thread busy (profiled, from the scan's start): ${(total / 1000).toFixed(2)} s`);
  printTop('most self time', self, total, 20);
  printTop('charged to the nearest app function (its native calls included)', nearest, total, 20);
  printTop('charged to the outermost app function (the task it ran in)', outermost, total, 12);
}

/** One event of Chromium's trace (the fields the summary reads). */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event. */
  tdur?: number;
  args?: { name?: string; src_file?: string; src_func?: string; chrome_mojo_event_info?: { mojo_interface_tag?: string; watcher_notify_interface_tag?: string; ipc_hash?: number } } & Record<string, unknown>;
}

/**
 * Prints the page's main thread (CrRendererMain of the renderer with the most work) from Chromium's
 * trace: its busy time by task origin (where the task was posted from, in Chromium's sources) and by
 * the mojo interface whose message it handled, from the first app task to the last event.
 */
function printTrace(buffer: Buffer, label = '', detail = true): void {
  const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const busyOf = (pid: number, tid: number) => events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask').reduce((t, e) => t + (e.dur ?? 0), 0);
  const main = mains.map((m) => ({ pid: m.pid, tid: m.tid, busy: busyOf(m.pid, m.tid) })).sort((a, b) => b.busy - a.busy)[0];
  if (!main) return void console.log('  trace: no renderer main thread found');
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = own.filter((e) => e.name === 'ThreadControllerImpl::RunTask');
  const bySource = new Map<string, { ms: number; n: number }>();
  const byMojo = new Map<string, { ms: number; n: number }>();
  const add = (map: Map<string, { ms: number; n: number }>, key: string, us: number) => {
    const entry = map.get(key) ?? { ms: 0, n: 0 };
    entry.ms += us / 1000;
    entry.n++;
    map.set(key, entry);
  };
  for (const t of tasks) add(bySource, `${t.args?.src_func ?? '?'} (${String(t.args?.src_file ?? '?').replace(/^.*\/src\//, '')})`, t.dur ?? 0);
  for (const e of own) {
    const info = e.args?.chrome_mojo_event_info;
    const tag = info?.mojo_interface_tag ?? info?.watcher_notify_interface_tag;
    if (tag) add(byMojo, `${e.name}: ${tag}`, e.dur ?? 0);
  }
  const total = tasks.reduce((t, e) => t + (e.dur ?? 0), 0) / 1000;
  // Every thread's busy time (top-level tasks), with its process, to see which one is the bottleneck.
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && (e.name === 'thread_name' || e.name === 'process_name')) names.set(e.name === 'thread_name' ? `${e.pid}:${e.tid}` : `${e.pid}`, String(e.args?.name));
  // Busy (wall) and CPU (tdur: time on a core) per thread: on a shared machine a thread may wait for a
  // core most of its busy time, so the CPU seconds are what the work costs.
  const threads = new Map<string, { wall: number; cpu: number }>();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask') continue;
    const t = threads.get(`${e.pid}:${e.tid}`) ?? { wall: 0, cpu: 0 };
    t.wall += e.dur ?? 0;
    t.cpu += e.tdur ?? 0;
    threads.set(`${e.pid}:${e.tid}`, t);
  }
  const cpuTotal = [...threads.values()].reduce((n, t) => n + t.cpu, 0);
  console.log(`  trace${label}: ${(cpuTotal / 1e6).toFixed(2)} CPU seconds in all threads' top-level tasks; busiest threads (wall busy, CPU):`);
  for (const [key, t] of [...threads].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 10)) console.log(`    ${(t.wall / 1e6).toFixed(2).padStart(7)} s ${(t.cpu / 1e6).toFixed(2).padStart(7)} s CPU  ${names.get(key.split(':')[0]) ?? '?'} ${key.split(':')[0]} / ${names.get(key) ?? key}`);
  if (!detail) return;
  console.log(`  trace: the page's main thread ran ${tasks.length} tasks, ${(total / 1000).toFixed(2)} s in all (from the input to the groups, the FileList included); by where a task was posted from:`);
  for (const [key, v] of [...bySource].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20)) console.log(`    ${(v.ms / 1000).toFixed(2).padStart(7)} s ${String(v.n).padStart(8)} tasks  ${key}`);
  console.log('  by the mojo message handled:');
  for (const [key, v] of [...byMojo].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) console.log(`    ${(v.ms / 1000).toFixed(2).padStart(7)} s ${String(v.n).padStart(8)} events  ${key}`);
}

/** #38's table: the app's scan against the machine's limit (reading and fingerprinting perfectly overlapped). */
function printMachineTable(t: {
  files: number;
  bytes: number;
  app: { seconds: number; cpu: number; byKind: Map<string, number>; byThread: Map<string, number>; peaks: Map<string, number> };
  read: { seconds: number; cpu: number; byKind: Map<string, number>; byThread: Map<string, number>; peaks: Map<string, number> };
  fingerprint: { seconds: number; cpu: number };
}): void {
  const cores = availableParallelism();
  const limit = Math.max(t.read.seconds, (t.read.cpu + t.fingerprint.cpu) / cores);
  const gb = (b: number | undefined) => `${((b ?? 0) / 1e9).toFixed(2)} GB`;
  const peaks = (p: Map<string, number>) => [...p].sort((a, b) => b[1] - a[1]).map(([kind, bytes]) => `${kind} ${gb(bytes)}`).join(', ');
  const split = (p: Map<string, number>) => [...p].filter(([, cpu]) => Math.abs(cpu) >= 0.05).sort((a, b) => b[1] - a[1]).map(([kind, cpu]) => `${kind} ${cpu.toFixed(1)}`).join(', ');
  console.log(`  machine (#38; CPU = user + system of every browser process, sampled from /proc every 250 ms; ${cores} cores):`);
  console.log(`    app scan:          ${t.app.seconds.toFixed(2)} s wall, ${t.app.cpu.toFixed(1)} CPU-s (${split(t.app.byKind)}); peak RSS ${peaks(t.app.peaks)}`);
  console.log(`    blank-page read:   ${t.read.seconds.toFixed(2)} s wall, ${t.read.cpu.toFixed(1)} CPU-s (${split(t.read.byKind)}); peak RSS ${peaks(t.read.peaks)}`);
  console.log(`    simsift fingerprint: ${t.fingerprint.seconds.toFixed(2)} s wall, ${t.fingerprint.cpu.toFixed(1)} CPU-s`);
  console.log(`    limit = max(read wall, (read CPU + fingerprint CPU) / cores) = ${limit.toFixed(2)} s; app / limit ${(t.app.seconds / limit).toFixed(2)}x (target <= 1.15x)`);
  // Per thread (process kind and thread name, threads of a name summed): where the app's CPU goes beyond the read's.
  const threads = (p: Map<string, number>) => [...p].filter(([, cpu]) => cpu >= 0.05).sort((a, b) => b[1] - a[1]).slice(0, 10).map(([key, cpu]) => `${key} ${cpu.toFixed(1)}`).join(', ');
  console.log(`    app threads:       ${threads(t.app.byThread)}`);
  console.log(`    read threads:      ${threads(t.read.byThread)}`);
  console.log(`    app CPU / (read CPU + fingerprint CPU) ${(t.app.cpu / (t.read.cpu + t.fingerprint.cpu)).toFixed(2)}x (target <= 1.15x); renderer peak / text ${((t.app.peaks.get('renderer') ?? 0) / t.bytes).toFixed(2)}x (target <= 0.5x)`);
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(
    args,
    INGEST_OPTIONS,
    'usage: npm run bench -- ingest [--files N] [--mb MB] [--source folder|drop|handle|disk] [--seed N] [--text generated|real] [--baseline|--no-baseline] [--profile] [--trace] [--no-contents] [--reload] [--tasks] [--again N] [--usage] [--check] [--port P]',
  );
  if (!o) return;
  const files = numberOption(o.files, 100_000, 'files');
  const mb = numberOption(o.mb, 1000, 'mb');
  const source = o.source ?? 'folder';
  const seed = numberOption(o.seed, 1, 'seed');
  const text = o.text ?? 'generated';
  if (text !== 'generated' && text !== 'real') throw new Error('--text is generated or real');
  if (!['folder', 'drop', 'handle', 'disk'].includes(source)) throw new Error('--source is folder, drop, handle or disk');
  if (text === 'real' && source === 'drop') throw new Error('--text real is read from disk: --source folder, handle or disk');
  // Through a directory handle: the OPFS copy (handle) or the folder on disk itself (disk).
  const handleSource = source === 'handle' || source === 'disk';
  if (o.usage === true && source !== 'folder') throw new Error('--usage compares with the blank page\'s folder-input read: --source folder');
  const again = o.again === undefined ? 0 : numberOption(o.again, 10, 'again');
  if (again > 0 && source === 'drop') throw new Error('--again chooses the folder again: --source folder, handle or disk');
  const fromDisk = source !== 'drop';
  const realMb = numberOption(o.mb, files / 100, 'mb');
  const baseline = o.baseline === true || (text === 'real' && o['no-baseline'] !== true);
  // (With --source handle the baseline reads the OPFS copy through its handles, not a folder input.)
  const spec: CorpusSpec = { files, totalBytes: mb * 1e6, nearEvery: 10, exactEvery: 17, perFolder: 1000, seed };

  const outDir = mkdtempSync(join(tmpdir(), 'simsift-bench-build-'));
  // Profiled builds keep their function names.
  // Unminified for a profile or the long frames' function names.
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: !(o.profile === true || o.tasks === true) } });
  const port = numberOption(o.port ?? process.env.SIMSIFT_BENCH_PORT, 4390, 'port');
  const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port, strictPort: o.port !== undefined || process.env.SIMSIFT_BENCH_PORT !== undefined } });
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
  const launch = {
    executablePath: process.env.SIMSIFT_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  };
  // Through a handle the files live in OPFS: a profile on disk, so they are read from disk as a
  // chosen folder's are (an off-the-record context keeps its OPFS in memory).
  const diskCorpus = () => (text === 'real' ? realCorpusOnDisk(files, Math.round((realMb * 1e6) / files), seed) : corpusOnDisk(spec));
  // The profile (and the OPFS copy in it) is kept under bench/.data/ for the next run of the same corpus.
  const profileDir = source === 'handle' ? join(dirname(diskCorpus().dir), 'opfs-profile') : null;
  // #38's table: the CLI's fingerprinting alone first (its CPU is read when it has exited), then the browser watched.
  const fingerprintCost = o.usage === true ? cliFingerprintCost(root, diskCorpus().dir) : null;
  const usage = o.usage === true ? watchBrowserUsage() : null;
  const browser = profileDir ? null : await chromium.launch(launch);
  const context = profileDir ? await chromium.launchPersistentContext(profileDir, launch) : null;
  const newPage = () => (context ? context.newPage() : browser!.newPage());
  const cleanup: Array<() => void> = [];
  try {
    let opfsFolder = '';
    if (context) {
      // Before the app opens: no saved corpus from an earlier run, and the corpus in OPFS (copied once).
      const copied = await copyIntoOpfs(context, url, diskCorpus().dir);
      opfsFolder = copied.name;
      console.log(
        copied.seconds > 0
          ? `copied ${copied.files} files, ${(copied.bytes / 1e6).toFixed(0)} MB into OPFS folder ${copied.name} in ${copied.seconds.toFixed(1)} s (set-up, untimed; kept in ${profileDir})`
          : `OPFS folder ${copied.name} with ${copied.files} files copied by an earlier run (${profileDir})`,
      );
    }
    const copies: string[] = [];
    cleanup.push(() => copies.forEach(removeCopy));
    const page = await newPage();
    // tsx (esbuild keepNames) wraps named functions in __name(); the functions sent to the page need it.
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.goto(url);
    let corpus: { files: number; bytes: number };
    let corpusDir = '';
    if (fromDisk) {
      const disk = diskCorpus();
      // --again edits files on disk: a copy of the corpus, never bench/.data's (and --check scans the
      // copy's parent with the CLI, which holds nothing else).
      const copy = again > 0 || o.check === true;
      corpusDir = copy ? copyCorpus(disk.dir) : disk.dir;
      if (copy) copies.push(corpusDir);
      corpus = disk;
    } else {
      const t0 = performance.now();
      corpus = await page.evaluate(makeFilesInPage, spec);
      console.log(`made ${corpus.files} files in the page (${(corpus.bytes / 1e6).toFixed(0)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    let base: Awaited<ReturnType<typeof readBaseline>> | null = null;
    let handleBase: Awaited<ReturnType<typeof readHandleBaseline>> | null = null;
    if (baseline && source === 'folder') {
      if (o.trace === true && browser) await browser.startTracing(undefined, { categories: TRACE_CATEGORIES });
      usage?.resetPeaks();
      base = await readBaseline(newPage, url, corpusDir);
      usage?.sampleNow();
      if (o.trace === true && browser) {
        const baseTrace = await browser.stopTracing();
        printTrace(baseTrace, ' of the blank-page read (the FileList included)', false);
        const saved = join(root, 'bench', '.data', `ingest-trace-blank-${Date.now()}.json`);
        writeFileSync(saved, baseTrace);
        console.log(`  the blank read's whole trace: ${saved} (bench/trace-summary.ts summarizes it)`);
      }
    }
    // The handle's root: the OPFS copy, or the corpus folder itself dropped on each page that needs it.
    const handleRoot: HandleRoot = source === 'disk' ? { disk: corpusDir } : { opfs: opfsFolder };
    if (baseline && handleSource) handleBase = await readHandleBaseline(newPage, url, handleRoot);
    if (o['no-contents'] === true) {
      // The box follows the saved setting: it unticks once the setting is written.
      const keep = page.getByRole('checkbox', { name: /Keep file contents/ });
      await keep.click();
      await expect(keep).not.toBeChecked();
    }
    await page.evaluate(() => {
      const w = window as unknown as { __bench: { inputAt: number; handlerMs: number; doneAt: number; tasks: Array<[number, number]>; frames: LongFrame[] } };
      w.__bench = { inputAt: 0, handlerMs: 0, doneAt: 0, tasks: [], frames: [] };
      // Capture runs before the app's (React's root) listener, bubbling on window after it.
      const mark = () => {
        if (!w.__bench.inputAt) performance.mark('bench:scan-start');
        w.__bench.inputAt ||= performance.now();
      };
      const handled = () => (w.__bench.handlerMs ||= performance.now() - w.__bench.inputAt);
      for (const type of ['change', 'drop']) {
        window.addEventListener(type, mark, { capture: true });
        window.addEventListener(type, handled);
      }
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__bench.tasks.push([e.startTime, e.duration]);
      }).observe({ type: 'longtask' });
      // Long animation frames say what a long task ran: its scripts (and the layout they forced) and the frame's own style and layout.
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as PerformanceEntry[] & Array<{ blockingDuration: number; styleAndLayoutStart: number; scripts: Array<{ invoker: string; sourceFunctionName: string; sourceURL: string; duration: number; forcedStyleAndLayoutDuration: number }> }>) {
          if (e.duration < 50) continue;
          const scripts = e.scripts
            .filter((x) => x.duration >= 10)
            .map((x) => ({ what: `${x.invoker} ${x.sourceFunctionName || '?'} ${x.sourceURL.split('/').pop() ?? ''}`.trim(), ms: Math.round(x.duration), forced: Math.round(x.forcedStyleAndLayoutDuration) }));
          const layout = e.styleAndLayoutStart > 0 ? Math.round(e.startTime + e.duration - e.styleAndLayoutStart) : 0;
          w.__bench.frames.push({ start: e.startTime, ms: Math.round(e.duration), blocking: Math.round(e.blockingDuration), layout, scripts });
        }
      }).observe({ type: 'long-animation-frame' });
      const rootEl = document.querySelector('[data-scan-state]')!;
      new MutationObserver(() => {
        if (rootEl.getAttribute('data-scan-state') === 'done' && !w.__bench.doneAt) {
          w.__bench.doneAt = performance.now();
          performance.mark('bench:scan-end');
        }
      }).observe(rootEl, { attributes: true });
    });
    const profiler = o.profile === true ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 1000 });
      await profiler.send('Profiler.start');
    }
    const workerProfiler = profiler ? await profileWorkers(profiler) : null;
    // Chromium's trace of the scan's tasks (toplevel and mojo): which native work fills the page's main thread.
    const tracing = o.trace === true && browser ? browser : null;
    if (tracing) await tracing.startTracing(page, { categories: TRACE_CATEGORIES });
    const basePeaks = usage?.peaks() ?? null;
    usage?.resetPeaks();
    const tDeliver = performance.now();
    // (For drops, delivery includes building the DataTransfer in the page.)
    if (handleSource) {
      // Choose folder is the folder input; a handle comes with a dropped folder: the disk folder dragged
      // from outside the page, or the OPFS folder through a drop whose item answers with its handle.
      await dropFolderOnApp(page, source === 'disk' ? { disk: corpusDir } : { opfs: opfsFolder });
    } else if (source === 'folder') {
      // Handing 100,000 files over takes Playwright longer than its default 30 s action timeout.
      await page.getByLabel('Choose folder', { exact: true }).setInputFiles(corpusDir, { timeout: 600_000 });
    } else {
      // Building the DataTransfer is set-up (its own task); the drop is dispatched in the next one.
      await page.evaluate(() => {
        const w = window as unknown as { __benchFiles: File[]; __benchData: DataTransfer };
        w.__benchData = new DataTransfer();
        for (const f of w.__benchFiles) w.__benchData.items.add(f);
      });
      await page.getByRole('region', { name: 'Drop zone' }).evaluate((zone) => {
        const data = (window as unknown as { __benchData: DataTransfer }).__benchData;
        for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      });
    }
    const deliverMs = performance.now() - tDeliver;
    await page.locator('[data-scan-state="done"], [data-scan-state="error"]').waitFor({ timeout: 600_000 });
    const state = await page.locator('[data-scan-state]').getAttribute('data-scan-state');
    if (state !== 'done') throw new Error(`the scan ended in state ${state}: ${await page.getByRole('alert').textContent()}`);
    const profile = profiler ? ((await profiler.send('Profiler.stop')) as { profile: CpuProfile }).profile : null;
    const workerProfiles = workerProfiler ? await workerProfiler.stop() : [];
    const trace = tracing ? await tracing.stopTracing() : null;
    await page.getByRole('region', { name: 'Results' }).waitFor();
    await page.waitForTimeout(500);
    // Saving goes on behind the results; its measure is recorded when it has settled.
    const savingDeadline = performance.now() + 300_000;
    while (performance.now() < savingDeadline && !(await page.evaluate(() => performance.getEntriesByName('simsift:saving-after-results').length))) await page.waitForTimeout(250);
    const measures = await page.evaluate(() =>
      performance
        .getEntriesByType('measure')
        .filter((e) => e.name.startsWith('simsift:'))
        .map((e) => ({ name: e.name.slice('simsift:'.length), start: e.startTime, ms: e.duration, detail: (e as PerformanceMeasure).detail as Record<string, number> | null })),
    );
    const m = await page.evaluate(() => (window as unknown as { __bench: { inputAt: number; handlerMs: number; doneAt: number; tasks: Array<[number, number]>; frames: LongFrame[] } }).__bench);
    const pageOrigin = await page.evaluate(() => performance.timeOrigin);
    usage?.sampleNow();
    const summary = await page.getByRole('region', { name: 'Results' }).locator('p').first().textContent();
    const phases = await page.getByRole('region', { name: 'Results' }).locator('p.results__timings').textContent();
    const during = m.tasks.filter(([start]) => start >= m.inputAt);
    const before = m.tasks.filter(([start]) => start < m.inputAt);
    const seconds = (m.doneAt - m.inputAt) / 1000;
    const longest = Math.max(0, ...during.map(([, d]) => d));
    console.log(`ingest bench: text=${text}, source=${source}, ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(0)} MB, ${await page.evaluate(() => navigator.hardwareConcurrency)} cores`);
    console.log(`  time to groups:            ${seconds.toFixed(2)} s   (target <= 15 s)`);
    console.log(`  throughput:                ${(corpus.bytes / 1e6 / seconds).toFixed(1)} MB/s, ${Math.round(corpus.files / seconds)} files/s`);
    console.log(`  longest main-thread task:  ${longest.toFixed(0)} ms during the scan (target <= 100 ms); ${during.length} tasks over 50 ms`);
    if (handleSource) {
      console.log(`  dropping the folder:       ${(deliverMs / 1000).toFixed(2)} s in Playwright (the clock starts at the drop event)`);
    } else {
      console.log(`  the app's input handler:   ${m.handlerMs.toFixed(0)} ms (the ${source === 'folder' ? 'change' : 'drop'} event, inside the task that delivers the input)`);
      console.log(`  delivering the input:      ${(deliverMs / 1000).toFixed(2)} s in Playwright; that task ran ${Math.max(0, ...before.map(([, d]) => d)).toFixed(0)} ms (${source === 'folder' ? 'Chromium building the FileList' : 'the test dispatching the drop'})`);
    }
    if (text === 'real') console.log(`  planted: ${Math.floor(files / 10)} near copies (runs cut from the same place overlap as well)`);
    else console.log(`  planted: ${Math.floor((files - 1) / spec.nearEvery)} near-duplicates, ${Math.floor((files - 1) / spec.exactEvery)} exact copies (approximate: the two kinds overlap)`);
    if (base) {
      console.log(`  blank-page read baseline:  ${base.seconds.toFixed(2)} s to read ${base.files} files, ${(base.bytes / 1e6).toFixed(0)} MB (16 arrayBuffer() reads in flight; Playwright needed ${base.deliverSeconds.toFixed(1)} s to set the input); SimSift/baseline ${(seconds / base.seconds).toFixed(2)}x`);
    }
    if (handleBase) {
      console.log(`  blank-page handle read:    ${handleBase.seconds.toFixed(2)} s to walk the ${source === 'disk' ? 'disk' : 'OPFS'} folder (${handleBase.walkSeconds.toFixed(2)} s) and read ${handleBase.files} files, ${(handleBase.bytes / 1e6).toFixed(0)} MB (getFile() + arrayBuffer(), 16 in flight); SimSift/baseline ${(seconds / handleBase.seconds).toFixed(2)}x`);
    }
    if (usage && base && fingerprintCost) {
      printMachineTable({
        files: corpus.files,
        bytes: corpus.bytes,
        app: {
          seconds,
          cpu: usage.cpuBetween(pageOrigin + m.inputAt, pageOrigin + m.doneAt),
          byKind: usage.cpuByKindBetween(pageOrigin + m.inputAt, pageOrigin + m.doneAt),
          byThread: usage.cpuByThreadBetween(pageOrigin + m.inputAt, pageOrigin + m.doneAt),
          peaks: usage.peaks(),
        },
        read: {
          seconds: base.seconds,
          cpu: usage.cpuBetween(base.startEpoch, base.startEpoch + base.seconds * 1000),
          byKind: usage.cpuByKindBetween(base.startEpoch, base.startEpoch + base.seconds * 1000),
          byThread: usage.cpuByThreadBetween(base.startEpoch, base.startEpoch + base.seconds * 1000),
          peaks: basePeaks!,
        },
        fingerprint: fingerprintCost,
      });
    }
    console.log('  phases (wall clock; reading overlaps fingerprinting, saving runs behind):');
    for (const e of measures) {
      const detail = e.detail ? Object.entries(e.detail).map(([key, value]) => `${key} ${value}`).join(', ') : '';
      console.log(`    ${e.name.padEnd(22)} ${(e.ms / 1000).toFixed(2).padStart(7)} s   from ${((e.start - m.inputAt) / 1000).toFixed(2).padStart(6)} s${detail ? `   (${detail})` : ''}`);
    }
    console.log(`  app says: ${summary?.replace(/\s+/g, ' ')}`);
    console.log(`  app timings: ${phases?.replace(/\s+/g, ' ')}`);
    const skipped = page.getByRole('region', { name: /^Skipped/ });
    if (await skipped.count()) {
      const first = await skipped.getByRole('listitem').nth(4).textContent().catch(() => '');
      console.log(`  ${await skipped.getByRole('heading').textContent()}: ${(await skipped.getByRole('list', { name: 'Skipped by reason' }).textContent())?.replace(/\s+/g, ' ')}; e.g. ${first}`);
    }
    if (trace) {
      printTrace(trace);
      const saved = join(root, 'bench', '.data', `ingest-trace-${Date.now()}.json`);
      writeFileSync(saved, trace);
      console.log(`  the whole trace: ${saved}`);
    }
    if (profile) {
      printProfile(profile);
      const saved = join(root, 'bench', '.data', `ingest-profile-${Date.now()}.cpuprofile`);
      writeFileSync(saved, JSON.stringify(profile));
      console.log(`  the whole profile: ${saved} (opens in Chromium's DevTools, Performance panel)`);
      printWorkerProfiles(workerProfiles);
      workerProfiles.forEach((w, i) => writeFileSync(join(root, 'bench', '.data', `ingest-profile-${Date.now()}-worker${i}.cpuprofile`), JSON.stringify(w.profile)));
    }
    if (o.check === true && fromDisk) {
      const [app, cli] = await Promise.all([exportCsv(page), cliCsv(root, corpusDir)]);
      const same = app === cli;
      console.log(`  export ${same ? 'equals' : 'DIFFERS FROM'} simsift scan of the same folder (${app.length} vs ${cli.length} bytes)`);
      if (!same) process.exitCode = 1;
    }
    if (again > 0) {
      // The browser's own floors for a second scan, in the same run: every file asked its size and time,
      // nothing read, on a blank page's main thread and in workers.
      const mainFloor: StatFloor =
        handleSource ? { ...(await readHandleBaseline(newPage, url, handleRoot, 'stat')), workers: 0 } : await folderStatFloor(newPage, url, corpusDir, 'main');
      const workerFloor = handleSource ? await handleStatFloorInWorkers(newPage, url, handleRoot) : await folderStatFloor(newPage, url, corpusDir, 'workers');
      await timeAgain(page, root, corpusDir, again, seconds, handleSource ? handleRoot : null, [mainFloor, workerFloor]);
    }
    if (o.reload === true) {
      // The saved corpus restored (documents, kept contents as Files, saved pairs) after a reload.
      // Long tasks from the new document's start (the observer is installed before the app's scripts).
      await page.addInitScript({
        content: `globalThis.__reloadTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) globalThis.__reloadTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });`,
      });
      const reloadProfiler = o.profile === true ? await page.context().newCDPSession(page) : null;
      if (reloadProfiler) {
        await reloadProfiler.send('Profiler.enable');
        await reloadProfiler.send('Profiler.setSamplingInterval', { interval: 1000 });
        await reloadProfiler.send('Profiler.start');
      }
      const t0 = performance.now();
      await page.reload();
      await page.locator('[data-scan-state="done"]').waitFor({ timeout: 300_000 });
      const seconds = (performance.now() - t0) / 1000;
      const after = await page.getByRole('region', { name: 'Results' }).locator('p').first().textContent();
      console.log(`  reload to groups:          ${seconds.toFixed(2)} s; app says: ${after?.replace(/\s+/g, ' ')}`);
      await page.waitForTimeout(1000);
      const restore = await page.evaluate(() => ({
        measures: performance
          .getEntriesByType('measure')
          .filter((e) => e.name.startsWith('simsift:restore'))
          .map((e) => [e.name.slice('simsift:'.length), Math.round(e.startTime), Math.round(e.duration)]),
        tasks: (globalThis as unknown as { __reloadTasks: Array<[number, number]> }).__reloadTasks.map(([st, d]) => [Math.round(st), Math.round(d)]),
      }));
      console.log(`  reload steps [name, ms from navigation, ms]: ${JSON.stringify(restore.measures)}`);
      console.log(`  reload long tasks [ms from navigation, ms]: ${JSON.stringify(restore.tasks)}`);
      if (reloadProfiler) {
        const { profile: reloadProfile } = (await reloadProfiler.send('Profiler.stop')) as { profile: CpuProfile };
        printProfile(reloadProfile);
        const saved = join(root, 'bench', '.data', `reload-profile-${Date.now()}.cpuprofile`);
        writeFileSync(saved, JSON.stringify(reloadProfile));
        console.log(`  the reload's profile: ${saved}`);
      }
    }
    if (o.tasks === true) {
      console.log(`  long tasks [ms after input, ms]: ${JSON.stringify(during.map(([st, d]) => [Math.round(st - m.inputAt), Math.round(d)]))}`);
      console.log('  long animation frames over 50 ms (ms after input: frame ms, blocking ms, its own style and layout ms; scripts over 10 ms with the layout they forced):');
      for (const f of m.frames.filter((x) => x.start >= m.inputAt)) {
        console.log(`    ${Math.round(f.start - m.inputAt)}: ${f.ms} ms, blocking ${f.blocking}, layout ${f.layout}${f.scripts.map((x) => `; ${x.what} ${x.ms} ms${x.forced ? ` (forced layout ${x.forced})` : ''}`).join('')}`);
      }
    }
  } finally {
    usage?.stop();
    for (const clean of cleanup) clean();
    await (context ?? browser)!.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
