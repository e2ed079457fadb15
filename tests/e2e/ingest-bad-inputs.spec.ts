import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { IngestPage } from './ingest-page.ts';
import { waitForSaved } from './persistence-page.ts';

const PROSE = (seed: string) =>
  Array.from({ length: 150 }, (_, i) => `${seed}${i % 17} river stone${i % 11} lantern${(i * 7) % 23}`).join(' ');

/** Writes a folder of awkward inputs; returns what each one should become. */
function writeBadInputs(root: string) {
  const put = (path: string, content: string | Uint8Array) => {
    const full = join(root, path);
    mkdirSync(full.slice(0, full.lastIndexOf('/')), { recursive: true });
    writeFileSync(full, content);
  };
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(PROSE('utf'), 'utf16le')]);
  const latin1 = Buffer.from(`${PROSE('latin')} café naïve façade`, 'latin1');
  const invalidUtf8 = Buffer.concat([Buffer.from(PROSE('broken')), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xff])]);
  // UTF-8 (umlauts, accents) with three damaged bytes: read as UTF-8 with U+FFFD, and said so.
  const accented = PROSE('grüße café');
  const mostlyUtf8 = Buffer.concat([Buffer.from(accented.slice(0, 500)), Buffer.from([0x80]), Buffer.from(accented.slice(500, 1000)), Buffer.from([0xff, 0xfe]), Buffer.from(accented.slice(1000))]);
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const deep = Array.from({ length: 60 }, (_, i) => `level${i}`).join('/');
  // Over 16 MB: a worker reads it in chunks with a streaming decoder.
  const huge = Array.from({ length: 9000 }, (_, i) => `${PROSE('huge')} paragraph ${i}\n`).join('');

  put('bad/empty.txt', '');
  put('bad/one-word.txt', 'hello');
  put('bad/photo.txt', png);
  put('bad/utf16.txt', utf16);
  put('bad/latin1.txt', latin1);
  put('bad/invalid-utf8.txt', invalidUtf8);
  put('bad/mostly-utf8.txt', mostlyUtf8);
  put(`bad/${deep}/deep.txt`, PROSE('deep'));
  put('bad/x/readme.txt', PROSE('readme x'));
  put('bad/y/readme.txt', PROSE('readme y'));
  put('bad/quote"s \'n\' <img src=x onerror=alert(1)> & co.txt', png);
  put('bad/emoji 🎉 party.txt', 'two words');
  put('bad/\u202Etxt.exe', PROSE('rtl'));
  put('bad/שלום עולם.md', PROSE('hebrew'));
  put('bad/huge.txt', huge);
  put('bad/.git/config', '[core]');
  put('bad/.env', 'SECRET=1');
  put('bad/node_modules/pkg/index.js', 'module.exports = 1');
  return { ok: 10, hugeBytes: Buffer.byteLength(huge) };
}

test('a folder of bad inputs: each skipped file listed with a clear reason, hostile names shown as text, the rest scanned', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-bad-'));
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  try {
    const expected = writeBadInputs(dir);
    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(join(dir, 'bad'));
    await app.waitForState('done');

    await expect(app.results).toContainText(`${expected.ok} documents compared`);
    const skipped = app.skipped;
    await expect(skipped.getByRole('heading', { name: 'Skipped (8)' })).toBeVisible();
    const counts = skipped.getByRole('list', { name: 'Skipped by reason' });
    await expect(counts).toContainText('Binary: 2');
    await expect(counts).toContainText('Too short: 2');
    await expect(counts).toContainText('0 bytes: 1');
    await expect(counts).toContainText('Hidden: 3');
    const row = (path: string) => skipped.getByRole('listitem').filter({ has: page.getByText(path, { exact: true }) });
    await expect(row('bad/empty.txt')).toContainText('0 bytes: an empty file, or a pipe or device');
    await expect(row('bad/one-word.txt')).toContainText('Too short: 1 word is too few');
    await expect(row('bad/photo.txt')).toContainText('Not text: the file looks binary (NUL byte at offset');
    await expect(row('bad/emoji 🎉 party.txt')).toContainText('Too short: 2 words');
    // Hostile names are text: the markup in the name is not an element, nothing ran.
    await expect(row('bad/quote"s \'n\' <img src=x onerror=alert(1)> & co.txt')).toContainText('Not text');
    await expect(page.locator('img')).toHaveCount(0);
    await expect(row('bad/.git/')).toContainText('Hidden folder');
    await expect(row('bad/node_modules/')).toContainText('Hidden folder');
    await expect(row('bad/.env')).toContainText('Hidden file');
    expect(dialogs).toEqual([]);
    // The two readme.txt files are different documents; none of the text files were skipped.
    for (const path of ['bad/x/readme.txt', 'bad/y/readme.txt', 'bad/utf16.txt', 'bad/latin1.txt', 'bad/invalid-utf8.txt', 'bad/mostly-utf8.txt', 'bad/\u202Etxt.exe', 'bad/שלום עולם.md', 'bad/huge.txt']) {
      await expect(skipped.getByText(path, { exact: true })).toHaveCount(0);
    }
    // 15 files read and 3 hidden ones listed: 18 scanned = 10 compared + 8 skipped, the same figures everywhere.
    await expect(app.progressStatus).toContainText(/Scanned 18 files in \d+ s \(15 read, [\d.]+ MB; 3 hidden or unreadable, not read\)\./);
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText('18 files scanned = 10 compared + 8 skipped.');
    // The damaged UTF-8 file was compared, and the notes say what was done to it.
    const notes = page.getByRole('region', { name: 'Notes (1)' });
    await expect(notes.getByRole('listitem').filter({ hasText: 'bad/mostly-utf8.txt' })).toContainText(
      '3 invalid UTF-8 bytes replaced with � (U+FFFD); the rest was read as UTF-8.',
    );
    // The note is saved with the corpus: after a reload it is still there (without the byte count).
    await waitForSaved(page);
    await page.reload();
    await app.waitForState('done');
    await expect(page.getByRole('region', { name: 'Notes (1)' }).getByRole('listitem').filter({ hasText: 'bad/mostly-utf8.txt' })).toContainText(
      'Invalid UTF-8 bytes replaced with � (U+FFFD)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
