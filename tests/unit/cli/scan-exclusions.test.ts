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
  expect(r.out.split('\r\n').slice(1, -1)).toEqual(['1,a.txt,b.txt,0,1.0000,1.0000']);
  expect((await runCommand(runScan, [dir, '--max-size', 'lots'])).code).toBe(2);
});
