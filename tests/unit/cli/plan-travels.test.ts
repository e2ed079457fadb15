// Plans that travel (issue #37): the CSV plan records its root, so `simsift apply plan.csv` works from any
// folder; a plan re-saved by a spreadsheet still applies (or is refused naming the row and the reason);
// the app's plan, which records no root, needs --root; a root under which none of the plan's paths is
// named once, with the folder that fits, and exits 2, dry run included. Real files, real processes.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { planCsv, type PlanRow } from '../../../src/core/export/plan.ts';
import { runCommand } from './run-command.ts';
import { simsiftProcess } from './concurrent-apply.ts';
import { rowOf, snapshot, writeFiles } from './hand-plan.ts';
import { TEXT } from './apply-texts.ts';

let dir: string;
/** The folder that holds the scanned folder (the app's plan's root). */
let data: string;
let corpus: string;
let elsewhere: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-travels-'));
  data = join(dir, 'data');
  corpus = join(data, 'corpus');
  elsewhere = join(dir, 'elsewhere');
  await mkdir(elsewhere);
  const files: Record<string, string> = {};
  for (let g = 1; g <= 3; g++) files[`a/${g}.txt`] = files[`b/${g}.txt`] = `Text number ${g}. ${TEXT}`;
  await writeFiles(corpus, files);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `simsift scan corpus --plan FILE`; returns the plan's path. */
async function scanPlan(name: string): Promise<string> {
  const plan = join(dir, name);
  const scan = await runCommand(runScan, [corpus, '--plan', plan, '--threads', '1']);
  expect(scan.code, scan.err).toBe(0);
  return plan;
}

/** Files under `folder` other than undo logs. */
async function moved(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const names = await readdir(folder, { recursive: true, withFileTypes: true });
  return names.filter((e) => e.isFile() && !e.name.startsWith('simsift-undo-')).map((e) => e.name);
}

describe('a CSV plan', () => {
  it('records its root: apply runs from another folder without --root, and undo restores the folder byte for byte', async () => {
    const plan = await scanPlan('plan.csv');
    const before = await snapshot(corpus);
    const dry = await simsiftProcess(['apply', plan, '--into', join(dir, 'q'), '--dry-run'], elsewhere);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out.match(/^would move /gm)).toHaveLength(3);
    const run = await simsiftProcess(['apply', plan, '--into', join(dir, 'q')], elsewhere);
    expect(run.code, run.err).toBe(0);
    expect(await moved(join(dir, 'q'))).toHaveLength(3);
    const log = /undo log: (.*)$/m.exec(run.out)![1]!;
    const back = await simsiftProcess(['apply', '--undo', log], elsewhere);
    expect(back.code, back.err).toBe(0);
    expect(await snapshot(corpus)).toEqual(before);
  }, 120_000);

  it('re-saved by a spreadsheet (no BOM, CRLF, every cell quoted, columns reordered, rows sorted, empty rows) still applies', async () => {
    const plan = await scanPlan('plan.csv');
    const parsed = Papa.parse<string[]>((await readFile(plan, 'utf8')).replace(/^\uFEFF/, ''), { skipEmptyLines: true });
    const [header, ...records] = parsed.data;
    // The root column first, the path last, the others reversed; rows sorted by path, descending.
    const order = [header!.indexOf('root'), ...header!.map((_, j) => j).filter((j) => !['root', 'path'].includes(header![j]!)).reverse(), header!.indexOf('path')];
    const path = header!.indexOf('path');
    records.sort((x, y) => (x[path]! < y[path]! ? 1 : -1));
    const quoted = (cells: string[]) => order.map((j) => `"${cells[j]!.replace(/"/g, '""')}"`).join(',');
    const edited = join(dir, 'edited.csv');
    await writeFile(edited, [quoted(header!), ...records.map(quoted), ',,,,,,,,,,,', ''].join('\r\n'));
    const run = await simsiftProcess(['apply', edited, '--into', join(dir, 'q'), '--dry-run'], elsewhere);
    expect(run.code, run.err).toBe(0);
    expect(run.out.match(/^would move /gm)).toHaveLength(3);
  }, 120_000);

  it('edited wrongly is refused naming the spreadsheet row and the reason; nothing moves', async () => {
    const plan = await scanPlan('plan.csv');
    const text = await readFile(plan, 'utf8');
    const lines = text.split('\r\n');
    const cases: Array<[string, RegExp]> = [
      // A role a person typed: row 3 of the spreadsheet (the header is row 1).
      [lines.map((l, i) => (i === 2 ? l.replace(/,(keep|remove),/, ',delete,') : l)).join('\r\n'), /spreadsheet row 3\).*its role "delete" is not valid/],
      // Two roots: a row pasted from another plan.
      [lines.map((l, i) => (i === 3 ? l.replace(/,[^,]*$/, ',/somewhere/else') : l)).join('\r\n'), /spreadsheet row 4\) records the root "\/somewhere\/else", but spreadsheet row 2 records/],
      // A column deleted.
      [text.replace('content_hash', 'hash'), /the CSV has no column "content_hash"/],
    ];
    for (const [edited, reason] of cases) {
      await writeFile(join(dir, 'edited.csv'), edited);
      const run = await simsiftProcess(['apply', join(dir, 'edited.csv'), '--into', join(dir, 'q')], elsewhere);
      expect(run.code, run.err).toBe(2);
      expect(run.err).toMatch(reason);
      expect(existsSync(join(dir, 'q'))).toBe(false);
    }
  }, 120_000);

  it('applies under --root when given, saying so when it differs from the root the plan records', async () => {
    const plan = await scanPlan('plan.csv');
    const copy = join(dir, 'copy');
    await writeFiles(copy, Object.fromEntries(Object.entries(await snapshot(corpus)).map(([p, b]) => [p, Buffer.from(b, 'base64').toString('utf8')])));
    const run = await simsiftProcess(['apply', plan, '--into', join(dir, 'q'), '--root', copy], elsewhere);
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain(`--root ${copy} overrides the root the plan records (${corpus})`);
    expect(await moved(join(dir, 'q'))).toHaveLength(3);
    expect(Object.keys(await snapshot(corpus))).toHaveLength(6);
  }, 120_000);
});

