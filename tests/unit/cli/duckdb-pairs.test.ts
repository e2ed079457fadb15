import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPairs } from '../../../src/cli/pairs-command.ts';
import { runCommand } from './run-command.ts';
import { fingerprintsParquet, type FingerprintStatus } from '../../../src/core/export/fingerprints-parquet.ts';
import { toHex } from '../../../src/core/simhash/fingerprint64.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { bruteForcePairs, plantedSet, type Fingerprints } from '../core/index/test-fingerprints.ts';

const dir = mkdtempSync(join(tmpdir(), 'simsift-duckdb-pairs-'));

const run = (argv: string[]) => runCommand(runPairs, argv);

/** Writes fingerprints as the Parquet export, with rows listed in `missing` as too short (no fingerprint). */
function writeParquet(file: string, fp: Fingerprints, missing: ReadonlySet<number> = new Set()): void {
  const n = fp.hi.length;
  const status: FingerprintStatus[] = Array.from({ length: n }, (_, i) => (missing.has(i) ? 'too-short' : 'ok'));
  const bytes = fingerprintsParquet(
    { paths: Array.from({ length: n }, (_, i) => `doc${i}.txt`), status, hi: fp.hi, lo: fp.lo, hashHi: fp.hi, hashLo: fp.lo, words: new Uint32Array(n) },
    { settings: DEFAULT_SETTINGS, version: 'test' },
  );
  writeFileSync(file, bytes);
}

const fp = plantedSet(1500, 500, 5, 77);
const hexFile = join(dir, 'fps.txt');
writeFileSync(hexFile, Array.from(fp.hi, (h, i) => toHex(h, fp.lo[i])).join('\n') + '\n');

