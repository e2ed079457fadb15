/**
 * `simsift scan DIR --pairs FILE`: pairs found elsewhere (DuckDB here) are the scan's candidates,
 * and the scan gives the same CSV as its own search; a pairs file that cannot be this scan's
 * candidates is refused with exit code 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFingerprint } from '../../../src/cli/fingerprint-command.ts';
import { runPairs } from '../../../src/cli/pairs-command.ts';
import { runScan } from '../../../src/cli/scan-command.ts';
import { readPairsFile } from '../../../src/cli/read-input.ts';
import { generateCorpus } from '../../fixtures/generate-corpus.ts';
import { runCommand } from './run-command.ts';

const dir = mkdtempSync(join(tmpdir(), 'simsift-scan-pairs-'));
const corpus = join(dir, 'corpus');
const K = '12';

const run = runCommand;

beforeAll(async () => {
  // Near-duplicates (a few words overwritten) and exact copies planted among 120 documents, and two
  // short notes that only the short-document join can pair.
  generateCorpus(corpus, { files: 120, totalBytes: 120 * 2500, nearEvery: 6, exactEvery: 9, perFolder: 40, seed: 14 });
  writeFileSync(join(corpus, 'note.txt'), 'meet at the north gate at noon with the maps and two lanterns');
  writeFileSync(join(corpus, 'note copy.txt'), 'meet at the north gate at noon with the maps and two lanterns please');
  expect((await run(runFingerprint, [corpus, '--format', 'parquet', '--out', join(dir, 'fps.parquet')])).code).toBe(0);
}, 60_000);

describe('simsift scan --pairs', { timeout: 120_000 }, () => {
  it('writes the CSV of its own search from pairs DuckDB found, as Parquet and as text', async () => {
    const own = await run(runScan, [corpus, '--k', K, '--out', join(dir, 'own.csv')]);
    expect(own.code, own.err).toBe(0);
    const pairsParquet = join(dir, 'pairs.parquet');
    const found = await run(runPairs, [join(dir, 'fps.parquet'), '--engine', 'duckdb', '--k', K, '--out', pairsParquet]);
    expect(found.code, found.err).toBe(0);
    const scanned = await run(runScan, [corpus, '--k', K, '--pairs', pairsParquet, '--out', join(dir, 'from-parquet.csv')]);
    expect(scanned.code, scanned.err).toBe(0);
    expect(scanned.err).toMatch(/not searched here/);
    const want = readFileSync(join(dir, 'own.csv'));
    expect(want.toString('utf8').split('\n').length).toBeGreaterThan(20);
    expect(readFileSync(join(dir, 'from-parquet.csv')).equals(want)).toBe(true);

    // The index engine writes the same Parquet bytes; `--paths` text reads back the same.
    const indexParquet = join(dir, 'pairs-index.parquet');
    expect((await run(runPairs, [join(dir, 'fps.parquet'), '--k', K, '--out', indexParquet])).code).toBe(0);
    expect(readFileSync(indexParquet).equals(readFileSync(pairsParquet))).toBe(true);
    const text = join(dir, 'pairs.txt');
    expect((await run(runPairs, [join(dir, 'fps.parquet'), '--k', K, '--paths', '--out', text])).code).toBe(0);
    expect((await run(runScan, [corpus, '--k', K, '--pairs', text, '--out', join(dir, 'from-text.csv')])).code).toBe(0);
    expect(readFileSync(join(dir, 'from-text.csv')).equals(want)).toBe(true);

    // The scan does not search: without pairs only exact copies and the short-document join are left.
    writeFileSync(join(dir, 'none.txt'), '');
    const none = await run(runScan, [corpus, '--k', K, '--pairs', join(dir, 'none.txt')]);
    expect(none.code, none.err).toBe(0);
    expect(none.err).toMatch(/0 candidate pairs within k=12 \(from 0 pairs of/);
    expect(none.out).toMatch(/note copy\.txt,note\.txt/);
    expect(none.out.split('\n').length).toBeLessThan(want.toString('utf8').split('\n').length);

    // The Parquet records k and the settings; the reader gives every pair by path.
    const input = await readPairsFile(pairsParquet);
    expect(input.recorded).toEqual({ k: Number(K), settings: { features: { kind: 'word-shingle', n: 3 }, weights: 'binary', stopWords: false } });
    expect(input.pathA.length).toBe(readFileSync(text, 'utf8').trimEnd().split('\n').length);
    expect(input.pathA[0]).toMatch(/^.*corpus\/d000\/doc0000\d\d\.txt$/);
  });

  it('reads the pairs DuckDB writes itself with COPY from the repository\'s SQL file (no SimSift metadata)', async () => {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const sql = readFileSync('sql/near-duplicate-pairs.sql', 'utf8');
    const select = sql.indexOf('SELECT p.i');
    await connection.run(`SET VARIABLE fingerprints_file = '${join(dir, 'fps.parquet')}'`);
    await connection.run(sql.slice(0, select));
    await connection.run(`COPY (${sql.slice(select).trim().replace(/;$/, '')}) TO '${join(dir, 'copied.parquet')}' (FORMAT parquet)`);
    connection.closeSync();
    // The file's k: the SQL file is generated for k = 3.
    const own = await run(runScan, [corpus, '--k', '3']);
    const copied = await run(runScan, [corpus, '--k', '3', '--pairs', join(dir, 'copied.parquet')]);
    expect(copied.code, copied.err).toBe(0);
    expect(copied.err).toMatch(/candidate pairs within k=3 \(from [1-9]\d* pairs of/);
    expect(copied.out).toBe(own.out);
  });

  it('refuses pairs that cannot be this scan\'s candidates, with exit code 2', async () => {
    const pairsParquet = join(dir, 'pairs.parquet');
    const refuse = async (argv: string[], message: RegExp) => {
      const r = await run(runScan, argv);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.out).toBe('');
    };
    // Another k than the pairs were found with, or other settings (recorded in the Parquet).
    await refuse([corpus, '--k', '16', '--pairs', pairsParquet], /pairs within k=12; this scan uses k=16: pairs between the two would be missing \(give --k 12\)/);
    await refuse([corpus, '--k', K, '--features', 'word1', '--pairs', pairsParquet], /with word3, binary; this scan uses word1, binary/);
    // Text records neither: a distance beyond k is refused before the scan...
    const lines = readFileSync(join(dir, 'pairs.txt'), 'utf8').trimEnd().split('\n');
    await refuse([corpus, '--k', '0', '--pairs', join(dir, 'pairs.txt')], /pairs of .*pairs\.txt are farther apart than k=0 \(.*doc\d+\.txt ~ .*doc\d+\.txt at \d+/);
    // ... and a distance the fingerprints do not give after it.
    const [head, pa, pb] = lines[0].split('\t');
    const [i, j, d] = head.split(' ');
    const wrong = join(dir, 'wrong-distance.txt');
    writeFileSync(wrong, [`${i} ${j} ${Number(d) + 1}\t${pa}\t${pb}`, ...lines.slice(1)].join('\n') + '\n');
    await refuse([corpus, '--k', K, '--pairs', wrong], new RegExp(`1 pair of .* does not fit this scan's fingerprints \\(.*: ${Number(d) + 1} in the file, ${d} here\\)`));
    // Paths that are not under DIR: counted, a few shown.
    const elsewhere = join(dir, 'elsewhere.txt');
    writeFileSync(elsewhere, lines.map((l) => l.replaceAll('corpus/', 'other/')).join('\n') + '\n');
    await refuse([corpus, '--k', K, '--pairs', elsewhere], /\d+ paths of .* are not among the files scanned under .*other\/d000\/doc/);
    // Malformed files: text without paths, Parquet without the columns, a cut Parquet file.
    const bare = join(dir, 'bare.txt');
    writeFileSync(bare, '0 1 3\n');
    await refuse([corpus, '--pairs', bare], /bare\.txt:1: expected .*: the pairs have no paths/);
    await refuse([corpus, '--pairs', join(dir, 'fps.parquet')], /needs the columns path_a, path_b, distance; it has no path_a, path_b, distance/);
    const cut = join(dir, 'cut.parquet');
    writeFileSync(cut, readFileSync(pairsParquet).subarray(0, 200));
    await refuse([corpus, '--pairs', cut], /cut\.parquet: not a readable Parquet file/);
    await refuse([corpus, '--pairs', join(dir, 'absent.parquet')], /cannot read --pairs/);
  });
});
