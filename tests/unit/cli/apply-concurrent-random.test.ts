// Seeded random runs of simsift apply and --undo at the same time (issue #35): batches of concurrent
// commands over one folder, with plans that keep opposite copies and a plan of a folder inside it, into
// several quarantines. After every batch: nothing outside the folder and the quarantines changed, every
// file that left the folder is in a quarantine that lists it in an undo log, byte for byte, and every
// text still has a copy in the folder. At the end, undoing every log restores the folder byte for byte.
// A failure prints the seed, the trial and its sequence. SIMSIFT_CONCURRENT_TRIALS runs more.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { setImmediate } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runApply } from '../../../src/cli/apply-command.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';
import { runCommand } from './run-command.ts';
import { planOf, snapshot, writeFiles } from './hand-plan.ts';
import { unaccounted } from './concurrent-apply.ts';
import { TEXT } from './apply-texts.ts';

const TRIALS = Number(process.env.SIMSIFT_CONCURRENT_TRIALS ?? 6);
const SEED = Number(process.env.SIMSIFT_CONCURRENT_SEED ?? 20261127);
const GROUPS = 3;
const QUARANTINES = ['q1', 'q2', 'q3'];

type Op = { op: 'apply'; plan: number; into: number; pauses: number[] } | { op: 'undo'; log: number; pauses: number[] };

/** The texts, each twice in the folder and twice in its subfolder `sub`; plans over both that keep opposite copies. */
async function setUp(dir: string): Promise<{ root: string; plans: string[] }> {
  const root = join(dir, 'root');
  const map: Record<string, string> = {};
  for (let g = 1; g <= GROUPS; g++) {
    const text = `Text ${g}. ${TEXT}`;
    for (const path of [`a/${g}.txt`, `b/${g}.txt`, `sub/a/${g}.txt`, `sub/b/${g}.txt`]) map[path] = text;
  }
  await writeFiles(root, map);
  await writeFiles(join(dir, 'outside'), { 'secret.txt': 'not to be touched' });
  const specs = (prefix: string, keep: string, remove: string) => {
    const rows: Array<[string, number, 'keep' | 'remove']> = [];
    for (let g = 1; g <= GROUPS; g++) rows.push([`${prefix}${keep}/${g}.txt`, g, 'keep'], [`${prefix}${remove}/${g}.txt`, g, 'remove']);
    return rows;
  };
  const plans = [
    await planOf(join(dir, 'keep-a.json'), root, [...specs('', 'a', 'b'), ...specs('sub/', 'a', 'b')]),
    await planOf(join(dir, 'keep-b.json'), root, [...specs('', 'b', 'a'), ...specs('sub/', 'b', 'a')]),
    await planOf(join(dir, 'sub-keep-b.json'), join(root, 'sub'), specs('', 'b', 'a')),
  ];
  return { root, plans };
}

function randomBatches(next: () => number): Op[][] {
  const pauses = () => Array.from({ length: 6 }, () => next() % 4);
  const batches: Op[][] = [];
  for (let b = 2 + (next() % 4); b > 0; b--) {
    const batch: Op[] = [];
    for (let n = 1 + (next() % 3); n > 0; n--) {
      batch.push(next() % 3 === 0 ? { op: 'undo', log: next() % 8, pauses: pauses() } : { op: 'apply', plan: next() % 3, into: next() % QUARANTINES.length, pauses: pauses() });
    }
    batches.push(batch);
  }
  return batches;
}

/** Every undo log of the quarantines, oldest first by name. */
async function logsOf(dir: string): Promise<string[]> {
  const logs: string[] = [];
  for (const q of QUARANTINES) for (const name of await readdir(join(dir, q)).catch(() => [] as string[])) if (name.startsWith('simsift-undo-')) logs.push(join(dir, q, name));
  return logs.sort((x, y) => x.slice(x.lastIndexOf('/')).localeCompare(y.slice(y.lastIndexOf('/'))));
}