describe('simsift pairs --engine duckdb', () => {
  it('prints the same lines as the in-process index, from text and from Parquet, for any block count', async () => {
    const parquetFile = join(dir, 'fps.parquet');
    writeParquet(parquetFile, fp);
    for (const k of [0, 3, 5]) {
      const want = bruteForcePairs(fp, k).join('\n') + '\n';
      expect((await run([hexFile, '--k', String(k)])).out).toBe(want);
      expect((await run([parquetFile, '--k', String(k)])).out).toBe(want);
      const duck = await run([parquetFile, '--k', String(k), '--engine', 'duckdb']);
      expect(duck.code).toBe(0);
      expect(duck.err).toMatch(/engine=duckdb/);
      expect(duck.out).toBe(want);
      expect((await run([hexFile, '--k', String(k), '--engine=duckdb'])).out).toBe(want);
    }
    const want = bruteForcePairs(fp, 4).join('\n') + '\n';
    for (const blocks of ['5', '7', '0']) {
      expect((await run([parquetFile, '--k', '4', '--engine', 'duckdb', '--blocks', blocks])).out).toBe(want);
    }
  }, 60_000);

  it('reads `simsift fingerprint` output and Parquet nulls: rows without a fingerprint keep their numbers', async () => {
    const missing = new Set([0, 7, 1999]);
    const text = join(dir, 'fingerprint-output.txt');
    writeFileSync(
      text,
      Array.from(fp.hi, (h, i) => (missing.has(i) ? `-  notes/short ${i}.txt` : `${toHex(h, fp.lo[i])}  notes/doc ${i}.txt`)).join('\n') + '\n',
    );
    const parquetFile = join(dir, 'with-nulls.parquet');
    writeParquet(parquetFile, fp, missing);
    const want = bruteForcePairs(fp, 3).filter((line) => {
      const [a, b] = line.split(' ').map(Number);
      return !missing.has(a) && !missing.has(b);
    });
    for (const file of [text, parquetFile]) {
      for (const engine of ['index', 'duckdb']) {
        const { code, out, err } = await run([file, '--k', '3', '--engine', engine]);
        expect(code).toBe(0);
        expect(out.trimEnd().split('\n')).toEqual(want);
        expect(err).toMatch(/n=1997 rows=2000|n=1997/);
      }
    }
  }, 60_000);

  it('--paths appends both paths, escaped, from text or Parquet, by either engine', async () => {
    const n = fp.hi.length;
    const oddRow = Number(bruteForcePairs(fp, 4)[0].split(' ')[0]);
    const name = (i: number) => (i === oddRow ? 'odd\tname\\3.txt' : `notes/doc ${i}.txt`);
    const missing = new Set([oddRow === 1 ? 2 : 1, 10]);
    const text = join(dir, 'with-paths.txt');
    writeFileSync(text, Array.from({ length: n }, (_, i) => `${missing.has(i) ? '-' : toHex(fp.hi[i], fp.lo[i])}  ${name(i)}`).join('\n') + '\n');
    const parquetFile = join(dir, 'with-paths.parquet');
    const status: FingerprintStatus[] = Array.from({ length: n }, (_, i) => (missing.has(i) ? 'too-short' : 'ok'));
    writeFileSync(
      parquetFile,
      fingerprintsParquet(
        { paths: Array.from({ length: n }, (_, i) => name(i)), status, hi: fp.hi, lo: fp.lo, hashHi: fp.hi, hashLo: fp.lo, words: new Uint32Array(n) },
        { settings: DEFAULT_SETTINGS, version: 'test' },
      ),
    );
    const escaped = (i: number) => name(i).replace(/\\/g, '\\\\').replace(/\t/g, '\\t');
    const want = bruteForcePairs(fp, 4)
      .filter((l) => !l.split(' ').slice(0, 2).some((x) => missing.has(Number(x))))
      .map((l) => {
        const [a, b] = l.split(' ').map(Number);
        return `${l}\t${escaped(a)}\t${escaped(b)}`;
      });
    expect(want.some((l) => l.includes('odd\\tname\\\\3.txt'))).toBe(true);
    for (const file of [text, parquetFile]) {
      for (const engine of ['index', 'duckdb']) {
        const { code, out, err } = await run([file, '--k', '4', '--engine', engine, '--paths']);
        expect(code, err).toBe(0);
        expect(out.trimEnd().split('\n')).toEqual(want);
      }
    }
    const bare = await run([hexFile, '--paths']);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/--paths: .* has no paths/);
  }, 60_000);

  it('runs under a small DuckDB memory limit', async () => {
    const { code, out, err } = await run([hexFile, '--k', '3', '--engine', 'duckdb', '--memory-limit', '64MB', '--threads', '1']);
    expect(code).toBe(0);
    expect(err).toMatch(/memory_limit=64MB/);
    expect(out.trimEnd().split('\n')).toEqual(bruteForcePairs(fp, 3));
  });

  it('refuses a search whose pairs would not fit, from an estimate, before searching', async () => {
    const many = plantedSet(200_000, 0, 0, 5);
    const file = join(dir, 'many.parquet');
    writeParquet(file, many);
    for (const engine of ['index', 'duckdb']) {
      const { code, out, err } = await run([file, '--k', '64', '--engine', engine]);
      expect(code).toBe(2);
      expect(out).toBe('');
      // "about ... (estimated from a sample)": refused from the estimate, before any search ran.
      expect(err).toMatch(/about 19,999,900,000 pairs within k=64 .*over --max-pairs 100,000,000/);
    }
    // A bound the estimate passes but the count does not: DuckDB stops counting.
    const bounded = await run([hexFile, '--k', '5', '--engine', 'duckdb', '--max-pairs', '10']);
    expect(bounded.code).toBe(2);
    expect(bounded.err).toMatch(/over --max-pairs 10/);
  }, 60_000);

  it('writes --out, and fails on an unwritable --out before reading anything', async () => {
    const outFile = join(dir, 'pairs.txt');
    expect((await run([hexFile, '--k', '3', '--engine', 'duckdb', '--out', outFile])).code).toBe(0);
    expect(readFileSync(outFile, 'utf8').trimEnd().split('\n')).toEqual(bruteForcePairs(fp, 3));
    for (const engine of ['index', 'duckdb']) {
      const { code, err } = await run([join(dir, 'does-not-exist.txt'), '--engine', engine, '--out', join(dir, 'no/such/dir/pairs.txt')]);
      expect(code).toBe(2);
      expect(err).toMatch(/cannot write --out .*ENOENT/);
      expect(err).not.toMatch(/does-not-exist/);
    }
  });

  it.each([
    [['x', '--engine', 'spark'], /--engine must be index or duckdb/],
    [['x', '--memory-limit', 'lots'], /--memory-limit must be a size/],
    [['x', '--max-pairs', '-5'], /--max-pairs must be a positive integer/],
  ])('rejects %j', async (argv, message) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });
});
