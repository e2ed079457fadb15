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
import { basename, dirname, join } from 'node:path';
import type { Page } from '@playwright/test';

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

/** Appends a line to `n` files of `dir`, evenly spread; returns their paths. */
export function editFiles(dir: string, n: number): string[] {
  const files = walk(dir);
  const step = Math.max(1, Math.floor(files.length / Math.max(1, n)));
  const edited: string[] = [];
  for (let i = 0; i < files.length && edited.length < n; i += step) {
    appendFileSync(files[i]!, `\nedited again for the second scan ${edited.length}\n`);
    edited.push(files[i]!);
  }
  return edited;
}

/**
 * Chooses `dir` again in the app (its bench hooks from the first scan still listening) and waits for the
 * groups; returns the seconds from the input to `data-scan-state="done"` and what the corpus panel says.
 */
export async function chooseAgain(page: Page, dir: string): Promise<{ seconds: number; notice: string }> {
  await page.evaluate(() => {
    const w = window as unknown as { __bench: { inputAt: number; handlerMs: number; doneAt: number } };
    w.__bench.inputAt = 0;
    w.__bench.handlerMs = 0;
    w.__bench.doneAt = 0;
  });
  await page.getByLabel('Choose folder', { exact: true }).setInputFiles(dir, { timeout: 600_000 });
  await page.waitForFunction(() => (window as unknown as { __bench: { doneAt: number } }).__bench.doneAt > 0, undefined, { timeout: 600_000 });
  const m = await page.evaluate(() => (window as unknown as { __bench: { inputAt: number; doneAt: number } }).__bench);
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

/** Runs the second scan and prints first/second, their ratio, and whether the export equals a fresh scan's. */
export async function timeAgain(page: Page, root: string, dir: string, n: number, firstSeconds: number): Promise<void> {
  const edited = editFiles(dir, n);
  const again = await chooseAgain(page, dir);
  console.log(`  --again ${n}: ${edited.length} files edited on disk (a line appended), the folder chosen again`);
  console.log(`    first scan to groups:    ${firstSeconds.toFixed(2)} s`);
  console.log(`    second scan to groups:   ${again.seconds.toFixed(2)} s   second/first ${(again.seconds / firstSeconds).toFixed(3)}x (target <= 0.1x)`);
  console.log(`    corpus panel says:       ${again.notice}`);
  const [app, cli] = await Promise.all([exportCsv(page), cliCsv(root, dir)]);
  const same = app === cli;
  console.log(`    export after the second scan ${same ? 'equals' : 'DIFFERS FROM'} simsift scan of the same folder (${app.length} vs ${cli.length} bytes)`);
  if (!same) process.exitCode = 1;
}
