// The invariants of simsift apply under random hand-edited plans (seeded, mulberry32): whatever the plan
// says, (1) nothing outside the root and the quarantine changes, (2) every file that left the root is in
// the quarantine byte for byte, (3) no group loses its last file a plan row keeps or leaves to review, and
// no text such a row names loses its last copy, (4) --undo puts the root back byte for byte. A failure
// prints the seed and the shortest sequence of edits (of the base plan) that still fails.
import { mkdtemp, mkdir, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runApply } from '../../../src/cli/apply-command.ts';
import type { PlanRow } from '../../../src/core/export/plan.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';
import { runCommand } from './run-command.ts';
import { OTHER, TEXT } from './apply-texts.ts';
import { rowOf, writePlan } from './hand-plan.ts';

const TRIALS = Number(process.env.SIMSIFT_APPLY_TRIALS ?? 40);
const SEED = Number(process.env.SIMSIFT_APPLY_SEED ?? 20261126);

const TEXTS = [TEXT, OTHER, TEXT + 'A sentence added to make a near-duplicate.', 'A short note about the garden, the roses and the slugs. '.repeat(4)];
/** The folder: two or three copies of some texts, in subfolders; a folder link and a file link; a secret outside. */
const FILES: Array<[string, number]> = [['a/1.txt', 0], ['b/1.txt', 0], ['2.txt', 0], ['a/3.txt', 1], ['b/3.txt', 1], ['4.txt', 2], ['a/5.txt', 3], ['5.txt', 3]];
const OUTSIDE = 'outside/secret.txt';
const ROLES: Array<PlanRow['role']> = ['keep', 'remove', 'review'];
const MATCHES: Array<PlanRow['match']> = ['kept', 'identical', 'near-duplicate'];

/** A path as a hostile tester would spell one: the file it names (relative to the test folder) and the spelling. */
function spellings(clean: string): Array<[string, string]> {
  const real = `root/${clean}`;
  return [
    [real, clean],
    [real, `./${clean}`],
    [real, clean.replace('/', '//')],
    [real, clean.replace('/', '/./')],
    [real, clean.replace('/', '\\')],
    [real, `${clean}\0`],
    [real, `${clean}/`],
    [real, `a/../${clean}`],
    [real, `../root/${clean}`],
    [real, clean.toUpperCase()],
    [real, `ABS:${clean}`],
    [real, `alias/${clean}`],
    [OUTSIDE, '../outside/secret.txt'],
    [OUTSIDE, 'lnk/secret.txt'],
    [OUTSIDE, `ABS:../${OUTSIDE}`],
    ['root/a/1.txt', 'file-link.txt'],
  ];
}

type Edit =
  | { op: 'role'; row: number; role: PlanRow['role'] }
  | { op: 'group'; row: number; group: number }
  | { op: 'match'; row: number; match: PlanRow['match'] }
  | { op: 'spell'; row: number; spelling: number }
  | { op: 'add'; file: number; spelling: number; role: PlanRow['role']; group: number };

/** A row before hashing: the file its hashes come from (relative to the test folder) and what the plan says. */
interface Draft {
  file: string;
  path: string;
  group: number;
  role: PlanRow['role'];
  match: PlanRow['match'];
}

/** The plan scan would make: a group per text with copies, the first copy kept, the others removed. */
function basePlan(): Draft[] {
  const drafts: Draft[] = [];
  TEXTS.forEach((_, t) => {
    const members = FILES.filter(([, text]) => text === t);
    if (members.length < 2) return;
    members.forEach(([path], i) => drafts.push({ file: `root/${path}`, path, group: t + 1, role: i === 0 ? 'keep' : 'remove', match: i === 0 ? 'kept' : 'identical' }));
  });
  // The near-duplicate text, left to review in the group of the text it extends.
  drafts.push({ file: 'root/4.txt', path: '4.txt', group: 1, role: 'review', match: 'near-duplicate' });
  return drafts;
}

function randomEdits(next: () => number): Edit[] {
  const pick = <T>(list: readonly T[]): T => list[next() % list.length]!;
  const edits: Edit[] = [];
  for (let n = 1 + (next() % 6); n > 0; n--) {
    const row = next() % 16;
    edits.push(
      pick<Edit>([
        { op: 'role', row, role: pick(ROLES) },
        { op: 'group', row, group: 1 + (next() % 4) },
        { op: 'match', row, match: pick(MATCHES) },
        { op: 'spell', row, spelling: next() % 16 },
        { op: 'add', file: next() % FILES.length, spelling: next() % 16, role: pick(ROLES), group: 1 + (next() % 4) },
        { op: 'add', file: next() % FILES.length, spelling: 0, role: pick(ROLES), group: 1 + (next() % 4) },
      ]),
    );
  }
  return edits;
}

function edited(edits: readonly Edit[]): Draft[] {
  const drafts = basePlan().map((d) => ({ ...d }));
  for (const e of edits) {
    if (e.op === 'add') {
      const [file, path] = spellings(FILES[e.file]![0])[e.spelling]!;
      drafts.push({ file, path, group: e.group, role: e.role, match: e.role === 'keep' ? 'kept' : 'identical' });
      continue;
    }
    const d = drafts[e.row % drafts.length]!;
    if (e.op === 'role') d.role = e.role;
    else if (e.op === 'group') d.group = e.group;
    else if (e.op === 'match') d.match = e.match;
    else {
      const clean = d.file.startsWith('root/') ? d.file.slice('root/'.length) : FILES[0]![0];
      [d.file, d.path] = spellings(clean)[e.spelling]!;
    }
  }
  return drafts;
}

