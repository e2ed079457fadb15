// Issue #35: an output never lands over an input or another output, and a command reads only what it
// was named. Every test here failed on the code before its fix.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { parseFingerprintParquet } from '../../../src/cli/fingerprint-parquet-input.ts';
import { checkedRowCount } from '../../../src/cli/parquet-checks.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { runFingerprint } from '../../../src/cli/fingerprint-command.ts';
import { runPairs } from '../../../src/cli/pairs-command.ts';
import { runScan } from '../../../src/cli/scan-command.ts';
import { runCommand } from './run-command.ts';
import { runNode } from '../run-node.ts';
import { fingerprintFile, sameFingerprints } from './fingerprint-files.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const TEXT = 'the same text in every file of this folder, long enough to be fingerprinted as a document of its own here. '.repeat(3);

/** A temporary folder holding root/a.txt, root/d/keep.txt (same text) and fp.txt (two fingerprints). */
async function setUp(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'simsift-named-'));
  await mkdir(join(dir, 'root', 'd'), { recursive: true });
  await writeFile(join(dir, 'root', 'a.txt'), TEXT);
  await writeFile(join(dir, 'root', 'd', 'keep.txt'), TEXT);
  await writeFile(join(dir, 'fp.txt'), '0123456789abcdef  x\n0123456789abcdee  y\n');
  return dir;
}

describe('outputs never over inputs (#35)', () => {
  it('fingerprint --out over a file under the folder it reads is refused, text and Parquet; the file is untouched', async () => {
    const d = await setUp();
    for (const format of [[], ['--format', 'parquet']]) {
      const r = await runCommand(runFingerprint, [join(d, 'root'), '--threads', '1', '--out', join(d, 'root', 'd', 'keep.txt'), ...format]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/--out .*keep\.txt.* is a file under .*root.*, which this command reads/);
      expect(await readFile(join(d, 'root', 'd', 'keep.txt'), 'utf8')).toBe(TEXT);
    }
  });

  it('fingerprint --out naming one of its FILE operands (or a link to it) is refused', async () => {
    const d = await setUp();
    const r = await runCommand(runFingerprint, [join(d, 'root', 'a.txt'), '--threads', '1', '--out', join(d, 'root', 'd', '..', 'a.txt')]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/--out .*a\.txt.* is .*a\.txt.*, which this command reads/);
    expect(await readFile(join(d, 'root', 'a.txt'), 'utf8')).toBe(TEXT);
  });

  it('pairs --out over its own FILE is refused; the fingerprints stay', async () => {
    const d = await setUp();
    const before = await readFile(join(d, 'fp.txt'), 'utf8');
    for (const engine of ['index', 'duckdb']) {
      const r = await runCommand(runPairs, [join(d, 'fp.txt'), '--engine', engine, '--out', join(d, 'fp.txt')]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/--out .*fp\.txt.* is .*fp\.txt.*, which this command reads/);
      expect(await readFile(join(d, 'fp.txt'), 'utf8')).toBe(before);
    }
  });

  it('scan --out over its --pairs file is refused', async () => {
    const d = await setUp();
    await writeFile(join(d, 'pairs.txt'), '0 1 0\ta.txt\td/keep.txt\n');
    const r = await runCommand(runScan, [join(d, 'root'), '--pairs', join(d, 'pairs.txt'), '--out', join(d, 'pairs.txt')]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/--out .*pairs\.txt.* is .*pairs\.txt.*, which this command reads/);
    expect(await readFile(join(d, 'pairs.txt'), 'utf8')).toBe('0 1 0\ta.txt\td/keep.txt\n');
  });

  it('`fingerprint *` in a folder holding a file named --out does not take the next name as --out', async () => {
    const d = await setUp();
    const here = join(d, 'root');
    await writeFile(join(here, '--out'), TEXT);
    const cwd = process.cwd();
    process.chdir(here);
    try {
      // What the shell makes of `simsift fingerprint *` there.
      const r = await runCommand(runFingerprint, ['--out', 'a.txt', 'd', '--threads', '1']);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/"--out" is also the name of a file here/);
    } finally {
      process.chdir(cwd);
    }
    expect(await readFile(join(here, 'a.txt'), 'utf8')).toBe(TEXT);
  });
});

