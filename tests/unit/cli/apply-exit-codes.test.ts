// The exit codes of simsift apply and --undo are the README's table (issue #35), and its messages say
// what happened: each code of the table is produced here by the case it names, and the table lists no
// code these cases do not give. Real files in a temporary folder.
import { existsSync } from 'node:fs';
import { link, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApply } from '../../../src/cli/apply-command.ts';
import type { ApplyHooks } from '../../../src/cli/apply-signals.ts';
import { LOCK_NAME } from '../../../src/cli/apply-lock.ts';
import { runCommand } from './run-command.ts';
import { planOf, snapshot, writeFiles } from './hand-plan.ts';
import { unescapeName } from '../../../src/cli/terminal-names.ts';
import { copiesWithPlan } from './concurrent-apply.ts';

let dir: string;
let root: string;
let q: string;
let plan: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-exit-'));
  root = join(dir, 'root');
  q = join(dir, 'q');
  plan = await copiesWithPlan(root, join(dir, 'plan.json'), 3);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const apply = (argv: string[], hooks: ApplyHooks = {}) => runCommand((args, io) => runApply(args, io, hooks), argv);
const logOf = (out: string) => /undo log: (.*simsift-undo-.*\.json)/.exec(out)![1]!;
/** An apply stopped by `signal` just before its second move. */
const interrupted = (signal: 'SIGINT' | 'SIGTERM') => {
  let seen = 0;
  return apply([plan, '--into', q], { beforeMove: () => void (++seen === 2 && process.emit(signal)) });
};

/** Per command, per exit code: a case that must end with it. */
const CASES: Record<'apply' | 'undo', Record<number, () => Promise<{ code: number }>>> = {
  apply: {
    0: () => apply([plan, '--into', q]),
    1: async () => {
      await writeFile(join(root, 'copy/2.txt'), 'edited since the plan');
      return apply([plan, '--into', q]);
    },
    2: () => apply([plan]),
    75: async () => {
      await writeFile(join(root, LOCK_NAME), JSON.stringify({ pid: process.pid, host: 'another-host', command: 'simsift apply', started: '' }));
      return apply([plan, '--into', q]);
    },
    130: () => interrupted('SIGINT'),
    143: () => interrupted('SIGTERM'),
  },
  undo: {
    0: async () => runCommand(runApply, ['--undo', logOf((await apply([plan, '--into', q])).out)]),
    1: async () => {
      const log = logOf((await apply([plan, '--into', q])).out);
      await writeFile(join(root, 'copy/1.txt'), 'a new file where a moved one was');
      return runCommand(runApply, ['--undo', log]);
    },
    2: () => runCommand(runApply, ['--undo', plan]),
    75: async () => {
      const log = logOf((await apply([plan, '--into', q])).out);
      await writeFile(join(root, LOCK_NAME), JSON.stringify({ pid: process.pid, host: 'another-host', command: 'simsift apply', started: '' }));
      return runCommand(runApply, ['--undo', log]);
    },
    130: async () => {
      const log = logOf((await apply([plan, '--into', q])).out);
      let seen = 0;
      return runCommand((args, io) => runApply(args, io, { beforeMove: () => void (++seen === 2 && process.emit('SIGINT')) }), ['--undo', log]);
    },
    143: async () => {
      const log = logOf((await apply([plan, '--into', q])).out);
      let seen = 0;
      return runCommand((args, io) => runApply(args, io, { beforeMove: () => void (++seen === 2 && process.emit('SIGTERM')) }), ['--undo', log]);
    },
  },
};

/** The README's table of exit codes of apply and --undo: code -> [apply's meaning, undo's meaning]. */
async function readmeTable(): Promise<Map<number, [string, string]>> {
  const readme = await readFile('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('### Acting on duplicates'));
  const lines = section.slice(0, section.indexOf('\n### ')).split('\n');
  const start = lines.findIndex((l) => /^\| exit code \| apply \| apply --undo \|$/.test(l));
  expect(start, 'the table of exit codes under "Acting on duplicates"').toBeGreaterThanOrEqual(0);
  const table = new Map<number, [string, string]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [codes, forApply, forUndo] = line.split('|').slice(1, -1).map((c) => c.trim());
    for (const code of codes!.split(',')) table.set(Number(code.trim()), [forApply!, forUndo!]);
  }
  return table;
}

describe("the README's table of exit codes", () => {
  it('lists exactly the codes apply and --undo give, each given by its case', async () => {
    const table = await readmeTable();
    for (const command of ['apply', 'undo'] as const) {
      expect([...table.keys()].sort(), command).toEqual(Object.keys(CASES[command]).map(Number).sort());
    }
    for (const command of ['apply', 'undo'] as const) {
      for (const [code, run] of Object.entries(CASES[command])) {
        await rm(dir, { recursive: true, force: true });
        plan = await copiesWithPlan(root, join(dir, 'plan.json'), 3);
        const r = (await run()) as { code: number; out?: string; err?: string };
        expect(r.code, `${command}, the case of exit code ${code}: ${r.err}`).toBe(Number(code));
      }
    }
  }, 60_000);
});

describe('messages', () => {
  it('after a kill between the link and the unlink, undo finishes the move back of its own hard link', async () => {
    const before = await snapshot(root);
    const log = logOf((await apply([plan, '--into', q])).out);
    // The state a kill between link(original, quarantined) and unlink(original) leaves: one file, both names.
    await link(join(q, 'copy/1.txt'), join(root, 'copy/1.txt'));
    const r = await runCommand(runApply, ['--undo', log]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).not.toContain('reappeared');
    expect(existsSync(join(q, 'copy/1.txt'))).toBe(false);
    expect((await stat(join(root, 'copy/1.txt'))).nlink).toBe(1);
    expect(await snapshot(root)).toEqual(before);
  });

  it('--into a file that is not a folder says so', async () => {
    for (const into of ['/dev/full', plan]) {
      const r = await apply([plan, '--into', into]);
      expect(r.code).toBe(2);
      expect(r.err).toContain('is not a folder');
      expect(r.err).not.toContain('EEXIST');
    }
  });

  it('prints the NFC and the NFD spelling of one name differently, each read back as it is', async () => {
    const nfc = 'caf\u00e9 \uac01.txt';
    const nfd = nfc.normalize('NFD');
    await writeFiles(root, { 'keep.txt': 'the same text', [nfc]: 'the same text', [nfd]: 'the same text' });
    const twice = await planOf(join(dir, 'names.json'), root, [['keep.txt', 1, 'keep'], [nfc, 1, 'remove'], [nfd, 1, 'remove']]);
    const r = await apply([twice, '--into', q, '--dry-run']);
    const names = [...r.out.matchAll(/^would move (.*) -> /gm)].map((m) => m[1]!);
    expect(names).toHaveLength(2);
    // A terminal shows canonically equivalent text alike: the printed names must differ even so.
    expect(names[0]!.normalize('NFC')).not.toBe(names[1]!.normalize('NFC'));
    expect(names).toContain(nfc);
    expect(names.map(unescapeName).sort()).toEqual([nfc, nfd].sort());
  });
});
