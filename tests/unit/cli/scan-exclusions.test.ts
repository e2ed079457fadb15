// simsift scan --exclude/--min-size/--max-size: excluded files are never read and are listed with the rule.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { runCommand } from './run-command.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('leaves out and lists files by pattern and size', async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-exclude-'));
  const text = 'the same text in every file of this folder, long enough to be fingerprinted as a document of its own here. '.repeat(3);
  await mkdir(join(dir, 'drafts'));
  await writeFile(join(dir, 'a.txt'), text);
  await writeFile(join(dir, 'b.txt'), text);
  await writeFile(join(dir, 'drafts/c.txt'), text);
  await writeFile(join(dir, 'run.log'), text);
  await writeFile(join(dir, 'tiny.txt'), 'x');
  const r = await runCommand(runScan, [dir, '--exclude', 'drafts/**', '--exclude', '*.log', '--min-size', '10', '--threads', '1']);
  expect(r.code, r.err).toBe(0);
  expect(r.err).toContain('excluded drafts/c.txt: pattern drafts/**\n');
  expect(r.err).toContain('excluded run.log: pattern *.log\n');
  expect(r.err).toContain('excluded tiny.txt: smaller than 10 bytes\n');
  // Only a.txt and b.txt were scanned: one identical pair.
  expect(r.out.split('\r\n').slice(1, -1)).toEqual(['1,a.txt,b.txt,0,1.0000,1.0000,near-duplicate,']);
  expect((await runCommand(runScan, [dir, '--max-size', 'lots'])).code).toBe(2);
});

// Issue #35: a pattern the matcher cannot take as written is refused by name, never silently matching
// nothing or running for minutes (a 131,000-character pattern over 2,000 files took 143 s). Failed before.
it('refuses an --exclude that is too long, or uses braces or escapes, saying what is supported', async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-exclude-'));
  const cases: Array<[string, RegExp]> = [
    ['*a'.repeat(65_500), /--exclude "\*a\*a.*\.\.\." is 131,000 characters long, over the 1,024 a pattern may have/],
    ['*.{log,tmp}', /--exclude "\*\.\{log,tmp\}" has braces, which are not supported: write one pattern per alternative \(supported: \*/],
    ['notes\\*.txt', /--exclude "notes\\\\\*\.txt" has a backslash: escapes are not supported/],
  ];
  for (const [pattern, message] of cases) {
    const r = await runCommand(runScan, [dir, '--exclude', pattern, '--threads', '1']);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(message);
  }
});