describe('identical means the same bytes or a lossless decode (#35)', () => {
  /**
   * Scans `damaged(a)`, `damaged(b)` and a second `damaged(b)` with --plan: the two byte-identical files
   * are one kept and its identical copy; the one differing only in damaged bytes decodes to the same
   * text but is at most a near-duplicate, never removed.
   */
  async function onlyByteIdenticalCopies(damaged: (v: number) => Buffer, a: number, b: number): Promise<void> {
    const d = await setUp();
    const root = join(d, 'lossy');
    await mkdir(root);
    await writeFile(join(root, 'a.txt'), damaged(a));
    await writeFile(join(root, 'b.txt'), damaged(b));
    await writeFile(join(root, 'b-copy.txt'), damaged(b));
    const plan = join(d, 'plan.json');
    const r = await runCommand(runScan, [root, '--plan', plan, '--threads', '1']);
    expect(r.code, r.err).toBe(0);
    const rows = (JSON.parse(await readFile(plan, 'utf8')) as { rows: Array<{ path: string; match: string; role: string; content_hash: string }> }).rows;
    const byPath = new Map(rows.map((row) => [row.path, row]));
    expect(byPath.get('b.txt')!.content_hash).toBe(byPath.get('b-copy.txt')!.content_hash);
    expect([byPath.get('b.txt')!.match, byPath.get('b-copy.txt')!.match].sort()).toEqual(['identical', 'kept']);
    expect(byPath.get('a.txt')!.content_hash).not.toBe(byPath.get('b.txt')!.content_hash);
    expect(byPath.get('a.txt')!.match).toBe('near-duplicate');
    expect(byPath.get('a.txt')!.role).not.toBe('remove');
  }

  it('two texts that differ only in damaged bytes are never identical copies; byte-identical ones still are', async () => {
    /** Mostly UTF-8 prose (well-formed é's) with one Latin-1 byte: `caf` then `last`. */
    const damaged = (last: number) =>
      Buffer.concat([Buffer.from(`${'un résumé de la réunion, les décisions prises et les étapes à venir pour chacun. '.repeat(6)}caf`), Buffer.from([last]), Buffer.from(' au lait\n')]);
    await onlyByteIdenticalCopies(damaged, 0xe9, 0xe8);
  });

  it('two UTF-16 texts that differ only in an unpaired surrogate are never identical copies', async () => {
    /** UTF-16 LE with its BOM: prose, then one unpaired surrogate `unit`, then more prose. */
    const damaged16 = (unit: number) => {
      const bytes = Buffer.from(`\uFEFF${'the minutes of the meeting, the decisions taken and the next steps for each of us. '.repeat(6)}caf\u0000 au lait\n`, 'utf16le');
      bytes.writeUInt16LE(unit, bytes.indexOf(Buffer.from('caf\u0000', 'utf16le')) + 6);
      return bytes;
    };
    await onlyByteIdenticalCopies(damaged16, 0xd800, 0xdc00);
  });
});

/** Runs `node bin/simsift.js ...args` in `cwd` with `env`, under a hang detector. */
const simsift = (args: string[], cwd: string, env: NodeJS.ProcessEnv) => runNode([resolve('bin/simsift.js'), ...args], { cwd, env });

