import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runFingerprint } from '../../../src/cli/fingerprint-command.ts';
import { runPairs } from '../../../src/cli/pairs-command.ts';
import xxhash from 'xxhash-wasm';
import { normalizeText } from '../../../src/core/text/normalize.ts';
import { SIMSIFT_VERSION } from '../../../src/core/version.ts';

const dir = mkdtempSync(join(tmpdir(), 'simsift-fp-parquet-'));
const corpus = join(dir, 'corpus');
mkdirSync(join(corpus, 'sub'), { recursive: true });
mkdirSync(join(corpus, '.git'), { recursive: true });
const words = (seed: number, n: number) => Array.from({ length: n }, (_, i) => `w${(Math.imul(i + seed, 2654435761) >>> 20) % 997}`);
const base = words(1, 300);
writeFileSync(join(corpus, 'a.txt'), base.join(' '));
writeFileSync(join(corpus, 'sub', 'a-copy, "edited".txt'), [...base.slice(0, 150), 'changed', ...base.slice(151)].join(' '));
writeFileSync(join(corpus, 'b.txt'), words(7, 300).join(' '));
writeFileSync(join(corpus, 'short.txt'), 'two words');
writeFileSync(join(corpus, 'empty.txt'), '');
writeFileSync(join(corpus, 'image.bin'), Buffer.from([0, 1, 2, 3, 0, 0]));
writeFileSync(join(corpus, '.git', 'HEAD'), 'hidden');

type Io = { stdout: PassThrough; stderr: PassThrough };
async function run(command: typeof runFingerprint, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io: Io = { stdout: new PassThrough(), stderr: new PassThrough() };
  let out = '';
  let err = '';
  io.stdout.on('data', (c) => (out += c));
  io.stderr.on('data', (c) => (err += c));
  const code = await command(argv, io);
  return { code, out, err };
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

describe('simsift fingerprint DIR --format parquet', () => {
  it('writes one row per file under DIR, with statuses, hashes and settings, matching the text output', async () => {
    const file = join(dir, 'fps.parquet');
    const r = await run(runFingerprint, [corpus, '--format', 'parquet', '--out', file, '--stop-words']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/6 rows written to/);
    const rows = await query(`SELECT path, fingerprint_hex, content_hash::VARCHAR AS ch, word_count, status FROM '${file}' ORDER BY path`);
    const p = (name: string) => `${corpus}/${name}`;
    expect(rows.map((row) => [row.path, row.status])).toEqual([
      [p('a.txt'), 'ok'],
      [p('b.txt'), 'ok'],
      [p('empty.txt'), 'empty'],
      [p('image.bin'), 'binary'],
      [p('short.txt'), 'too-short'],
      [p('sub/a-copy, "edited".txt'), 'ok'],
    ]);
    expect(rows[0].ch).toBe(String((await xxhash()).h64(normalizeText(base.join(' ')))));
    expect(rows[0].word_count).toBe(300);
    expect(rows[4]).toMatchObject({ fingerprint_hex: null, word_count: 2 });
    expect(rows[3]).toMatchObject({ fingerprint_hex: null, ch: null });

    const text = await run(runFingerprint, [corpus, '--stop-words']);
    expect(text.code).toBe(0);
    const byPath = new Map(text.out.trimEnd().split('\n').map((line) => [line.slice(line.indexOf('  ') + 2), line.slice(0, line.indexOf('  '))]));
    for (const row of rows) expect(row.fingerprint_hex ?? '-').toBe(byPath.get(row.path as string));

    const meta = await query(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${file}')`);
    expect(Object.fromEntries(meta.map((m) => [m.k, m.v]))).toMatchObject({
      'simsift.version': SIMSIFT_VERSION,
      'simsift.features': 'word3',
      'simsift.stop_words': 'true',
    });

    // The same pairs from the Parquet file and from the text output, by either engine.
    const textFile = join(dir, 'fps.txt');
    writeFileSync(textFile, text.out);
    const want = await run(runPairs, [textFile, '--k', '12']);
    expect(want.out).toMatch(/^0 5 [0-2]$/m);
    for (const engine of ['index', 'duckdb']) {
      expect((await run(runPairs, [file, '--k', '12', '--engine', engine])).out).toBe(want.out);
    }
  }, 60_000);

  it('needs --out for Parquet and fails on an unwritable --out before reading any file', async () => {
    expect((await run(runFingerprint, [corpus, '--format', 'parquet'])).err).toMatch(/needs --out/);
    const bad = await run(runFingerprint, [corpus, '--format', 'parquet', '--out', join(dir, 'nope', 'x.parquet')]);
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toMatch(/^simsift fingerprint: cannot write --out .*ENOENT/);
    expect((await run(runFingerprint, [corpus, '--format', 'csv'])).err).toMatch(/--format must be text or parquet/);
  });

  it('runs from the bin entry like a user would, and --out writes the text form to a file', async () => {
    const out = join(dir, 'bin.parquet');
    const result = await new Promise<{ code: number; err: string }>((done) =>
      execFile(process.execPath, [resolve('bin/simsift.js'), 'fingerprint', 'corpus', '--format=parquet', `--out=${out}`], { cwd: dir }, (error, _o, err) =>
        done({ code: error ? Number(error.code ?? 1) : 0, err }),
      ),
    );
    expect(result.code, result.err).toBe(0);
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('PAR1');
    expect(await query(`SELECT count(*)::INT AS n, count(fingerprint)::INT AS f FROM '${out}'`)).toEqual([{ n: 6, f: 3 }]);
    const textOut = join(dir, 'out.txt');
    expect((await run(runFingerprint, [join(corpus, 'a.txt'), '--out', textOut])).code).toBe(0);
    expect(readFileSync(textOut, 'utf8')).toMatch(/^[0-9a-f]{16} {2}.*a\.txt\n$/);
  }, 60_000);
});
