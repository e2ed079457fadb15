import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { exportApi } from '../../../src/workers/export-api.ts';
import { fingerprintStatusOf as exportStatus } from '../../../src/core/export/fingerprints-parquet.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';

describe('the app fingerprint export', () => {
  it('names every document status', () => {
    expect(exportStatus(DocStatus.ok, 0)).toBe('ok');
    expect(exportStatus(DocStatus.tooShort, -1)).toBe('too-short');
    expect(exportStatus(DocStatus.binary, -1)).toBe('binary');
    expect(exportStatus(DocStatus.unreadable, -1)).toBe('unreadable');
    expect(exportStatus(DocStatus.empty, -1)).toBe('empty');
    expect(exportStatus(DocStatus.pending, -1)).toBe('pending');
    expect(exportStatus(DocStatus.tooLarge, -1)).toBe('too-large');
    expect(exportStatus(DocStatus.copy, 3)).toBe('ok');
    expect(exportStatus(DocStatus.notRegular, -1)).toBe('not-regular');
  });

  it('writes every document of a scan, across several row groups, with the settings and k', async () => {
    const n = 5000;
    const docs = {
      count: n,
      paths: Array.from({ length: n }, (_, i) => `folder/${i}.txt`),
      status: Uint8Array.from({ length: n }, (_, i) => (i % 10 === 0 ? DocStatus.tooShort : DocStatus.ok)),
      flags: new Uint8Array(n),
      hi: Uint32Array.from({ length: n }, (_, i) => i * 7919),
      lo: Uint32Array.from({ length: n }, (_, i) => 0xffffffff - i),
      words: new Uint32Array(n).fill(42),
      hashHi: new Uint32Array(n),
      hashLo: Uint32Array.from({ length: n }, (_, i) => i),
    };
    // Built in the export worker (here called directly) as one Blob of chunks, for a download.
    const { blob, bytes } = await exportApi.fingerprintsParquet({ ...docs, representative: new Int32Array(n), settings: DEFAULT_SETTINGS, k: 13 }, null);
    expect(blob!.type).toBe('application/vnd.apache.parquet');
    expect(blob!.size).toBe(bytes);
    const file = join(mkdtempSync(join(tmpdir(), 'simsift-app-export-')), 'fps.parquet');
    writeFileSync(file, new Uint8Array(await blob!.arrayBuffer()));
    const db = await DuckDBInstance.create(':memory:');
    const connection = await db.connect();
    const rows = (
      await connection.runAndReadAll(
        `SELECT count(*)::INT AS n, count(fingerprint)::INT AS f, count(DISTINCT status)::INT AS s, max(word_count)::INT AS w,
         (SELECT count(DISTINCT row_group_id)::INT FROM parquet_metadata('${file}')) AS groups,
         (SELECT fingerprint_hex FROM read_parquet('${file}') WHERE path = 'folder/1.txt') AS hex
         FROM read_parquet('${file}')`,
      )
    ).getRowObjectsJson();
    connection.closeSync();
    db.closeSync();
    expect(rows).toEqual([{ n, f: n - n / 10, s: 2, w: 42, groups: 3, hex: (7919).toString(16).padStart(8, '0') + 'fffffffe' }]);
  });
});
