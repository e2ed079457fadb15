// Issue #35: no simsift command reaches for the network. Every command `simsift --help` lists runs here
// (each engine, each input and output format, the apply, its dry run and its undo) with HOME in a fresh
// folder and proxies on a closed local port, under two guards: no-network-guard.cjs, preloaded into the
// process and its threads, records and refuses any socket, DNS, HTTP or fetch call made from JavaScript,
// and strace records the network system calls of every thread, native code (DuckDB) included.
// The first test proves each guard catches a real attempt; the second that no command makes one.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode } from '../run-node.ts';

const GUARD = resolve('tests/unit/cli/no-network-guard.cjs');

/** True when strace is installed and may trace here (containers can forbid ptrace). */
function straceWorks(): boolean {
  try {
    execFileSync('strace', ['-f', '-qq', '--seccomp-bpf', '-e', 'trace=%network', '-o', '/dev/null', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const STRACE = straceWorks();
if (!STRACE) console.warn('no-network.test: strace is missing or cannot trace here, so native code goes unwatched (.ci/run installs strace)');

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** What a guarded run saw: the JavaScript guard's log, and the network system calls strace recorded. */
type Guarded = { code: number | null; out: string; err: string; jsAttempts: string; syscalls: string[] };

/**
 * A network system call in strace's record: a socket of an Internet, netlink (address lookup) or packet
 * family, or a connection or datagram to an address. An anonymous local pair (socketpair(AF_UNIX), the
 * pipes to a child such as esbuild's, when bin/simsift.js rebuilds the bundle) is none.
 */
const NETWORK = /AF_INET|AF_NETLINK|AF_PACKET|\bconnect\(|\bsendto\(.*sa_family|\bsendmsg\(.*msg_name=\{/;

let runs = 0;
/**
 * Runs `command args` in `cwd` under both guards (`js: false` leaves the preload out, to test strace
 * alone); HOME is `home`, every proxy a closed local port.
 */
async function guarded(command: string, args: string[], cwd: string, home: string, js = true): Promise<Guarded> {
  const n = ++runs;
  const jsLog = join(home, `..`, `network-${n}.log`);
  const trace = join(home, '..', `strace-${n}.log`);
  const closed = 'http://127.0.0.1:9';
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    SIMSIFT_NETWORK_LOG: jsLog,
    ...(js ? { NODE_OPTIONS: `--require ${GUARD}` } : {}),
    ...Object.fromEntries(['http_proxy', 'https_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'].map((p) => [p, closed])),
  };
  // -f: every thread and child; only network system calls; no signal or exit lines.
  const argv = STRACE ? ['-f', '-qq', '--seccomp-bpf', '-e', 'trace=%network', '-e', 'signal=none', '-o', trace, command, ...args] : [command, ...args];
  const r = await runNode(argv, { cwd, env, hangMs: 120_000, program: STRACE ? 'strace' : command });
  const jsAttempts = existsSync(jsLog) ? await readFile(jsLog, 'utf8') : '';
  const syscalls = STRACE && existsSync(trace) ? (await readFile(trace, 'utf8')).split('\n').filter((l) => NETWORK.test(l)) : [];
  return { ...r, jsAttempts, syscalls };
}

/** `node bin/simsift.js ...args` under both guards. */
const simsift = (args: string[], cwd: string, home: string) => guarded(process.execPath, [resolve('bin/simsift.js'), ...args], cwd, home);

async function setUp(): Promise<{ d: string; home: string }> {
  dir = await mkdtemp(join(tmpdir(), 'simsift-no-network-'));
  const home = join(dir, 'home');
  await mkdir(home);
  await mkdir(join(dir, 'root', 'sub'), { recursive: true });
  const text = 'the quick brown fox jumps over the lazy dog and keeps running through the field of tall grass until evening comes and the sun sets over the hills';
  await writeFile(join(dir, 'root', 'a.txt'), `${text} one\n`);
  await writeFile(join(dir, 'root', 'b.txt'), `${text} one\n`);
  await writeFile(join(dir, 'root', 'sub', 'c.txt'), `${text} two\n`);
  await writeFile(join(dir, 'root', 'd.txt'), 'something else entirely, a different text about the weather in the mountains during a long cold winter\n');
  return { d: dir, home };
}

describe('no command reaches for the network (#35)', () => {
  it('each guard catches a real attempt: JavaScript calls in the process and its threads, system calls of native code', async () => {
    const { d, home } = await setUp();
    const attempts: Array<[string, RegExp]> = [
      ["require('node:net').connect(9, '127.0.0.1')", /main net\.Socket\.connect|main net\.connect/],
      ["require('node:dns').lookup('example.invalid', () => {})", /main dns\.lookup\("example\.invalid"/],
      ["require('node:dns').promises.resolve4('example.invalid')", /main dns\.promises\.resolve4/],
      ["require('node:http').get('http://127.0.0.1:9/')", /main http\.get/],
      ["fetch('http://127.0.0.1:9/').catch(() => {})", /main globalThis\.fetch/],
      ["new (require('node:worker_threads').Worker)(\"require('node:net').connect(9, '127.0.0.1')\", { eval: true, execArgv: [] })", /worker net\./],
    ];
    for (const [code, seen] of attempts) {
      const r = await guarded(process.execPath, ['-e', code], d, home);
      expect(r.jsAttempts, code).toMatch(seen);
    }
    if (!STRACE) return;
    // Without the preload, a connect made by native code (bash's /dev/tcp) or by a worker thread is in strace's record.
    const native = await guarded('bash', ['-c', 'exec 3<>/dev/tcp/127.0.0.1/9 || true'], d, home, false);
    expect(native.syscalls.join('\n')).toMatch(/connect\(\d+, \{sa_family=AF_INET, sin_port=htons\(9\)/);
    const thread = await guarded(process.execPath, ['-e', attempts[5]![0]], d, home, false);
    expect(thread.jsAttempts).toBe('');
    expect(thread.syscalls.join('\n')).toMatch(/connect\(\d+, \{sa_family=AF_INET, sin_port=htons\(9\)/);
  }, 120_000);

  it('every command of simsift --help, each engine and format, apply and undo, makes no network call', async () => {
    const { d, home } = await setUp();
    const help = await simsift(['--help'], d, home);
    expect(help.code, help.err).toBe(0);
    const listed = [...help.out.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(0);
    const runsOf: string[][] = [
      ['fingerprint', 'root', '--threads', '2'],
      ['fingerprint', 'root', '--out', 'fp.txt'],
      ['fingerprint', 'root', '--format', 'parquet', '--out', 'fp.parquet', '--threads', '2'],
      ['pairs', 'fp.txt', '--k', '8'],
      ['pairs', 'fp.parquet', '--k', '8', '--paths', '--out', 'pairs.parquet'],
      ['pairs', 'fp.txt', '--k', '8', '--threads', '2', '--blocks', '9'],
      ['pairs', 'fp.txt', '--k', '8', '--engine', 'duckdb'],
      ['pairs', 'fp.parquet', '--k', '8', '--engine', 'duckdb', '--paths'],
      ['scan', 'root', '--k', '8', '--pairs', 'pairs.parquet', '--out', 'scan-pairs.csv'],
      ['scan', 'root', '--threads', '2', '--out', 'scan.csv', '--plan', 'plan.csv', '--cache', 'cache.bin'],
      ['scan', 'root', '--threads', '2', '--out', 'scan.csv', '--cache', 'cache.bin'],
      ['apply', 'plan.csv', '--into', 'q', '--dry-run'],
      ['apply', 'plan.csv', '--into', 'q'],
    ];
    const ran = new Set<string>();
    for (const args of runsOf) {
      const r = await simsift(args, d, home);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
      expect(r.jsAttempts, args.join(' ')).toBe('');
      expect(r.syscalls.join('\n'), args.join(' ')).toBe('');
      ran.add(args[0]!);
    }
    const log = (await readdir(join(d, 'q'))).find((name) => name.startsWith('simsift-undo-'))!;
    const undo = await simsift(['apply', '--undo', join('q', log)], d, home);
    expect(undo.code, undo.err).toBe(0);
    expect([undo.jsAttempts, undo.syscalls.join('\n')]).toEqual(['', '']);
    expect(await readFile(join(d, 'root', 'b.txt'), 'utf8')).toMatch(/ one\n$/);
    // Every command the help lists was run; nothing was written into HOME.
    expect(listed.filter((c) => !ran.has(c))).toEqual([]);
    expect(await readdir(home)).toEqual([]);
  }, 600_000);
});
