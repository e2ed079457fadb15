import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { UI_CORPUS, writeUiCorpus } from '../fixtures/ui-corpus.ts';
import { ResultsPage } from './results-page.ts';
import { withoutSavePicker } from './save-picker.ts';

async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const bytes = readFileSync((await file.path())!);
  // A UTF-8 BOM first, so spreadsheets read non-ASCII names as UTF-8.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}

test('Export CSV saves every duplicate pair, with formula-looking names escaped', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-export-'));
  try {
    const files = writeUiCorpus(dir);
    // A browser without a save picker: the exports are downloads.
    await withoutSavePicker(page);
    const app = new ResultsPage(page);
    await app.open();
    await app.chooseFiles(Object.values(files));

    const csv = await download(page, 'Export CSV');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('group,path_a,path_b,distance,similarity_estimate,jaccard,relation,containment');
    expect(lines.at(-1)).toBe('');
    // The name starting with = is quoted (it holds quotes and commas) and starts with an apostrophe.
    const escaped = `"'${UI_CORPUS.formula.replace(/"/g, '""')}"`;
    const row = lines.find((l) => l.includes(escaped));
    expect(row, csv).toBeDefined();
    expect(row).toMatch(/^\d+,/);
    expect(row).toMatch(/(tides\.txt|tides copy\.txt)/);
    expect(row).toMatch(/,\d+,0\.\d+,(0\.\d+|1|),near-duplicate,$/);
    // No cell anywhere starts with a formula character.
    for (const line of lines.slice(1)) expect(line).not.toMatch(/(^|,)[=+\-@]/);
    // Every pair of the relation: the two identical tides, the edited tides with each of them, and the
    // edited lighthouse with its original.
    expect(lines.filter((l) => l !== '').length - 1).toBe(4);
    expect(lines.filter((l) => l.includes(escaped))).toHaveLength(2);

    const groups = await download(page, 'Export groups CSV');
    const groupLines = groups.split('\r\n');
    expect(groupLines[0]).toBe('group,path,role,distance_to_reference');
    expect(groupLines.find((l) => l.includes(escaped))).toMatch(/,near-duplicate,\d+$/);
    expect(groupLines.some((l) => /,exact-duplicate,0$/.test(l))).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
