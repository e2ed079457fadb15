import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import {
  createFingerprintParquetWriter,
  fingerprintsParquet,
  concatBytes,
  type FingerprintRows,
} from '../../../../src/core/export/fingerprints-parquet.ts';
import { DEFAULT_SETTINGS } from '../../../../src/core/simhash/settings.ts';
import { SIMSIFT_VERSION } from '../../../../src/core/version.ts';

const dir = mkdtempSync(join(tmpdir(), 'simsift-parquet-'));

async function query(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(sql.replaceAll('$FILE', `'${file}'`));
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

const rows: FingerprintRows = {
  paths: ['a.txt', 'dir/b, "quoted".txt', 'short.txt', 'image.png', 'ünïcode/ß.md'],
  status: ['ok', 'ok', 'too-short', 'binary', 'ok'],
  hi: Uint32Array.from([0x00000000, 0xffffffff, 0, 0, 0x80000000]),
  lo: Uint32Array.from([0x00000001, 0xffffffff, 0, 0, 0x00000000]),
  hashHi: Uint32Array.from([1, 2, 3, 4, 5]),
  hashLo: Uint32Array.from([0xdeadbeef, 0, 7, 8, 9]),
  words: Uint32Array.from([120, 80, 2, 0, 64]),
};

describe('fingerprint export as Parquet', () => {
  it('is read back by DuckDB with the documented schema, values and metadata', async () => {
    const file = join(dir, 'fps.parquet');
    const bytes = fingerprintsParquet(rows, { settings: DEFAULT_SETTINGS, k: 13, version: SIMSIFT_VERSION });
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('PAR1');
    expect(new TextDecoder().decode(bytes.subarray(bytes.length - 4))).toBe('PAR1');
    writeFileSync(file, bytes);

    const schema = await query(file, 'SELECT column_name, column_type, "null" FROM (DESCRIBE SELECT * FROM $FILE)');
    expect(schema.map((c) => [c.column_name, c.column_type])).toEqual([
      ['path', 'VARCHAR'],
      ['fingerprint', 'UBIGINT'],
      ['fingerprint_hex', 'VARCHAR'],
      ['content_hash', 'UBIGINT'],
      ['word_count', 'UINTEGER'],
      ['status', 'VARCHAR'],
      ['format', 'VARCHAR'],
    ]);

    const back = await query(
      file,
      'SELECT path, fingerprint::VARCHAR AS fp, fingerprint_hex, content_hash::VARCHAR AS ch, word_count, status FROM $FILE',
    );
    expect(back).toEqual([
      { path: 'a.txt', fp: '1', fingerprint_hex: '0000000000000001', ch: String((1n << 32n) | 0xdeadbeefn), word_count: 120, status: 'ok' },
      { path: 'dir/b, "quoted".txt', fp: '18446744073709551615', fingerprint_hex: 'ffffffffffffffff', ch: String(2n << 32n), word_count: 80, status: 'ok' },
      { path: 'short.txt', fp: null, fingerprint_hex: null, ch: String((3n << 32n) | 7n), word_count: 2, status: 'too-short' },
      { path: 'image.png', fp: null, fingerprint_hex: null, ch: null, word_count: 0, status: 'binary' },
      { path: 'ünïcode/ß.md', fp: '9223372036854775808', fingerprint_hex: '8000000000000000', ch: String((5n << 32n) | 9n), word_count: 64, status: 'ok' },
    ]);
    // The hex column and the integer column say the same thing.
    const same = await query(file, `SELECT count(*)::INT AS n FROM $FILE WHERE fingerprint = ('0x' || fingerprint_hex)::UBIGINT`);
    expect(same).toEqual([{ n: 3 }]);

    const meta = await query(file, 'SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata($FILE) ORDER BY key');
    expect(Object.fromEntries(meta.map((m) => [m.key, m.value]))).toMatchObject({
      'simsift.version': SIMSIFT_VERSION,
      'simsift.features': 'word3',
      'simsift.weights': 'binary',
      'simsift.stop_words': 'false',
      'simsift.k': '13',
    });
    const types = await query(file, "SELECT name, converted_type FROM parquet_schema($FILE) WHERE name IN ('fingerprint', 'content_hash')");
    expect(types.map((t) => t.converted_type)).toEqual(['UINT_64', 'UINT_64']);
  });

  it('streams row groups: batches written one by one make the same rows as one batch', async () => {
    const chunks: Uint8Array[] = [];
    const writer = createFingerprintParquetWriter({ settings: { ...DEFAULT_SETTINGS, stopWords: true }, version: 'test' }, (c) => chunks.push(c));
    const slice = (from: number, to: number): FingerprintRows => ({
      paths: rows.paths.slice(from, to),
      status: rows.status.slice(from, to),
      hi: rows.hi.subarray(from, to),
      lo: rows.lo.subarray(from, to),
      hashHi: rows.hashHi.subarray(from, to),
      hashLo: rows.hashLo.subarray(from, to),
      words: rows.words.subarray(from, to),
    });
    writer.write(slice(0, 2));
    const afterFirst = chunks.length;
    writer.write(slice(2, 2));
    writer.write(slice(2, 5));
    writer.finish();
    expect(afterFirst).toBeGreaterThan(0);
    expect(writer.rows).toBe(5);
    const file = join(dir, 'batches.parquet');
    writeFileSync(file, concatBytes(chunks));
    const groups = await query(file, 'SELECT count(DISTINCT row_group_id)::INT AS g FROM parquet_metadata($FILE)');
    expect(groups).toEqual([{ g: 2 }]);
    const back = await query(file, 'SELECT path, fingerprint_hex FROM $FILE');
    expect(back.map((r) => r.path)).toEqual(rows.paths);
    const meta = await query(file, "SELECT decode(value) AS v FROM parquet_kv_metadata($FILE) WHERE decode(key) IN ('simsift.k', 'simsift.stop_words')");
    expect(meta).toEqual([{ v: 'true' }]);
  });

  it('an empty export is a valid file with no rows', async () => {
    const empty: FingerprintRows = { paths: [], status: [], hi: new Uint32Array(0), lo: new Uint32Array(0), hashHi: new Uint32Array(0), hashLo: new Uint32Array(0), words: new Uint32Array(0) };
    const file = join(dir, 'empty.parquet');
    writeFileSync(file, fingerprintsParquet(empty, { settings: DEFAULT_SETTINGS, version: 'x' }));
    expect(await query(file, 'SELECT count(*)::INT AS n FROM $FILE')).toEqual([{ n: 0 }]);
  });

  it('SIMSIFT_VERSION is package.json\'s version', () => {
    expect(SIMSIFT_VERSION).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });
});
