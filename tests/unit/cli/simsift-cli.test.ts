import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import xxhash from 'xxhash-wasm';

const BIN = resolve('bin/simsift.js');

type Run = { code: number; stdout: string; stderr: string };

/** Spawns `node bin/simsift.js ...args` (from another directory, as a user would). */
function simsift(args: string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

/** Deterministic prose: `count` words from a 3000-word vocabulary. */
function prose(seed: number, count: number): string[] {
  let s = seed >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(`w${(s >>> 8) % 3000}`);
  }
  return out;
}

let dir: string;
let corpus: string;
const base = prose(1, 400);
const edited = [...base];
edited[200] = 'changed';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-cli-'));
  corpus = join(dir, 'corpus');
  await mkdir(join(corpus, 'sub', 'deeper'), { recursive: true });
  await writeFile(join(corpus, 'a.txt'), base.join(' '));
  await writeFile(join(corpus, 'sub', 'b.txt'), edited.join(' '));
  await writeFile(join(corpus, 'sub', 'deeper', '=cmd, "x".txt'), base.join('\n'));
  await writeFile(join(corpus, 'unrelated.txt'), prose(2, 400).join(' '));
  await writeFile(join(corpus, 'other1.txt'), prose(3, 300).join(' '));
  await writeFile(join(corpus, 'other2.txt'), prose(3, 300).join(' ') + ' tail words here');
  await writeFile(join(corpus, 'short.txt'), 'two words');
  await writeFile(join(corpus, 'empty.txt'), '');
  await writeFile(join(corpus, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
  // UTF-16 LE with BOM and Latin-1 copies of the same text decode to it and match a.txt exactly.
  await writeFile(join(corpus, 'utf16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(base.join(' '), 'utf16le')]));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('simsift fingerprint', { timeout: 120_000 }, () => {
  it('prints 16 hex digits, two spaces and the path; - and a reason for short and binary files', async () => {
    const r = await simsift(['fingerprint', 'a.txt', 'short.txt', 'image.bin', 'utf16.txt'], corpus);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^[0-9a-f]{16} {2}a\.txt$/);
    expect(lines[1]).toBe('-  short.txt');
    expect(lines[2]).toBe('-  image.bin');
    expect(lines[3]).toBe(`${lines[0].slice(0, 16)}  utf16.txt`);
    expect(lines[4]).toBe('');
    expect(r.stderr).toMatch(/short\.txt: too short .*2 words/);
    expect(r.stderr).toMatch(/image\.bin: binary file: NUL byte/);
  });

  it('prints the XXH64 of the only shingle for a three-word file', async () => {
    await writeFile(join(dir, 'three.txt'), 'Hello, World again');
    const r = await simsift(['fingerprint', join(dir, 'three.txt')], dir);
    const h = (await xxhash()).h64ToString('hello world again');
    expect(r.stdout).toBe(`${h}  ${join(dir, 'three.txt')}\n`);
  });

  it('exits 2 with one line for an unreadable path or a bad option', async () => {
    const cases = [['fingerprint', 'missing.txt'], ['fingerprint'], ['fingerprint', 'a.txt', '--features', 'word0'], ['fingerprint', 'sub']];
    for (const r of await Promise.all(cases.map((args) => simsift(args, corpus)))) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

/** Reads CRLF CSV with RFC 4180 quotes into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') cell += text[i++];
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('simsift scan', { timeout: 120_000 }, () => {
  it('writes the pairs CSV with relative paths, groups, distances, estimates and Jaccard', async () => {
    const r = await simsift(['scan', corpus], dir);
    expect(r.code).toBe(0);
    const rows = parseCsv(r.stdout);
    expect(rows[0]).toEqual(['group', 'path_a', 'path_b', 'distance', 'similarity_estimate', 'jaccard']);
    const hostile = "'sub/deeper/=cmd, \"x\".txt".slice(1); // starts with "s": no formula escape needed
    // Group 1: a.txt, sub/b.txt (one word changed), the same text with newlines under a hostile name,
    // and its UTF-16 copy; group 2: other1/other2 (a few words appended). Paths sorted, pairs (a, b).
    expect(rows.slice(1).map((row) => [row[0], row[1], row[2]])).toEqual([
      ['1', 'a.txt', 'sub/b.txt'],
      ['1', 'a.txt', hostile],
      ['1', 'a.txt', 'utf16.txt'],
      ['1', 'sub/b.txt', hostile],
      ['1', 'sub/b.txt', 'utf16.txt'],
      ['1', hostile, 'utf16.txt'],
      ['2', 'other1.txt', 'other2.txt'],
    ]);
    for (const row of rows.slice(1)) {
      const d = Number(row[3]);
      expect(d).toBeLessThanOrEqual(3);
      expect(row[4]).toBe(Math.cos((Math.PI * d) / 64).toFixed(4));
      expect(row[5]).toMatch(/^[01]\.\d{4}$/);
    }
    // Identical texts (a.txt, its newline and UTF-16 versions): distance 0, Jaccard 1.
    expect(rows[2].slice(3)).toEqual(['0', '1.0000', '1.0000']);
    expect(rows[3].slice(3)).toEqual(['0', '1.0000', '1.0000']);
    expect(Number(rows[1][5])).toBeCloseTo(1 - 6 / (400 - 2 + 3), 3); // 3 of 398 shingles replaced
    expect(r.stderr).toMatch(/10 files.*7 fingerprinted, 2 too short, 1 binary.*7 pairs in 2 groups \(k=3, word3, binary\)/);
    expect(r.stderr).not.toMatch(/\r/); // no progress line when stderr is not a terminal
  });

  it('escapes formula cells in file names and writes --out', async () => {
    const d = join(dir, 'hostile');
    await mkdir(d, { recursive: true });
    await writeFile(join(d, '=HYPERLINK("x").txt'), base.join(' '));
    await writeFile(join(d, '+plus.txt'), base.join(' '));
    await writeFile(join(d, 'new\nline.txt'), base.join(' '));
    const out = join(dir, 'hostile.csv');
    const r = await simsift(['scan', d, '--out', out, '--k', '0'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const rows = parseCsv(await readFile(out, 'utf8'));
    expect(rows.slice(1).map((row) => [row[1], row[2]])).toEqual([
      ["'+plus.txt", "'=HYPERLINK(\"x\").txt"],
      ["'+plus.txt", 'new\nline.txt'],
      ["'=HYPERLINK(\"x\").txt", 'new\nline.txt'],
    ]);
    expect(r.stderr).toMatch(/wrote .*hostile\.csv/);
  });

  it('gives the same CSV with worker threads, for binary and tfidf weights', async () => {
    const runs = await Promise.all([
      simsift(['scan', corpus], dir),
      simsift(['scan', corpus, '--threads', '2'], dir),
      simsift(['scan', corpus, '--weights', 'tfidf'], dir),
      simsift(['scan', corpus, '--weights', 'tfidf', '--threads=3'], dir),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(runs[1].stdout).toBe(runs[0].stdout);
    expect(runs[3].stdout).toBe(runs[2].stdout);
    expect(runs[1].stderr).toMatch(/2 threads/);
    expect(runs[3].stderr).toMatch(/3 threads/);
  });

  it('supports char n-grams, tf and tfidf weights and stop words', async () => {
    const variants = [['--features', 'char5'], ['--weights', 'tf'], ['--weights=tfidf'], ['--features', 'word1', '--stop-words']];
    for (const r of await Promise.all(variants.map((args) => simsift(['scan', corpus, ...args], dir)))) {
      expect(r.code, r.stderr).toBe(0);
      const rows = parseCsv(r.stdout);
      // The exact copies always pair up at distance 0, whatever the settings.
      expect(rows.some((row) => row[1] === 'a.txt' && row[2] === 'utf16.txt' && row[3] === '0')).toBe(true);
    }
  });

  it('exits 2 with a one-line error for bad arguments and unreadable paths', async () => {
    const cases = [
      ['scan'],
      ['scan', join(dir, 'missing')],
      ['scan', join(corpus, 'a.txt')],
      ['scan', corpus, '--k', '65'],
      ['scan', corpus, '--k', '-1'],
      ['scan', corpus, '--k'],
      ['scan', corpus, '--features', 'words'],
      ['scan', corpus, '--weights', 'idf'],
      ['scan', corpus, '--bogus'],
      ['scan', corpus, corpus],
      ['scan', corpus, '--out', join(dir, 'no', 'such', 'dir', 'x.csv')],
      ['scan', corpus, '--threads', '0'],
      ['scan', corpus, '--threads', 'many'],
      ['frobnicate'],
    ];
    const runs = await Promise.all(cases.map((args) => simsift(args, dir)));
    runs.forEach((r, i) => {
      expect(r.code, cases[i].join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), cases[i].join(' ')).toHaveLength(1);
    });
  });

  // Root reads everything, so permissions can only be tested as another user.
  it.skipIf(process.getuid?.() === 0)('reports unreadable files and subdirectories inside DIR and keeps going', async () => {
    const d = join(dir, 'locked');
    await mkdir(join(d, 'closed'), { recursive: true });
    await writeFile(join(d, 'ok.txt'), base.join(' '));
    await writeFile(join(d, 'secret.txt'), base.join(' '));
    await chmod(join(d, 'secret.txt'), 0o000);
    await chmod(join(d, 'closed'), 0o000);
    const r = await simsift(['scan', d], dir);
    await chmod(join(d, 'closed'), 0o755);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/skipped secret\.txt: unreadable \(EACCES\)/);
    expect(r.stderr).toMatch(/skipped closed: directory unreadable/);
  });
});

describe('simsift', { timeout: 120_000 }, () => {
  it('dispatches pairs to the pairs command', async () => {
    await writeFile(join(dir, 'fps.txt'), '0000000000000000\n0000000000000003\nffffffffffffffff\n');
    const r = await simsift(['pairs', join(dir, 'fps.txt'), '--k', '2'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('0 1 2\n');
    expect(r.stderr).toMatch(/search_seconds=/);
  });

  it('prints usage for --help and exits 2 without a command', async () => {
    const help = await simsift(['--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/fingerprint FILE/);
    expect((await simsift([], dir)).code).toBe(2);
    const scanHelp = await simsift(['scan', '--help'], dir);
    expect(scanHelp.code).toBe(0);
    expect(scanHelp.stdout).toMatch(/--weights/);
  });
});
