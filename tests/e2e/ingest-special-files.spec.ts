/**
 * A FIFO and a device in a chosen folder: the browser lists them as 0-byte files and never reads them
 * (so the scan cannot hang on them); the Skipped panel does not call them empty files, since the page
 * cannot tell them from one.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { IngestPage } from './ingest-page.ts';

test('a FIFO and a device in a chosen folder are skipped as 0 bytes, never as "Empty file", and the scan ends', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-special-'));
  try {
    const folder = join(dir, 'special');
    mkdirSync(folder);
    const text = Array.from({ length: 300 }, (_, i) => `w${(i * 7919) % 1000}`).join(' ');
    writeFileSync(join(folder, 'a.txt'), text);
    writeFileSync(join(folder, 'b.txt'), text);
    execFileSync('mkfifo', [join(folder, 'fifo')]);
    execFileSync('mknod', [join(folder, 'null-device'), 'c', '1', '3']);

    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(folder);
    await app.waitForState('done');
    const row = (path: string) => app.skipped.getByRole('listitem').filter({ hasText: path });
    for (const path of ['special/fifo', 'special/null-device']) {
      await expect(row(path)).toContainText('0 bytes: an empty file, or a pipe or device');
      await expect(row(path)).not.toContainText('Empty file');
    }
    await expect(app.skipped.getByRole('list', { name: 'Skipped by reason' })).toContainText('0 bytes: 2');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
