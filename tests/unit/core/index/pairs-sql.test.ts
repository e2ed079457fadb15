import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { fingerprintsParquet } from '../../../../src/core/export/fingerprints-parquet.ts';
import { chooseSqlBlocks, pairsQueries, pairsSqlScript, signedLiteral } from '../../../../src/core/index/pairs-sql.ts';
import { DEFAULT_SETTINGS } from '../../../../src/core/simhash/settings.ts';
import { bruteForcePairs, plantedSet } from './test-fingerprints.ts';

const SQL_FILE = 'sql/near-duplicate-pairs.sql';

describe('the permuted-table search as SQL', () => {
  it('the repository SQL file is the generator output for its defaults (k = 3, blocks for 10M)', () => {
    expect(chooseSqlBlocks(10_000_000, 3)).toBe(5);
    expect(readFileSync(SQL_FILE, 'utf8')).toBe(pairsSqlScript(3, 5));
  });

  it('runs as is in DuckDB on a Parquet export (or a glob of several) and lists every pair within 3 once, with paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'simsift-sql-'));
    const fp = plantedSet(3000, 1000, 4, 11);
    const n = fp.hi.length;
    const file = join(dir, "it's fps.parquet");
    const status = Array.from({ length: n }, (_, i) => (i === 5 ? ('too-short' as const) : ('ok' as const)));
    writeFileSync(
      file,
      fingerprintsParquet(
        { paths: Array.from({ length: n }, (_, i) => `d/${i}.txt`), status, hi: fp.hi, lo: fp.lo, hashHi: fp.hi, hashLo: fp.lo, words: new Uint32Array(n) },
        { settings: DEFAULT_SETTINGS, version: 'test' },
      ),
    );
    // The same rows split over two files of a folder, read through a glob: rows numbered across files.
    const parts = join(dir, 'parts');
    mkdirSync(parts);
    for (const [name, from, to] of [['part-0.parquet', 0, 1700], ['part-1.parquet', 1700, n]] as const) {
      writeFileSync(
        join(parts, name),
        fingerprintsParquet(
          { paths: Array.from({ length: to - from }, (_, i) => `d/${from + i}.txt`), status: status.slice(from, to), hi: fp.hi.subarray(from, to), lo: fp.lo.subarray(from, to), hashHi: fp.hi.subarray(from, to), hashLo: fp.lo.subarray(from, to), words: new Uint32Array(to - from) },
          { settings: DEFAULT_SETTINGS, version: 'test' },
        ),
      );
    }
    const want = bruteForcePairs(fp, 3).filter((l) => !l.split(' ').slice(0, 2).includes('5'));
    for (const source of [file, join(parts, '*.parquet')]) {
      const db = await DuckDBInstance.create(':memory:');
      const connection = await db.connect();
      await connection.run(`SET VARIABLE fingerprints_file = '${source.replaceAll("'", "''")}'`);
      const rows = (await connection.runAndReadAll(readFileSync(SQL_FILE, 'utf8'))).getRowObjectsJson();
      connection.closeSync();
      db.closeSync();
      expect(rows.map((r) => `${r.i} ${r.j} ${r.distance}`)).toEqual(want);
      expect(rows.every((r) => r.path_a === `d/${r.i}.txt` && r.path_b === `d/${r.j}.txt`)).toBe(true);
    }
  });

  it('writes the bit functions of each dialect, masks as signed BIGINT literals', () => {
    const [duck] = pairsQueries(3, 5);
    expect(duck).toContain('bit_count(xor(a.fp, b.fp)) <= 3');
    const spark = pairsQueries(3, 5, { dialect: 'spark' });
    expect(spark[1]).toContain('bit_count((a.fp ^ b.fp)) <= 3');
    expect(spark[1]).toMatch(/\(\(a\.fp \^ b\.fp\) & \d+\) <> 0/);
    const trino = pairsQueries(3, 5, { dialect: 'trino' });
    expect(trino[0]).toContain('bit_count(bitwise_xor(a.fp, b.fp), 64) <= 3');
    expect(trino[0]).toContain('bitwise_and(a.fp, ');
    expect(pairsQueries(3, 5)).toHaveLength(10);
    expect(pairsQueries(40, 0)).toHaveLength(1);
    expect(signedLiteral(0xffffffffffffffffn)).toBe('-1');
    expect(signedLiteral(1n << 63n)).toBe('(-9223372036854775807 - 1)');
    expect(signedLiteral(0x7fffn)).toBe('32767');
  });

  it('compares all pairs when that is cheaper (tiny inputs, large k)', () => {
    expect(chooseSqlBlocks(10, 3)).toBe(0);
    expect(chooseSqlBlocks(200_000, 64)).toBe(0);
    expect(chooseSqlBlocks(1_000_000, 3)).toBe(5);
  });
});
