/**
 * `npm run bench -- ingest --again N`: the second scan of a folder (#34). The corpus is copied (set-up,
 * untimed) so the edits never touch bench/.data; after the first scan, N files of the copy are edited on
 * disk (a line appended) and the same folder is chosen again; the time to groups of the second scan is
 * compared with the first's, and the app's Export CSV after it with `simsift scan` of the same folder
 * (the CLI with no cache: a fresh scan), byte for byte.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Page } from '@playwright/test';
import { printFloors, type StatFloor } from './stat-floors.ts';
import { dropFolderOnApp, type HandleRoot } from '../tests/e2e/disk-folders.ts';

/** Copies the folder `dir` to a fresh temporary parent (same folder name): the parent holds only it. */
export function copyCorpus(dir: string): string {
  const parent = mkdtempSync(join(tmpdir(), 'simsift-again-'));
  const copy = join(parent, basename(dir));
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Removes a copy made by `copyCorpus` (its parent too). */
export function removeCopy(copy: string): void {
  rmSync(dirname(copy), { recursive: true, force: true });
}

/** Every file under `dir`, sorted. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** One file edited for the second scan: its path under the folder's parent (as the app names it) and the line appended. */
export interface Edit {
  path: string;
  line: string;
}

/** Appends a line to `n` files of `dir`, evenly spread; returns what was done to which file. */
export function editFiles(dir: string, n: number): Edit[] {
  const files = walk(dir);
  const step = Math.max(1, Math.floor(files.length / Math.max(1, n)));
  const edited: Edit[] = [];
  for (let i = 0; i < files.length && edited.length < n; i += step) {
    const line = `\nedited again for the second scan ${edited.length}\n`;
    appendFileSync(files[i]!, line);
    edited.push({ path: relative(dirname(dir), files[i]!).split(sep).join('/'), line });
  }
  return edited;
}

/**
 * The same edits made to the OPFS copy of the folder (`--source handle`): each line appended through a
 * writable, as an editor saving the file would. Returns each file's size before, to put the copy back.
 */
async function editInOpfs(page: Page, edits: Edit[]): Promise<Array<[string, number]>> {
  return page.evaluate(async (edits) => {
    const sizes: Array<[string, number]> = [];
    for (const { path, line } of edits) {
      const parts = path.split('/');
      let folder = await navigator.storage.getDirectory();
      for (const part of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(part);
      const handle = await folder.getFileHandle(parts.at(-1)!);
      const size = (await handle.getFile()).size;
      const writable = await handle.createWritable({ keepExistingData: true });
      await writable.write({ type: 'write', position: size, data: line });
      await writable.close();
      sizes.push([path, size]);
    }
    return sizes;
  }, edits);
}

/** Cuts the OPFS files edited by `editInOpfs` back to their sizes: the copy is kept for the next run. */
async function restoreOpfs(page: Page, sizes: Array<[string, number]>): Promise<void> {
  await page.evaluate(async (sizes) => {
    for (const [path, size] of sizes) {
      const parts = path.split('/');
      let folder = await navigator.storage.getDirectory();
      for (const part of parts.slice(0, -1)) folder = await folder.getDirectoryHandle(part);
      const writable = await (await folder.getFileHandle(parts.at(-1)!)).createWritable({ keepExistingData: true });
      await writable.truncate(size);
      await writable.close();
    }
  }, sizes);
}

/**
 * Chooses `dir` again in the app (its bench hooks from the first scan still listening; with `handle`,
 * the same folder is dropped again) and waits for the
 * groups; returns the seconds from the input to `data-scan-state="done"` and what the corpus panel says.
 */
export async function chooseAgain(page: Page, dir: string, handle: HandleRoot | null): Promise<{ seconds: number; notice: string }> {
  await page.evaluate(() => {
    const w = window as unknown as { __bench: { inputAt: number; handlerMs: number; doneAt: number } };
    w.__bench.inputAt = 0;
    w.__bench.handlerMs = 0;
    w.__bench.doneAt = 0;
  });
  if (handle) await dropFolderOnApp(page, handle);
  else await page.getByLabel('Choose folder', { exact: true }).setInputFiles(dir, { timeout: 600_000 });
  await page.waitForFunction(() => (window as unknown as { __bench: { doneAt: number } }).__bench.doneAt > 0, undefined, { timeout: 600_000 });
  const m = await page.evaluate(() => (window as unknown as { __bench: { inputAt: number; doneAt: number } }).__bench);
  // Where the second scan's time went: every phase measure since the input (User Timing, phase-timing.ts).
  const phases = await page.evaluate((from) => performance.getEntriesByType('measure').filter((e) => e.name.startsWith('simsift:') && e.startTime >= from).map((e) => `${e.name.slice(8)} ${Math.round(e.startTime - from)}+${Math.round(e.duration)}`), m.inputAt);
  console.log(`    second scan's phases (ms from the input, start+duration): ${phases.join(', ')}`);
  const notice = (await page.getByRole('region', { name: 'Saved corpus' }).getByRole('status').first().textContent().catch(() => '')) ?? '';
  return { seconds: (m.doneAt - m.inputAt) / 1000, notice: notice.replace(/\s*Dismiss$/, '') };
}

/** The app's Export CSV (as a download: the page's save picker is taken away first). */
export async function exportCsv(page: Page): Promise<string> {
  await page.evaluate(() => delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV', exact: true }).click()]);
  return readFileSync((await download.path())!, 'utf8');
}

/** `simsift scan` of the folder `dir` (its parent scanned, so the paths start with the folder's name, as the app's). */
export function cliCsv(root: string, dir: string): Promise<string> {
  const out = join(dirname(dir), '..', `${basename(dirname(dir))}.csv`);
  return new Promise((done, fail) => {
    execFile(process.execPath, [join(root, 'bin', 'simsift.js'), 'scan', dirname(dir), '--out', out], { timeout: 3_600_000, maxBuffer: 1 << 26 }, (error, _stdout, stderr) => {
      if (error) return fail(new Error(`simsift scan failed: ${stderr}`));
      const csv = readFileSync(out, 'utf8');
      rmSync(out, { force: true });
      done(csv);
    });
  });
}

/**
 * Runs the second scan and prints first/second, their ratio, and whether the export equals a fresh
 * scan's. `dir` is the disk copy (edited, and scanned by the CLI); through `opfs` the OPFS copy the app
 * reads gets the same edits, undone afterwards; through `disk` the app reads `dir` itself by its handle.
 */
export async function timeAgain(page: Page, root: string, dir: string, n: number, firstSeconds: number, handle: HandleRoot | null, floors: [StatFloor, StatFloor]): Promise<void> {
  const edited = editFiles(dir, n);
  const opfs = handle !== null && 'opfs' in handle;
  const before = opfs ? await editInOpfs(page, edited) : [];
  let again: Awaited<ReturnType<typeof chooseAgain>>;
  try {
    // Through a handle (OPFS or disk) the same folder is dropped again.
    again = await chooseAgain(page, dir, handle);
  } finally {
    // Cut back only after the scan read them; a failed run leaves the OPFS copy as it was found.
    if (opfs) await restoreOpfs(page, before);
  }
  console.log(`  --again ${n}: ${edited.length} files edited ${opfs ? 'in the OPFS folder (and its disk copy)' : 'on disk'} (a line appended), the folder ${handle ? 'dropped' : 'chosen'} again`);
  console.log(`    first scan to groups:    ${firstSeconds.toFixed(2)} s`);
  console.log(`    second scan to groups:   ${again.seconds.toFixed(2)} s   second/first ${(again.seconds / firstSeconds).toFixed(3)}x (target <= 0.1x)`);
  printFloors(again.seconds, floors[0], floors[1], handle !== null);
  console.log(`    corpus panel says:       ${again.notice}`);
  const [app, cli] = await Promise.all([exportCsv(page), cliCsv(root, dir)]);
  const same = app === cli;
  console.log(`    export after the second scan ${same ? 'equals' : 'DIFFERS FROM'} simsift scan of the same folder (${app.length} vs ${cli.length} bytes)`);
  if (!same) process.exitCode = 1;
}
