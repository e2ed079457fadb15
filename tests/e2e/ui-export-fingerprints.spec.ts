import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect, test } from '@playwright/test';
import { UI_CORPUS, writeUiCorpus } from '../fixtures/ui-corpus.ts';
import { ResultsPage } from './results-page.ts';
import { withoutSavePicker } from './save-picker.ts';

test('Export fingerprints saves one Parquet row per document that DuckDB reads', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-export-fps-'));
  try {
    const files = writeUiCorpus(dir);
    await withoutSavePicker(page);
    const app = new ResultsPage(page);
    await app.open();
    await app.chooseFiles(Object.values(files));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export fingerprints', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^simsift-fingerprints-\d{4}-\d{2}-\d{2}\.parquet$/);
    const path = (await download.path())!;
    const bytes = readFileSync(path);
    // Parquet's magic bytes open and close the file.
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
    expect(bytes.subarray(bytes.length - 4).toString('latin1')).toBe('PAR1');
    await expect(page.getByRole('status').filter({ hasText: 'fingerprint rows' })).toContainText(
      `Downloading ${Object.keys(UI_CORPUS).length} fingerprint rows`,
    );

    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    const read = async (sql: string) => (await connection.runAndReadAll(sql.replaceAll('$FILE', `'${path}'`))).getRowObjectsJson();
    const rows = await read('SELECT path, fingerprint_hex, status FROM read_parquet($FILE) ORDER BY path');
    expect(rows.map((r) => r.path)).toEqual(Object.values(UI_CORPUS).sort());
    expect(rows.every((r) => r.status === 'ok' && /^[0-9a-f]{16}$/.test(String(r.fingerprint_hex)))).toBe(true);
    // The two identical tides files have one fingerprint; the hex and the UINT_64 column agree.
    const tides = rows.filter((r) => r.path === UI_CORPUS.original || r.path === UI_CORPUS.copy);
    expect(tides[0].fingerprint_hex).toBe(tides[1].fingerprint_hex);
    expect(await read(`SELECT count(*)::INT AS n FROM read_parquet($FILE) WHERE fingerprint = ('0x' || fingerprint_hex)::UBIGINT`)).toEqual([{ n: 6 }]);
    const meta = await read("SELECT decode(value) AS v FROM parquet_kv_metadata($FILE) WHERE decode(key) = 'simsift.features'");
    expect(meta).toEqual([{ v: 'word3' }]);
    connection.closeSync();
    db.closeSync();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
