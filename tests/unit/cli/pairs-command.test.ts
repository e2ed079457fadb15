import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { autoPairsThreads, runPairs } from '../../../src/cli/pairs-command.ts';
import { runCommand } from './run-command.ts';
import { parseFingerprintLines } from '../../../src/cli/fingerprint-input.ts';
import { allPairsThreaded } from '../../../src/cli/pairs-threads.ts';
import { allPairs } from '../../../src/core/index/all-pairs.ts';
import { toHex } from '../../../src/core/simhash/fingerprint64.ts';
import { bruteForcePairs, plantedSet } from '../core/index/test-fingerprints.ts';

const dir = mkdtempSync(join(tmpdir(), 'simsift-pairs-'));
const fp = plantedSet(1500, 500, 5, 77);
const lines = Array.from(fp.hi, (h, i) => toHex(h, fp.lo[i]));
const fpFile = join(dir, 'fingerprints.txt');
writeFileSync(fpFile, lines.join('\n') + '\n');

const run = (argv: string[]) => runCommand(runPairs, argv);

describe('simsift pairs', () => {
  it('prints every pair within k once, sorted, with a timing summary', async () => {
    const { code, out, err } = await run([fpFile, '--k', '3']);
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n')).toEqual(bruteForcePairs(fp, 3));
    expect(err).toMatch(/search_seconds=\d+\.\d+/);
    expect(err).toMatch(/pairs=\d+/);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('gives the same output for any block count and with threads', async () => {
    const want = (await run([fpFile, '--k=4'])).out;
    expect(want.length).toBeGreaterThan(0);
    expect((await run([fpFile, '--k', '4', '--blocks', '7'])).out).toBe(want);
    const threaded = await run([fpFile, '--k', '4', '--threads', '2']);
    expect(threaded.code).toBe(0);
    expect(threaded.err).toMatch(/threads=2/);
    expect(threaded.out).toBe(want);
  }, 60_000);

  it('stops a search that finds more than --max-pairs, on one thread or on several sharing the bound', async () => {
    const count = (await run([fpFile, '--k', '4'])).out.trimEnd().split('\n').length;
    expect(count).toBeGreaterThan(10);
    for (const threads of ['1', '2']) {
      const over = await run([fpFile, '--k', '4', '--threads', threads, '--max-pairs', String(count - 1)]);
      expect(over.code, over.err).toBe(2);
      expect(over.out).toBe('');
      expect(over.err).toMatch(new RegExp(`about [\\d,]+ pairs within k=4 .*over --max-pairs ${(count - 1).toLocaleString('en')}`));
      const at = await run([fpFile, '--k', '4', '--threads', threads, '--max-pairs', String(count)]);
      expect(at.code, at.err).toBe(0);
    }
  }, 60_000);

  it('accepts CRLF, uppercase, spaces and a missing final newline; empty files give no pairs', async () => {
    const file = join(dir, 'crlf.txt');
    writeFileSync(file, ' FFFFFFFFFFFFFFFF\r\nfffffffffffffffe \r\n0000000000000000');
    expect((await run([file, '--k', '1'])).out).toBe('0 1 1\n');
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '');
    expect(await run([empty, '--k', '3'])).toMatchObject({ code: 0, out: '' });
  });

  it('treats large k by brute force', async () => {
    const file = join(dir, 'three.txt');
    writeFileSync(file, 'ffffffffffffffff\n0000000000000000\n00000000ffffffff\n');
    expect((await run([file, '--k', '64'])).out).toBe('0 1 64\n0 2 32\n1 2 32\n');
    expect((await run([file, '--k', '40'])).out).toBe('0 2 32\n1 2 32\n');
  });

  it.each([
    [['--k', '3'], /missing FILE/],
    [[fpFile, '--k', '65'], /--k must be in 0\.\.64/],
    [[fpFile, '--k', '-1'], /--k must be in 0\.\.64/],
    [[fpFile, '--k', 'three'], /--k must be an integer/],
    [[fpFile, '--k', '3', '--blocks', '3'], /greater than k/],
    [[fpFile, '--k', '3', '--blocks', '40'], /at most 32/],
    [[fpFile, '--threads', '0'], /--threads/],
    [[fpFile, '--frobnicate'], /unknown option/],
    [[join(dir, 'missing.txt')], /cannot read .*ENOENT/],
    [[dir], /cannot read .*EISDIR/],
  ])('rejects %j with one line and exit code 2', async (argv, message) => {
    const { code, out, err } = await run(argv as string[]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(message);
    expect(err.trim().split('\n')).toHaveLength(1);
  });

  it('names the first bad line', async () => {
    const file = join(dir, 'bad.txt');
    writeFileSync(file, '0123456789abcdef\n0123456789abcdeg\n');
    const { code, err } = await run([file]);
    expect(code).toBe(2);
    expect(err).toMatch(/bad\.txt:2: expected 16 hex digits, got "0123456789abcdeg"/);
    writeFileSync(file, '0123456789abcdef\n\n0123456789abcdef\n');
    expect((await run([file])).err).toMatch(/:2: expected 16 hex digits/);
    writeFileSync(file, '0123456789abcdef0\n');
    expect((await run([file])).err).toMatch(/:1: expected/);
  });

  it('parses fingerprints from bytes exactly', () => {
    const { hi, lo } = parseFingerprintLines(Buffer.from(lines.join('\n')), 'x');
    expect(hi).toEqual(fp.hi);
    expect(lo).toEqual(fp.lo);
    // Rows without a fingerprint keep the numbering of those after them, with or without the final newline.
    const mixed = parseFingerprintLines(Buffer.from('-\n0123456789ABCDEF\n-  gone.bin\nfedcba9876543210'), 'x');
    expect([...mixed.hi]).toEqual([0x01234567, 0xfedcba98]);
    expect([...mixed.lo]).toEqual([0x89abcdef, 0x76543210]);
    expect(mixed.rows && [...mixed.rows]).toEqual([1, 3]);
    expect(mixed.totalRows).toBe(4);
  });
});

describe('the default thread count', () => {
  it('uses every core (one per table at most) from a one-thread estimate of 0.05 s: 1,000,000 fingerprints at k = 3', () => {
    // The model puts those at about 0.26 s on one core (0.04 s at 200,000, 0.07 s at 300,000), since it
    // prices each row of a run (about 160 instructions) and not only the comparisons.
    expect(autoPairsThreads(1_000_000, 3, undefined, 2)).toBe(2);
    expect(autoPairsThreads(300_000, 3, undefined, 2)).toBe(2);
    expect(autoPairsThreads(600_000, 3, undefined, 16)).toBe(4);
    expect(autoPairsThreads(200_000, 3, undefined, 2)).toBe(1);
    expect(autoPairsThreads(1_000_000, 3, undefined, 1)).toBe(1);
    // Brute force (no tables to split) stays on one thread.
    expect(autoPairsThreads(100_000, 40, undefined, 2)).toBe(1);
  });
});

describe('threaded all-pairs', () => {
  it('equals the single-thread result pair for pair', async () => {
    const big = plantedSet(20000, 5000, 6, 3);
    for (const [k, blocks, threads] of [[3, 4, 2], [6, 8, 3], [2, 3, 2]]) {
      const single = allPairs(big.hi, big.lo, k, { blocks });
      const threaded = await allPairsThreaded(big.hi, big.lo, k, { blocks, threads });
      expect(threaded.count).toBe(single.count);
      expect(threaded.a.subarray(0, threaded.count)).toEqual(single.a.subarray(0, single.count));
      expect(threaded.b.subarray(0, threaded.count)).toEqual(single.b.subarray(0, single.count));
      expect(threaded.distance.subarray(0, threaded.count)).toEqual(single.distance.subarray(0, single.count));
    }
  }, 60_000);

  it('runs from another working directory, loaded the way bin/simsift.js loads the CLI', async () => {
    const require = createRequire(import.meta.url);
    const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
    const command = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../../../src/cli/pairs-command.ts')).href;
    const script = `import { register } from ${JSON.stringify(tsxApi)}; register();
      const { runPairs } = await import(${JSON.stringify(command)});
      process.exitCode = await runPairs(process.argv.slice(1));`;
    const result = await new Promise<{ out: string; err: string; code: number }>((resolve) => {
      execFile(
        process.execPath,
        ['--input-type=module', '-e', script, fpFile, '--k', '3', '--threads', '2'],
        { cwd: tmpdir() },
        (error, out, err) => resolve({ out, err, code: error ? Number(error.code ?? 1) : 0 }),
      );
    });
    expect(result.err).toMatch(/threads=2/);
    expect(result.code).toBe(0);
    expect(result.out.trimEnd().split('\n')).toEqual(bruteForcePairs(fp, 3));
  }, 60_000);
});
