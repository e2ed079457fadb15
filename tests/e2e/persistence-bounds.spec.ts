/**
 * After a reload, new files scanned into the saved corpus are verified against it with the saved
 * documents' feature-set sizes and MinHash sketches: the histogram's caption names the candidates they
 * ruled out without measuring, as it does after a scan; a corpus saved without them (before schema v4)
 * reads those documents instead and finds the same groups. Real prose (the npm packages' documents).
 * A plain reload in between says what the scan said of its candidates, caption and legend alike.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { realTextSources } from '../../bench/real-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';
import { walkSavedRecords } from './saved-records.ts';

/** Writes `text` at `path` under `root`, making its folders. */
function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/**
 * Saved: each document cut to 60% and to 75% of its lines (Jaccard with the whole about that, below the
 * 0.8 threshold); added after the reload: the whole documents. Returns the folders and the file count.
 */
function writeFolders(dir: string): { saved: string; whole: string; count: number } {
  const decoder = new TextDecoder();
  const sources = realTextSources({ kernel: 'if-installed' }).filter((s) => !s.path.startsWith('kernel/'));
  for (const s of sources) {
    const lines = decoder.decode(s.bytes).split('\n');
    put(join(dir, 'saved'), `cut60/${s.path}`, lines.slice(0, Math.ceil(lines.length * 0.6)).join('\n'));
    put(join(dir, 'saved'), `cut75/${s.path}`, lines.slice(0, Math.ceil(lines.length * 0.75)).join('\n'));
    put(join(dir, 'whole'), s.path, lines.join('\n'));
  }
  return { saved: join(dir, 'saved'), whole: join(dir, 'whole'), count: 3 * sources.length };
}

/** Takes the set sizes and sketches out of every saved chunk, as a corpus saved before schema v4 has none. */
async function forgetSavedSets(page: Page): Promise<number> {
  const stripped = await walkSavedRecords(
    page,
    'corpus-chunks',
    (chunk) => {
      const { setSizes: _s, sketches: _k, ...older } = chunk;
      return { put: older, take: 1 };
    },
    null,
    { write: true },
  );
  return stripped.length;
}

/** Scans the saved folder, reloads (with `older`: the saved chunks stripped first), adds the whole documents; the caption and figures then. */
async function reloadThenAdd(page: Page, folders: ReturnType<typeof writeFolders>, older: boolean): Promise<{ caption: string; figures: Record<string, string> }> {
  const app = new PersistencePage(page);
  const histogram = page.getByRole('region', { name: 'Distance histogram' });
  const shot = (name: string) => page.screenshot({ path: test.info().outputPath(`${older ? 'older-' : ''}${name}.png`), fullPage: true });
  await page.goto('/');
  await app.chooseFolder(folders.saved);
  await app.waitForState('done');
  await waitForSaved(page);
  await shot('1-saved-scan');
  // What the histogram says of its candidates (caption and legend) is said again after a plain reload.
  const told = async () => [await histogram.getByRole('status').innerText(), await histogram.getByText(/candidates rejected/).innerText()];
  const scanned = await told();
  console.log(`after the scan: ${scanned.join('; ')}`);
  if (older) expect(await forgetSavedSets(page)).toBeGreaterThan(0);
  await page.reload();
  await app.waitForState('done');
  await shot('2-after-reload');
  expect(await told()).toEqual(scanned);
  await app.chooseFolder(folders.whole);
  await app.waitForState('done');
  await expect(app.savedDocuments).toHaveText(`${folders.count} documents saved in this browser`);
  await shot('3-added-after-reload');
  await histogram.screenshot({ path: test.info().outputPath(`${older ? 'older-' : ''}4-histogram-caption.png`) });
  return { caption: await histogram.getByRole('status').innerText(), figures: await app.figures() };
}

test('new files after a reload are checked against saved documents by their saved set sizes and sketches; a corpus saved without them finds the same', async ({ page, browser }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-bounds-'));
  try {
    const folders = writeFolders(dir);
    const saved = await reloadThenAdd(page, folders, false);
    console.log(`after the reload and the added folder: ${saved.caption}`);
    // The whole documents' candidates with their saved cuts are ruled out unmeasured, and said so.
    expect(saved.caption).toMatch(/: [\d,]+ by their feature-set sizes .*ruled out without measuring/);
    const sizes = (caption: string) => Number(/([\d,]+) by their feature-set sizes/.exec(caption)?.[1]?.replaceAll(',', '') ?? 0);

    // The same in a fresh profile whose saved chunks lost both columns: those documents are read instead.
    const context = await browser.newContext();
    try {
      const older = await reloadThenAdd(await context.newPage(), folders, true);
      console.log(`the same, saved without set sizes and sketches: ${older.caption}`);
      expect(older.figures).toEqual(saved.figures);
      expect(sizes(older.caption)).toBeLessThan(sizes(saved.caption));
    } finally {
      await context.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