describe('DuckDB reads only the file named, literally (#35)', () => {
  it("'~/fp.parquet' is the file ./~/fp.parquet, never $HOME/fp.parquet; s3:// is never a URL; no network, nothing in HOME", async () => {
    const d = await setUp();
    const home = join(d, 'home');
    const work = join(d, 'work');
    await mkdir(home);
    await mkdir(join(work, '~'), { recursive: true });
    await mkdir(join(work, 's3:', 'bucket'), { recursive: true });
    await writeFile(join(home, 'fp.parquet'), sameFingerprints(3));
    await writeFile(join(work, '~', 'fp.parquet'), sameFingerprints(2));
    await writeFile(join(work, 's3:', 'bucket', 'fp.parquet'), sameFingerprints(2));
    // Any connection attempt goes to a closed local port (and DNS to nowhere); HOME is a fresh folder.
    const env = { PATH: process.env.PATH, HOME: home, HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9', http_proxy: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9' };
    const r = await simsift(['pairs', '~/fp.parquet', '--k', '0', '--engine', 'duckdb'], work, env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe('0 1 0\n');
    // A URL is refused by name even where a folder `s3:` makes it a local path too (./s3://... reads that).
    const url = await simsift(['pairs', 's3://bucket/fp.parquet', '--k', '0', '--engine', 'duckdb'], work, env);
    expect(url.code, url.err).toBe(2);
    expect(url.err).toMatch(/names a URL.*SimSift reads local files only/);
    const local = await simsift(['pairs', './s3://bucket/fp.parquet', '--k', '0', '--engine', 'duckdb'], work, env);
    expect(local.code, local.err).toBe(0);
    expect(local.out).toBe('0 1 0\n');
    expect(existsSync(join(home, '.duckdb'))).toBe(false);
  }, 120_000);

  it('a URL is refused by name, before DuckDB starts, by either engine', async () => {
    for (const name of ['s3://bucket/fp.parquet', 'https://example.invalid/fp.parquet']) {
      for (const engine of ['duckdb', 'index']) {
        const r = await runCommand(runPairs, [name, '--engine', engine]);
        expect(r.code, r.err).toBe(2);
        expect(r.err).toMatch(/names a URL.*SimSift reads local files only/);
      }
    }
  });
});

describe('inputs that could block or never end are refused before they are opened (#35)', () => {
  it('scan --pairs FIFO, pairs FIFO and pairs /dev/zero exit 2 naming what the file is', async () => {
    const d = await setUp();
    execFileSync('mkfifo', [join(d, 'fifo')]);
    const env = { PATH: process.env.PATH, HOME: d };
    const cases: Array<[string[], RegExp]> = [
      [['scan', 'root', '--pairs', 'fifo'], /cannot read --pairs "fifo": it is a FIFO, not a regular file/],
      [['pairs', 'fifo'], /cannot read "fifo": it is a FIFO, not a regular file/],
      [['pairs', '/dev/zero', '--engine', 'duckdb'], /cannot read "\/dev\/zero": it is a character device, not a regular file/],
      [['pairs', '/dev/zero'], /cannot read "\/dev\/zero": it is a character device, not a regular file/],
    ];
    for (const [args, message] of cases) {
      const r = await simsift(args, d, env);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
    }
  }, 120_000);
});

describe('a Parquet input is checked before use (#35)', () => {
  const n = 6;
  const file = () =>
    fingerprintFile(
      Uint32Array.from({ length: n }, (_, i) => 0x12345678 + (i >> 1)),
      Uint32Array.from({ length: n }, (_, i) => 0x9abcdef0 + i),
      50,
    );

  it('a flipped byte in a fingerprint, or in its hex form, is an error, never other pairs', async () => {
    const good = file();
    expect((await parseFingerprintParquet(good, 'fp.parquet')).totalRows).toBe(n);
    // Row 1's fingerprint as the file stores it (INT64, little-endian, a literal in the compressed page)
    // and as its hex column spells it; later rows may copy bytes from it.
    const value = Buffer.alloc(8);
    value.writeBigUInt64LE((0x12345678n << 32n) | 0x9abcdef0n);
    for (const needle of [value, Buffer.from('123456789abcdef0')]) {
      const at = Buffer.from(good).indexOf(needle);
      expect(at).toBeGreaterThan(0);
      for (const offset of [0, 3, 7]) {
        const bad = good.slice();
        bad[at + offset]! ^= 0x01;
        await expect(parseFingerprintParquet(bad, 'fp.parquet')).rejects.toThrow(/fp\.parquet: a damaged Parquet file \(row \d: fingerprint .* but fingerprint_hex/);
      }
    }
  });

  it('a Parquet file claiming 2^40 rows is a clear error, not "Invalid array length"', () => {
    const bytes = file();
    const metadata = parquetMetadata(bytes.buffer.slice(0) as ArrayBuffer);
    expect(checkedRowCount(metadata, bytes.length, { fingerprint: 'INT64' }, 'fp.parquet')).toBe(n);
    metadata.num_rows = 2n ** 40n;
    expect(() => checkedRowCount(metadata, bytes.length, { fingerprint: 'INT64' }, 'fp.parquet')).toThrow(
      /fp\.parquet: a damaged Parquet file \(it claims 1,099,511,627,776 rows, more than a file of [\d,]+ bytes can hold\)/,
    );
    metadata.num_rows = BigInt(n);
    metadata.row_groups[0]!.num_rows = BigInt(n + 1);
    expect(() => checkedRowCount(metadata, bytes.length, { fingerprint: 'INT64' }, 'fp.parquet')).toThrow(/row group 1 claims 7 rows/);
  });
});
