/**
 * Every output of `simsift` whole or absent, and every line it prints safe for a terminal, run as a
 * user runs it (node bin/simsift.js): a full filesystem, /dev/full as --out and as stdout, a reader
 * that goes away, SIGINT in the middle of a large write, FIFOs and devices in a folder and as
 * arguments, a name with ESC, names that are not UTF-8, and `=x.txt` beside `'=x.txt`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { mountSmallFilesystem, unmountSmallFilesystem } from './small-filesystem.ts';
import { join, resolve } from 'node:path';

const BIN = resolve('bin/simsift.js');

type Run = { code: number | null; signal: string | null; stdout: Buffer; stderr: string };

/** Runs `simsift ...args` in `cwd`; `stdout` is a file descriptor to write to, or captured. `onStart` sees the child. */
function simsift(args: (string | Buffer)[], cwd: string, options: { stdout?: number; onStart?: (child: ReturnType<typeof spawn>) => void; timeout?: number } = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...(args as string[])], { cwd, stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`simsift ${args.join(' ')} did not end within ${options.timeout ?? 60_000} ms (stderr: ${err})`));
    }, options.timeout ?? 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout: Buffer.concat(out), stderr: err });
    });
    options.onStart?.(child);
  });
}

/** Deterministic prose: `count` words. */
function prose(seed: number, count: number): string {
  let s = seed >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(`w${(s >>> 8) % 3000}`);
  }
  return out.join(' ');
}

/** A folder of `n` identical texts: n(n-1)/2 pairs in the CSV. */
function identicalFiles(folder: string, n: number): void {
  mkdirSync(folder, { recursive: true });
  const text = prose(7, 300);
  for (let i = 0; i < n; i++) writeFileSync(join(folder, `copy-${String(i).padStart(5, '0')}.txt`), text);
}

const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.simsift-tmp'));
/** No stack trace: no line of the form "    at fn (file:line)" and no "node:internal". */
const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/^\s+at |node:internal|Error: /m);

let dir: string;
let small: string | null = null;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'simsift-outputs-'));
  identicalFiles(join(dir, 'copies'), 60);
  small = mountSmallFilesystem(dir);
});

afterAll(() => {
  unmountSmallFilesystem(small);
  rmSync(dir, { recursive: true, force: true });
});

