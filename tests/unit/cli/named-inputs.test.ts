// Issue #35: an output never lands over an input or another output, and a command reads only what it
// was named. Every test here failed on the code before its fix.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFingerprint } from '../../../src/cli/fingerprint-command.ts';
import { runPairs } from '../../../src/cli/pairs-command.ts';
import { runScan } from '../../../src/cli/scan-command.ts';
import { runCommand } from './run-command.ts';

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
  /** Mostly UTF-8 prose (well-formed é's) with one Latin-1 byte: `caf` then `last`. */
  const damaged = (last: number) =>
    Buffer.concat([Buffer.from(`${'un résumé de la réunion, les décisions prises et les étapes à venir pour chacun. '.repeat(6)}caf`), Buffer.from([last]), Buffer.from(' au lait\n')]);

  it('two texts that differ only in damaged bytes are never identical copies; byte-identical ones still are', async () => {
    const d = await setUp();
    const root = join(d, 'lossy');
    await mkdir(root);
    await writeFile(join(root, 'e9.txt'), damaged(0xe9));
    await writeFile(join(root, 'e8.txt'), damaged(0xe8));
    await writeFile(join(root, 'e8-copy.txt'), damaged(0xe8));
    const plan = join(d, 'plan.json');
    const r = await runCommand(runScan, [root, '--plan', plan, '--threads', '1']);
    expect(r.code, r.err).toBe(0);
    const rows = (JSON.parse(await readFile(plan, 'utf8')) as { rows: Array<{ path: string; match: string; role: string; content_hash: string }> }).rows;
    const byPath = new Map(rows.map((row) => [row.path, row]));
    // e8.txt and e8-copy.txt are the same bytes: one keeps, the other is its identical copy.
    expect(byPath.get('e8.txt')!.content_hash).toBe(byPath.get('e8-copy.txt')!.content_hash);
    expect([byPath.get('e8.txt')!.match, byPath.get('e8-copy.txt')!.match].sort()).toEqual(['identical', 'kept']);
    // e9.txt decodes to the same text, but its bytes differ: at most a near-duplicate, never removed.
    expect(byPath.get('e9.txt')!.content_hash).not.toBe(byPath.get('e8.txt')!.content_hash);
    expect(byPath.get('e9.txt')!.match).toBe('near-duplicate');
    expect(byPath.get('e9.txt')!.role).not.toBe('remove');
  });
});
