/**
 * The app and the CLI give the same answer: the app's Export CSV after "Choose folder" in real
 * Chromium and `simsift scan` on the same files are compared byte for byte. The folder holds what
 * made them drift before: HTML pages, two large files (over 32 Mi characters, once fingerprinted
 * only in part by the app) that differ near their end, exact copies (upper case, UTF-16), short
 * texts, a binary and an empty file. The CLI's paths are relative to DIR and the app's start with
 * the chosen folder's name, so the CLI scans the folder's parent, which holds only that folder.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { IngestPage } from './ingest-page.ts';
import { ResultsPage } from './results-page.ts';
import { withoutSavePicker } from './save-picker.ts';

/** Deterministic words from a 5,000-word vocabulary. */
function words(seed: number, count: number): string[] {
  let s = seed >>> 0;
  const out: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = `w${(s >>> 8) % 5000}`;
  }
  return out;
}

function writeCorpus(root: string): void {
  const at = (path: string, content: string | Buffer) => {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, content);
  };
  const page = words(1, 600);
  const html = (body: string[]) =>
    `<!doctype html><html><head><title>Page</title><style>p { margin: 0 }</style><script>var x = "<p>not text</p>";</script></head>` +
    `<body>${body.map((w, i) => (i % 40 === 0 ? `<p class="c${i}">${w}` : w)).join(' ')}</body></html>`;
  at('site/page.html', html(page));
  const edited = [...page];
  edited[300] = 'changed';
  at('site/page-edited.html', html(edited));
  at('site/page.txt', page.join(' '));

  // Three ~29 MB files: one with its last 3% of words replaced, one with one word changed near the end.
  const big = words(2, 5_000_000);
  at('large/a.txt', big.join(' '));
  const late = [...big];
  for (let i = Math.floor(big.length * 0.97); i < big.length; i++) late[i] = `z${i % 977}`;
  at('large/b-late-edits.txt', late.join(' '));
  const one = [...big];
  one[big.length - 1000] = 'changed';
  at('large/c-one-word.txt', one.join(' '));

  const prose = words(3, 400).join(' ');
  at('copies/one.txt', prose);
  at('copies/two.txt', prose);
  at('copies/UPPER.txt', prose.toUpperCase());
  at('copies/utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(prose, 'utf16le')]));
  at('copies/near.txt', prose.replace('w', 'edited w'));

  const note = words(4, 25);
  at('short/note.txt', note.join(' '));
  at('short/note-plus.txt', [...note, 'extra'].join(' '));
  at('short/two.txt', 'two words');
  at('short/two-again.txt', 'two words');
  at('other/binary.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0, 0]));
  at('other/empty.txt', '');
}

function simsiftScan(dir: string, out: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [resolve('bin/simsift.js'), 'scan', dir, '--out', out], { timeout: 180_000 }, (error, _stdout, stderr) =>
      error ? fail(new Error(`simsift scan failed: ${stderr}`)) : done(stderr),
    );
  });
}

test('Export CSV in the app and simsift scan write the same file for the same folder', async ({ page }) => {
  test.setTimeout(240_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-parity-'));
  try {
    const folder = join(parent, 'corpus');
    writeCorpus(folder);
    const cliOut = join(tmpdir(), `simsift-parity-${process.pid}.csv`);
    const cli = simsiftScan(parent, cliOut);

    await withoutSavePicker(page);
    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(folder);
    await app.waitForState('done', 180_000);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV', exact: true }).click()]);
    const appCsv = readFileSync((await download.path())!, 'utf8');

    const stderr = await cli;
    const cliCsv = readFileSync(cliOut, 'utf8');
    rmSync(cliOut, { force: true });
    expect(stderr).toMatch(/17 files/);
    expect(appCsv).toBe(cliCsv);

    // The near-duplicate rows, without their relation and (empty) containment cells.
    const rows = appCsv.split('\r\n').slice(1, -1).map((r) => r.replace(/,near-duplicate,$/, ''));
    const pair = (a: string, b: string) => rows.find((r) => (r.includes(`,corpus/${a},`) && r.includes(`,corpus/${b},`)) || (r.includes(`,corpus/${b},`) && r.includes(`,corpus/${a},`)));
    // Compared whole: edits past the first 32 Mi characters count (a fingerprint of the first part
    // called these two identical, distance 0 and Jaccard 1); one changed word keeps them near, never shown as Jaccard 1.
    expect(pair('large/a.txt', 'large/b-late-edits.txt'), appCsv).toMatch(/,[1-9]\d*,0\.\d{4},0\.9[0-8]\d\d$/);
    expect(pair('large/a.txt', 'large/c-one-word.txt'), appCsv).toMatch(/,0\.99\d\d$/);
    // Markup stripped: the page is near its text file and its edited copy.
    expect(pair('site/page.html', 'site/page.txt')).toMatch(/,0\.99\d\d$/); // the title's word is text too
    expect(pair('site/page.html', 'site/page-edited.html')).toMatch(/,0\.9\d{3}$/);
    // Copies (case and encoding folded) with every pair, and the short notes from the exact join.
    expect(pair('copies/UPPER.txt', 'copies/utf16.txt')).toMatch(/,0,1\.0000,1\.0000$/);
    expect(pair('copies/two.txt', 'copies/near.txt')).toBeDefined();
    expect(pair('short/note.txt', 'short/note-plus.txt')).toBeDefined();
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('the page\'s summary and simsift scan count the groups of the same folder the same way', async ({ page }) => {
  test.setTimeout(120_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-counts-'));
  try {
    // The sample corpus: one group of identical copies only, five with near-duplicates (some of them
    // holding identical copies as well), so "exact groups" counted as sets of copies would differ.
    const folder = join(parent, 'sample');
    cpSync(resolve('public/sample'), folder, { recursive: true });
    const cliOut = join(parent, 'cli.csv');
    const stderr = await simsiftScan(parent, cliOut);
    const app = new ResultsPage(page);
    await app.open();
    await page.getByLabel('Choose folder', { exact: true }).setInputFiles(folder);
    await app.waitForDone();
    const exact = await app.stat('Exact-duplicate groups').textContent();
    const near = await app.stat('Near-duplicate groups').textContent();
    const line = stderr.match(/; (\d+) groups? \(reference\): (\d+) exact-duplicate groups? \(identical copies only\), (\d+) near-duplicate groups? \(with a near-duplicate\), (\d+) sets? of identical texts among them;/);
    expect(line, stderr).not.toBeNull();
    expect(line![2]).toBe(exact);
    expect(line![3]).toBe(near);
    expect(Number(line![1])).toBe(Number(exact) + Number(near));
    expect([exact, near]).toEqual(['1', '5']);
    // The sets of identical texts are counted apart: more than the groups of copies only.
    expect(Number(line![4])).toBeGreaterThan(Number(exact));
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