/** Runs one sequence in a fresh folder; returns what broke (empty when every invariant held). */
async function trial(batches: Op[][]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'simsift-concurrent-random-'));
  try {
    const { root, plans } = await setUp(dir);
    const before = await snapshot(root);
    const outside = await snapshot(join(dir, 'outside'));
    const planBytes = await Promise.all(plans.map((p) => readFile(p)));
    const quarantines = QUARANTINES.map((q) => join(dir, q));
    const broken: string[] = [];
    for (const [b, batch] of batches.entries()) {
      const logs = await logsOf(dir);
      const runs = await Promise.all(
        batch.map((op) => {
          // Each command yields to the others a few turns before each move, as the seed says.
          let move = 0;
          const hooks = { beforeMove: async () => {
            for (let t = op.pauses[move++ % op.pauses.length]!; t > 0; t--) await setImmediate();
          } };
          const argv = op.op === 'apply' ? [plans[op.plan]!, '--into', quarantines[op.into]!] : logs.length > 0 ? ['--undo', logs[op.log % logs.length]!] : null;
          return argv ? runCommand((args, io) => runApply(args, io, hooks), argv) : Promise.resolve({ code: 0, out: '', err: '' });
        }),
      );
      for (const [i, r] of runs.entries()) if (![0, 1, 75].includes(r.code)) broken.push(`batch ${b}, command ${i}: exit ${r.code}: ${r.err}`);
      broken.push(...(await unaccounted(root, quarantines, before)).map((line) => `after batch ${b}: ${line}`));
      const now = await snapshot(root);
      for (let g = 1; g <= GROUPS; g++) {
        const text = before[`a/${g}.txt`];
        if (!Object.values(now).includes(text!)) broken.push(`after batch ${b}: text ${g} has no copy left in the folder`);
      }
      if (JSON.stringify(await snapshot(join(dir, 'outside'))) !== JSON.stringify(outside)) broken.push(`after batch ${b}: a file outside changed`);
      for (const [i, p] of plans.entries()) if (!(await readFile(p)).equals(planBytes[i]!)) broken.push(`after batch ${b}: plan ${i} changed`);
      if (broken.length > 0) return broken;
    }
    // Every log undone, newest first, twice (a file moved again after an undo is in two logs).
    for (let round = 0; round < 2; round++) for (const log of (await logsOf(dir)).reverse()) await runCommand(runApply, ['--undo', log]);
    const restored = await snapshot(root);
    if (JSON.stringify(restored) !== JSON.stringify(before)) {
      const differ = [...new Set([...Object.keys(before), ...Object.keys(restored)])].filter((p) => before[p] !== restored[p]);
      broken.push(`after undoing every log, the folder differs at: ${differ.join(', ')}`);
    }
    for (const q of quarantines) {
      const left = Object.keys(await snapshot(q).catch(() => ({}))).filter((p) => !p.startsWith('simsift-undo-'));
      if (left.length > 0) broken.push(`after undoing every log, ${q} still holds ${left.join(', ')}`);
    }
    return broken;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('simsift apply and --undo at the same time', () => {
  it(`keep every file in the folder or in a log for ${TRIALS} random sequences (seed ${SEED}; SIMSIFT_CONCURRENT_SEED and SIMSIFT_CONCURRENT_TRIALS to vary)`, async () => {
    const next = mulberry32(SEED);
    for (let t = 0; t < TRIALS; t++) {
      const batches = randomBatches(next);
      const broken = await trial(batches);
      if (broken.length === 0) continue;
      const sequence = batches.map((batch, b) => `  batch ${b}: ${batch.map((op) => JSON.stringify(op)).join(' & ')}`).join('\n');
      const report = `seed ${SEED}, trial ${t}: the sequence\n${sequence}\nbroke:\n${broken.join('\n')}`;
      console.error(report);
      expect.fail(report);
    }
  }, 120_000);
});
