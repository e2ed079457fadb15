/**
 * A large export stays whole and the page answers while it is built: 2,000 identical files make
 * 1,999,000 pairs (about 120 MB of CSV). Exported through the save picker (answered with a file in the
 * origin-private file system, as a person picking a file) the rows are written into the chosen file
 * by the export worker; exported as a download (a browser without the picker) the worker builds the
 * Blob. Either way every row arrives, the page handles a key press while the export runs, and it says
 * "Saved" only for the file it wrote itself.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { IngestPage } from './ingest-page.ts';
import { savePickerAnswersWithOpfs } from './save-picker.ts';

const FILES = 2000;
const PAIRS = (FILES * (FILES - 1)) / 2;

/** Presses Tab while the export runs and checks the page moved the focus before the export ended. */
async function answersWhileExporting(page: Page): Promise<void> {
  const exportGroup = page.getByRole('group', { name: 'Export', exact: true });
  await expect(exportGroup).toHaveAttribute('aria-busy', 'true');
  const before = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.outerHTML ?? '');
  await page.keyboard.press('Tab');
  // Read in one step: the focus has moved, and the export was still running when it did.
  const seen = await page.evaluate((earlier) => ({
    moved: ((document.activeElement as HTMLElement | null)?.outerHTML ?? '') !== earlier,
    busy: document.querySelector('[role=group][aria-label=Export]')?.getAttribute('aria-busy'),
  }), before);
  expect(seen).toEqual({ moved: true, busy: 'true' });
}

test('Export CSV of 1,999,000 pairs writes every row, to a chosen file or as a download, and the page answers meanwhile', async ({ page }) => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'simsift-large-export-'));
  try {
    const folder = join(dir, 'same');
    mkdirSync(folder);
    const text = Array.from({ length: 200 }, (_, i) => `word${i % 97}`).join(' ');
    for (let i = 0; i < FILES; i++) writeFileSync(join(folder, `copy-${String(i).padStart(4, '0')}.txt`), text);

    await savePickerAnswersWithOpfs(page);
    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(folder);
    await app.waitForState('done', 240_000);
    const status = page.getByRole('group', { name: 'Export', exact: true }).getByRole('status');
    const button = page.getByRole('button', { name: 'Export CSV', exact: true });

    // Where the browser offers a save picker: the worker writes the rows into the chosen file.
    await button.click();
    await answersWhileExporting(page);
    await expect(status).toHaveText(/^Saved 1,999,000 pairs as simsift-pairs-\d{4}-\d{2}-\d{2}\.csv\.$/, { timeout: 120_000 });
    const saved = await page.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      for await (const [name, handle] of (root as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }).entries()) {
        if (!name.endsWith('.csv')) continue;
        const file = await handle.getFile();
        // Counted in the page: the file is not carried over to the test.
        let lines = 0;
        const reader = file.stream().getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
        }
        const head = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.slice(0, 200).arrayBuffer());
        const tail = await file.slice(file.size - 2).text();
        return { name, lines, head, tail };
      }
      return null;
    });
    expect(saved).not.toBeNull();
    expect(saved!.lines).toBe(PAIRS + 1);
    expect(saved!.head).toMatch(/^\uFEFFgroup,path_a,path_b,distance,similarity_estimate,jaccard,relation,containment\r\n1,same\/copy-\d{4}\.txt,/);
    expect(saved!.tail).toBe('\r\n');

    // A browser without the picker: the worker builds a Blob; the download arrives whole.
    await page.evaluate(() => {
      delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    });
    const downloaded = page.waitForEvent('download', { timeout: 120_000 });
    await button.click();
    await answersWhileExporting(page);
    const download = await downloaded;
    expect(await download.failure()).toBeNull();
    await expect(status).toHaveText(/^Downloading 1,999,000 pairs as simsift-pairs-.*; your browser shows when the download is complete\.$/);
    await expect(status).not.toContainText('Saved');
    const bytes = readFileSync((await download.path())!);
    let lines = 0;
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
    expect(lines).toBe(PAIRS + 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