/** The app's plan: paths start with the scanned folder's name, and no root (a browser does not know it). */
async function appPlan(): Promise<string> {
  const rows: PlanRow[] = [];
  for (let g = 1; g <= 3; g++) rows.push(await rowOf(data, `corpus/a/${g}.txt`, g, 'keep'), await rowOf(data, `corpus/b/${g}.txt`, g, 'remove'));
  const plan = join(dir, 'simsift-plan.csv');
  await writeFile(plan, planCsv(rows));
  return plan;
}

describe("the app's plan", () => {
  it('is refused without --root with the reason, and applies with it', async () => {
    const plan = await appPlan();
    const bare = await simsiftProcess(['apply', plan, '--into', join(dir, 'q'), '--dry-run'], elsewhere);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain("records no root (the app's plan");
    expect(bare.err).toContain('give --root DIR');
    const run = await simsiftProcess(['apply', plan, '--into', join(dir, 'q'), '--root', '.'], data);
    expect(run.code, run.err).toBe(0);
    expect(await moved(join(dir, 'q'))).toHaveLength(3);
  }, 120_000);
});

describe('a root that does not fit', () => {
  it('is named once with the folder that fits (its parent, or its subfolder), exit 2, dry run included', async () => {
    const cases: Array<[string, string, string]> = [
      // The app's plan with the scanned folder itself as the root: the paths are under its parent.
      [await appPlan(), corpus, data],
      // The CLI's plan (paths relative to corpus) with the folder that holds it: under its subfolder.
      [await scanPlan('plan.csv'), data, corpus],
    ];
    for (const [plan, root, fits] of cases) {
      for (const dry of [['--dry-run'], []]) {
        const run = await simsiftProcess(['apply', plan, '--into', join(elsewhere, 'q'), '--root', root, ...dry], elsewhere);
        expect(run.code, run.err).toBe(2);
        expect(run.err.match(/none of the plan's 6 paths/g), run.err).toHaveLength(1);
        expect(run.err).toContain(`they are under ${fits}: give --root ${fits}`);
        expect(run.out).not.toContain('missing');
        expect(existsSync(join(elsewhere, 'q'))).toBe(false);
      }
    }
  }, 120_000);

  it('recorded in the plan, with the folder gone elsewhere, is named too', async () => {
    const plan = await scanPlan('plan.json');
    await rm(join(corpus, 'a'), { recursive: true });
    await rm(join(corpus, 'b'), { recursive: true });
    await mkdir(join(corpus, 'other'));
    const run = await simsiftProcess(['apply', plan, '--into', join(elsewhere, 'q'), '--dry-run'], elsewhere);
    expect(run.code, run.err).toBe(2);
    expect(run.err).toContain(`the root the plan records: none of the plan's 6 paths (such as a/1.txt) is under ${corpus}, nor under its parent or its subfolders`);
  }, 120_000);
});