/** Every file (its bytes) and link (its target) under `folder`. */
async function snapshot(folder: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])) {
    const full = join(entry.parentPath, entry.name);
    if (entry.isFile()) out.set(full.slice(folder.length + 1), (await readFile(full)).toString('latin1'));
    else if (entry.isSymbolicLink()) out.set(full.slice(folder.length + 1), `link to ${await readlink(full)}`);
  }
  return out;
}

/** Runs one plan in a fresh folder; returns what broke (empty when every invariant held). */
async function trial(edits: readonly Edit[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'simsift-invariants-'));
  try {
    const root = join(dir, 'root');
    const q = join(dir, 'q');
    for (const [path, t] of FILES) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), TEXTS[t]!);
    }
    await mkdir(join(dir, 'outside'));
    await writeFile(join(dir, OUTSIDE), TEXT);
    await symlink('../outside', join(root, 'lnk'));
    await symlink('.', join(root, 'alias'));
    await symlink('a/1.txt', join(root, 'file-link.txt'));
    const drafts = edited(edits);
    const rows: PlanRow[] = [];
    for (const d of drafts) {
      const path = d.path.startsWith('ABS:') ? join(root, d.path.slice(4)) : d.path;
      rows.push(await rowOf(dir, path, d.group, d.role, d.match, join(dir, d.file)));
    }
    const plan = await writePlan(join(dir, 'plan.json'), rows, root);
    const before = await snapshot(dir);
    const applied = await runCommand(runApply, [plan, '--into', q]);
    const after = await snapshot(dir);
    const broken: string[] = [];
    if (applied.code === 2) return [`apply refused the plan: ${applied.err}`];
    // (1) and (2): a file of the root is unchanged or gone into the quarantine unchanged; nothing else changed.
    const gone = new Set<string>();
    for (const [path, bytes] of before) {
      const now = after.get(path);
      if (now === bytes) continue;
      const held = path.startsWith('root/') ? after.get(`q/${path.slice('root/'.length)}`) : undefined;
      if (now === undefined && held === bytes) gone.add(path.slice('root/'.length));
      else broken.push(`${path} changed or vanished (${now === undefined ? 'gone' : 'changed'}, ${held === undefined ? 'not' : 'differently'} in the quarantine)`);
    }
    for (const path of after.keys()) {
      if (!before.has(path) && !(path.startsWith('q/') && (gone.has(path.slice(2)) || /^q\/simsift-undo-.*\.json$/.test(path)))) broken.push(`${path} appeared`);
    }
    // (3): per group a file moved from, a file a keep or review row names stays; so does each text such a row names.
    const stays = (path: string) => before.has(`root/${path}`) && !gone.has(path);
    const text = (path: string) => before.get(`root/${path}`);
    const clean = (d: Draft) => (d.file.startsWith('root/') && d.path === d.file.slice(5) ? d.path : null);
    for (const path of gone) {
      for (const g of new Set(drafts.filter((d) => clean(d) === path && d.role === 'remove').map((d) => d.group))) {
        const held = drafts.filter((d) => d.group === g && d.role !== 'remove' && clean(d) !== null).map((d) => d.path);
        if (!held.some(stays)) broken.push(`group ${g} has no file it keeps or leaves to review left (${held.join(', ') || 'none in the plan'}) when ${path} moved`);
        if (held.some((k) => text(k) === text(path)) && ![...before.keys()].some((p) => p.startsWith('root/') && stays(p.slice(5)) && before.get(p) === text(path))) {
          broken.push(`the text of ${path} (kept in group ${g}) has no copy left in the root`);
        }
      }
    }
    // (4): undo puts the root back byte for byte.
    const log = /undo log: (.*simsift-undo-.*\.json)/.exec(applied.out)?.[1];
    if (log !== undefined) {
      const undone = await runCommand(runApply, ['--undo', log]);
      const restored = await snapshot(dir);
      for (const [path, bytes] of before) if (restored.get(path) !== bytes) broken.push(`after --undo (exit ${undone.code}), ${path} is not as before`);
      for (const path of restored.keys()) if (!before.has(path) && !path.startsWith('q/simsift-undo-')) broken.push(`after --undo, ${path} is left`);
    } else if (gone.size > 0) broken.push('files moved but apply printed no undo log');
    return broken;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The edits, one dropped at a time while the trial still fails: a shortest failing sequence (locally). */
async function shrink(edits: Edit[]): Promise<{ edits: Edit[]; broken: string[] }> {
  let best = { edits, broken: await trial(edits) };
  for (let i = 0; i < best.edits.length; ) {
    const fewer = best.edits.filter((_, j) => j !== i);
    const broken = await trial(fewer);
    if (broken.length > 0) best = { edits: fewer, broken };
    else i++;
  }
  return best;
}

describe('simsift apply under random hand-edited plans', () => {
  it(`keeps its invariants for ${TRIALS} plans (seed ${SEED}; SIMSIFT_APPLY_SEED and SIMSIFT_APPLY_TRIALS to vary)`, async () => {
    const next = mulberry32(SEED);
    for (let t = 0; t < TRIALS; t++) {
      const edits = randomEdits(next);
      if ((await trial(edits)).length === 0) continue;
      const small = await shrink(edits);
      const report = `seed ${SEED}, trial ${t}: shortest failing edits of the base plan:\n${small.edits.map((e) => '  ' + JSON.stringify(e)).join('\n')}\n${small.broken.join('\n')}`;
      console.error(report);
      expect.fail(report);
    }
  }, 120_000);
});