describe('outputs whole or absent', { timeout: 180_000 }, () => {
  it('scan --out on a full filesystem exits 1 with one line, the earlier file intact and no temporary file', async (context) => {
    if (!small) return context.skip();
    // 60 identical files: 1,770 rows, about 80 KB, more than the 64 KiB filesystem holds.
    writeFileSync(join(small, 'pairs.csv'), 'earlier result\n');
    const r = await simsift(['scan', 'copies', '--out', join(small, 'pairs.csv')], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^simsift scan: cannot write ".*pairs\.csv" \(ENOSPC: no space left on device\)$/)]);
    expect(readFileSync(join(small, 'pairs.csv'), 'utf8')).toBe('earlier result\n');
    expect(leftovers(small)).toEqual([]);
  });

  it('pairs --out and fingerprint --out on a full filesystem fail the same way', async (context) => {
    if (!small) return context.skip();
    const fps = join(dir, 'fps.txt');
    writeFileSync(fps, Array.from({ length: 400 }, () => '0123456789abcdef  some/long/path/name.txt\n').join(''));
    writeFileSync(join(small, 'pairs.txt'), 'earlier\n');
    const pairs = await simsift(['pairs', fps, '--k', '0', '--paths', '--out', join(small, 'pairs.txt')], dir);
    expect(pairs.code, pairs.stderr).toBe(1);
    expect(pairs.stderr.trim()).toMatch(/^simsift pairs: cannot write ".*pairs\.txt" \(ENOSPC: no space left on device\)$/);
    expect(readFileSync(join(small, 'pairs.txt'), 'utf8')).toBe('earlier\n');
    // A Parquet file of 60 rows would fit in the 64 KiB: fill the filesystem first.
    const filler = openSync(join(small, 'filler'), 'w');
    try {
      for (;;) writeSync(filler, Buffer.alloc(4096));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(filler);
    }
    const parquet = await simsift(['fingerprint', 'copies', '--format', 'parquet', '--out', join(small, 'fps.parquet')], dir);
    rmSync(join(small, 'filler'));
    // On a filesystem this full even the temporary file may not be made: then it fails before any work (exit 2).
    expect([1, 2], parquet.stderr).toContain(parquet.code);
    expect(parquet.stderr.trim()).toMatch(/^simsift fingerprint: cannot write (--out )?".*fps\.parquet" \(ENOSPC: no space left on device\)$/);
    // No temporary file is left beside either target (pairs.csv is the earlier test's intact file).
    expect(leftovers(small)).toEqual([]);
    expect(existsSync(join(small, 'fps.parquet'))).toBe(false);
  });

  it('--out /dev/full and stdout on /dev/full exit 1 with one line and no stack trace', async () => {
    const out = await simsift(['scan', 'copies', '--out', '/dev/full'], dir);
    expect(out.code, out.stderr).toBe(1);
    expect(out.stderr.trim()).toBe('simsift scan: cannot write "/dev/full" (ENOSPC: no space left on device)');
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['scan', 'copies'], ['fingerprint', 'copies']]) {
        const r = await simsift(args, dir, { stdout: full });
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr.trim().split('\n'), r.stderr).toEqual([`simsift ${args[0]}: cannot write stdout (ENOSPC: no space left on device)`]);
        noStackTrace(r.stderr);
      }
    } finally {
      closeSync(full);
    }
  });

  it('a reader that goes away (EPIPE) ends the output quietly with exit code 0', async () => {
    for (const args of [['scan', 'copies'], ['fingerprint', 'copies', 'copies', 'copies', 'copies']]) {
      const r = await simsift(args, dir, {
        // Like `| head -c 100`: read once, then close the pipe.
        onStart: (child) => child.stdout!.once('data', () => child.stdout!.destroy()),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/EPIPE|cannot write/);
      noStackTrace(r.stderr);
    }
  });

  it('SIGINT in the middle of a large --out write leaves the earlier file intact and no temporary file', async () => {
    // 1,500 identical files: 1,124,250 rows, about 60 MB of CSV.
    identicalFiles(join(dir, 'many'), 1500);
    const target = join(dir, 'big.csv');
    writeFileSync(target, 'earlier result\n');
    let sawPartial = 0;
    const r = await simsift(['scan', 'many', '--out', target], dir, {
      timeout: 170_000,
      onStart: (child) => {
        const poll = setInterval(() => {
          const temp = leftovers(dir)[0];
          // Interrupt once the temporary file holds a few megabytes: the write is under way.
          if (temp && statSync(join(dir, temp), { throwIfNoEntry: false })?.size! > 4_000_000) {
            sawPartial = statSync(join(dir, temp)).size;
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 5);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(sawPartial, r.stderr).toBeGreaterThan(4_000_000);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^simsift: interrupted by SIGINT; ".*big\.csv" not written \(left as it was\)$/);
    expect(readFileSync(target, 'utf8')).toBe('earlier result\n');
    expect(leftovers(dir)).toEqual([]);
    rmSync(join(dir, 'many'), { recursive: true });
  });
});

describe('files that are not regular, and names', { timeout: 180_000 }, () => {
  let odd: string;
  const esc = '\x1b]0;pwned\x07title.txt';
  beforeAll(() => {
    odd = join(dir, 'odd');
    mkdirSync(odd);
    writeFileSync(join(odd, 'a.txt'), prose(1, 300));
    writeFileSync(join(odd, esc), prose(1, 300));
    writeFileSync(join(odd, '=x.txt'), prose(2, 300));
    writeFileSync(join(odd, "'=x.txt"), prose(2, 300));
    // Two names that are not UTF-8, differing in one byte, with different texts.
    writeFileSync(Buffer.concat([Buffer.from(`${odd}/inv`), Buffer.from([0xff]), Buffer.from('.txt')]), prose(3, 300));
    writeFileSync(Buffer.concat([Buffer.from(`${odd}/inv`), Buffer.from([0xfe]), Buffer.from('.txt')]), prose(4, 300));
    // A file too large to compare, with ESC in its name: its "skipped" line quotes the name.
    writeFileSync(join(odd, `big\x1b[2J.txt`), '');
    truncateSync(join(odd, `big\x1b[2J.txt`), 64 * 1024 * 1024 + 1);
    execFileSync('mkfifo', [join(odd, 'fifo')]);
    execFileSync('mknod', [join(odd, 'null-device'), 'c', '1', '3']);
  });

  it('scan skips a FIFO and a device in the folder without opening them, counts and names them, escaped', async () => {
    const r = await simsift(['scan', 'odd', '--out', 'odd.csv'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('skipped fifo: Not a regular file (a FIFO)');
    expect(r.stderr).toContain('skipped null-device: Not a regular file (a character device)');
    expect(r.stderr).toContain('skipped big\\x1b[2J.txt: Too large');
    // No byte a terminal acts on, and the summary's counts are true.
    expect(r.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(r.stderr).toMatch(/9 files, .*: 6 fingerprinted \(4 distinct texts\), .* 1 too large, 0 unreadable, 0 hidden, 2 not regular files/);
    const csv = readFileSync(join(dir, 'odd.csv'));
    // The two names that are not UTF-8 are two files, each written with its own bytes; the other rows as before.
    const text = csv.toString('latin1');
    expect(text).toContain(`,'=x.txt,''=x.txt,`.replace(`'=x.txt,''=x.txt`, `''=x.txt,'=x.txt`));
    expect(text).toContain(`,a.txt,${esc},0,`.replace(`a.txt,${esc}`, `${esc},a.txt`));
    expect(text).not.toContain('inv\xff.txt');
    expect(text).not.toContain('inv\xfe.txt');
  });

  it('fingerprint takes a FIFO and a device as arguments without hanging, and prints every name escaped and distinct', async () => {
    const r = await simsift(['fingerprint', 'odd', 'odd/fifo', '/dev/null'], dir);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.toString('utf8').trimEnd().split('\n');
    expect(lines).toContain('-  odd/fifo');
    expect(lines).toContain('-  odd/null-device');
    expect(lines).toContain('-  /dev/null');
    expect(r.stderr).toContain('/dev/null: Not a regular file (a character device)');
    expect(lines).toContainEqual(expect.stringMatching(/^[0-9a-f]{16} {2}odd\/\\x1b\]0;pwned\\x07title\.txt$/));
    const ff = lines.find((l) => l.endsWith('odd/inv\\xff.txt'));
    const fe = lines.find((l) => l.endsWith('odd/inv\\xfe.txt'));
    expect(ff).toMatch(/^[0-9a-f]{16} /);
    expect(fe).toMatch(/^[0-9a-f]{16} /);
    expect(ff!.slice(0, 16)).not.toBe(fe!.slice(0, 16));
    expect(r.stdout.toString('latin1')).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]/);
    expect(r.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);

    // `pairs --paths` reads the escaped names back and prints them escaped again, each its own.
    writeFileSync(join(dir, 'odd-fps.txt'), r.stdout);
    const pairs = await simsift(['pairs', 'odd-fps.txt', '--k', '64', '--paths'], dir);
    expect(pairs.code, pairs.stderr).toBe(0);
    const out = pairs.stdout.toString('utf8');
    expect(out).toContain('odd/inv\\xff.txt');
    expect(out).toContain('odd/inv\\xfe.txt');
    expect(out).toContain('odd/\\x1b]0;pwned\\x07title.txt');
    expect(out).not.toMatch(/\x1b/);
  });
});
