/**
 * A folder of real documents (tests/fixtures/documents: pandoc, groff + Ghostscript and qpdf
 * renderings of two texts, a PDF Debian ships, scanned, encrypted and cut-short copies) plus a zip
 * bomb made here: the app reads the PDF, DOCX, ODT, EPUB and RTF files in its workers, lists the
 * unreadable ones in the Skipped panel with their reasons, writes the same Export CSV as `simsift
 * scan`, and its pair view shows an extracted text with the format named.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { expect, test } from '@playwright/test';
import { dropSavePicker } from './save-picker.ts';
import { ResultsPage } from './results-page.ts';

function simsiftScan(dir: string, out: string): Promise<string> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [resolve('bin/simsift.js'), 'scan', dir, '--out', out], { timeout: 240_000 }, (error, _stdout, stderr) =>
      error ? fail(new Error(`simsift scan failed: ${stderr}`)) : done(stderr),
    );
  });
}

test('a folder of documents: renderings of one text are grouped with it, unreadable documents are skipped with reasons, and the CSV is the CLI\'s', async ({ page }) => {
  test.setTimeout(300_000);
  const parent = mkdtempSync(join(tmpdir(), 'simsift-documents-'));
  try {
    const folder = join(parent, 'documents');
    cpSync(resolve('tests/fixtures/documents'), folder, { recursive: true, filter: (src) => !src.endsWith('.sh') });
    // A Word document whose text part inflates to 130 MB of spaces (from 130 KB): over the 128 MB limit.
    mkdirSync(join(folder, 'broken'), { recursive: true });
    const body = new Uint8Array(130 * 1024 * 1024).fill(0x20);
    writeFileSync(join(folder, 'broken/bomb.docx'), zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': body }, { level: 9 }));
    const cliOut = join(parent, 'cli.csv');
    const cli = simsiftScan(parent, cliOut);

    const app = new ResultsPage(page);
    await app.open();
    await page.getByLabel('Choose folder', { exact: true }).setInputFiles(folder);
    await app.waitForDone();
    const skipped = page.getByRole('region', { name: /^Skipped/ });
    const counts = skipped.getByRole('list', { name: 'Skipped by reason' });
    await expect(counts).toContainText('Damaged: 2');
    await expect(counts).toContainText('Encrypted: 1');
    await expect(counts).toContainText('No text: 1');
    await expect(counts).toContainText('Safety limit: 1');
    const row = (path: string) => skipped.getByRole('listitem').filter({ has: page.getByText(path, { exact: true }) });
    await expect(row('documents/broken/cc0-scanned.pdf')).toContainText('no text layer');
    await expect(row('documents/broken/bomb.docx')).toContainText('zip bomb');

    await dropSavePicker(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV', exact: true }).click()]);
    const appCsv = readFileSync((await download.path())!, 'utf8');
    const stderr = await cli;
    expect(appCsv).toBe(readFileSync(cliOut, 'utf8'));
    expect(stderr).toMatch(/1 encrypted, 2 damaged, 1 without text, 1 stopped at a safety limit/);
    // Every rendering pairs with its plain text; the texts never pair with each other.
    const rows = appCsv.split('\r\n').slice(1, -1);
    for (const base of ['cc0', 'apache']) {
      for (const format of ['docx', 'odt', 'epub', 'rtf', 'pdf']) {
        expect(rows.some((r) => r.includes(`documents/${base}.${format}`) && r.includes(`documents/${base}.txt`)), `${base}.${format}`).toBe(true);
      }
    }
    expect(rows.some((r) => r.includes('cc0.') && r.includes('apache.'))).toBe(false);

    // The pair view shows the PDF's extracted text, the format named.
    await app.option('documents/cc0.pdf').click();
    const pane = app.pairView.getByRole('region', { name: 'Text of documents/cc0.pdf' });
    await expect(pane).toContainText('Statement of Purpose');
    await expect(app.pairView).toContainText('PDF (text extracted)');
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
