/**
 * The prebuilt CLI (bin/build-cli.js): in a copy of the project (node_modules linked), `simsift` builds
 * its bundle on first run, prints what the TypeScript sources print, and rebuilds when a source changes.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let project: string;
let corpus: string;

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(project, 'bin/simsift.js'), ...args], { cwd: corpus, timeout: 90_000, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'simsift-bundle-'));
  for (const part of ['bin', 'src', 'package.json']) await cp(resolve(part), join(project, part), { recursive: true });
  await symlink(resolve('node_modules'), join(project, 'node_modules'));
  corpus = join(project, 'corpus');
  await mkdir(join(corpus, 'sub'), { recursive: true });
  const words = Array.from({ length: 400 }, (_, i) => `word${(i * 7919) % 1000}`);
  await writeFile(join(corpus, 'a.txt'), words.join(' '));
  await writeFile(join(corpus, 'sub', 'b.html'), `<p>${words.slice(0, 300).join(' ')}</p>`);
  await writeFile(join(corpus, 'short.txt'), 'two words');
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe('the bundled simsift', { timeout: 180_000 }, () => {
  it('is built on first run, runs its worker threads from the bundle, and prints what the sources print', async () => {
    const bundled = await run(['fingerprint', '--threads', '2', '.']);
    const current = JSON.parse(await readFile(join(project, 'dist-cli/current.json'), 'utf8')) as { dir: string };
    expect(await readdir(join(project, 'dist-cli', current.dir))).toEqual(expect.arrayContaining(['main.mjs', 'ingest.thread.mjs', 'index.thread.mjs', 'pairs.thread.mjs', 'pairs.thread.cjs', 'extract.thread.mjs', 'parquet.thread.mjs']));
    const source = await run(['fingerprint', '--threads', '2', '.'], { SIMSIFT_FROM_SOURCE: '1' });
    expect(bundled.code).toBe(0);
    expect(bundled.stdout.split('\n')).toHaveLength(4);
    expect(bundled).toEqual(source);
    // The scan's summary on stderr ends with its time, so only the CSV and the exit code are compared.
    const scan = await run(['scan', '.']);
    const scanFromSource = await run(['scan', '.'], { SIMSIFT_FROM_SOURCE: '1' });
    expect(scan.code).toBe(0);
    expect(scan.stdout).toMatch(/^\uFEFFgroup,path_a,path_b/);
    expect([scan.code, scan.stdout]).toEqual([scanFromSource.code, scanFromSource.stdout]);
    // The pair search's threads (pairs.thread) from the bundle: the summary on stderr ends with times too.
    await writeFile(join(project, 'fingerprints.txt'), bundled.stdout);
    const pairsArgs = ['pairs', join(project, 'fingerprints.txt'), '--k', '30', '--blocks', '32', '--threads', '2', '--paths'];
    const pairs = await run(pairsArgs);
    const pairsFromSource = await run(pairsArgs, { SIMSIFT_FROM_SOURCE: '1' });
    expect(pairs.code).toBe(0);
    expect(pairs.stderr).toMatch(/ threads=2 thread_tables=\d+(\+\d+)? pairs=\d+ /);
    expect([pairs.code, pairs.stdout]).toEqual([pairsFromSource.code, pairsFromSource.stdout]);
  });

  it('rebuilds when a source it was built from changes', async () => {
    await run(['--help']);
    const before = JSON.parse(await readFile(join(project, 'dist-cli/current.json'), 'utf8')) as { dir: string };
    const main = join(project, 'src/cli/main.ts');
    await writeFile(main, (await readFile(main, 'utf8')).replace('commands:', 'the commands:'));
    const help = await run(['--help']);
    expect(help.stdout).toMatch(/^the commands:/m);
    const after = JSON.parse(await readFile(join(project, 'dist-cli/current.json'), 'utf8')) as { dir: string };
    expect(after.dir).not.toBe(before.dir);
  });
});
