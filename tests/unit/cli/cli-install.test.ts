/**
 * A command that runs (issue #37): the project installed as README.md says (`npm install -g .` from the
 * clone, here into a temporary prefix, offline), `simsift` runs from any folder, and the command the keep
 * panel shows (where the page cannot move files itself) runs as shown in the folder it names.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planJson, type PlanRow } from '../../../src/core/export/plan.ts';
import { QuarantineMove } from '../../../src/ui/keep/QuarantineMove.tsx';
import { rowOf, writeFiles } from './hand-plan.ts';
import { TEXT } from './apply-texts.ts';

let dir: string;
let prefix: string;

/** Runs `command` through a shell in `cwd`, with the install's bin folder on PATH and npm kept offline. */
function sh(command: string, cwd: string): Promise<{ code: number; out: string; err: string }> {
  const env = { ...process.env, PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH}`, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_yes: 'false' };
  return new Promise((done) => {
    execFile('sh', ['-c', command], { cwd, env, timeout: 240_000 }, (error, out, err) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out, err });
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-install-'));
  // A copy of the clone (what `git clone` gives, node_modules linked as `npm install` would have made it).
  const project = join(dir, 'clone');
  for (const part of ['bin', 'src', 'kernels', 'package.json']) await cp(resolve(part), join(project, part), { recursive: true });
  await symlink(resolve('node_modules'), join(project, 'node_modules'));
  prefix = join(dir, 'prefix');
  await mkdir(join(prefix, 'lib'), { recursive: true });
  const install = await sh(`npm install -g --prefix "${prefix}" --no-audit --no-fund .`, project);
  expect(install.code, install.err).toBe(0);
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('simsift installed with npm install -g', { timeout: 300_000 }, () => {
  it('runs from another folder', async () => {
    const help = await sh('simsift --help', dir);
    expect(help.code, help.err).toBe(0);
    expect(help.out).toContain('usage: simsift COMMAND');
  });

  it("runs the keep panel's command as shown, in the folder that holds the scanned folder", async () => {
    const data = join(dir, 'data');
    const files: Record<string, string> = {};
    for (let g = 1; g <= 2; g++) files[`corpus/a/${g}.txt`] = files[`corpus/b/${g}.txt`] = `Text number ${g}. ${TEXT}`;
    await writeFiles(data, files);
    const rows: PlanRow[] = [];
    for (let g = 1; g <= 2; g++) rows.push(await rowOf(data, `corpus/a/${g}.txt`, g, 'keep'), await rowOf(data, `corpus/b/${g}.txt`, g, 'remove'));
    // The app's plan (no root), saved where the panel's command expects it.
    await writeFile(join(data, 'simsift-plan.json'), planJson(rows));
    // The panel where the page cannot move the files itself (a browser without a folder picker): it shows the command. It
    // looks for the folder picker on `window`, which Node has not.
    (globalThis as { window?: unknown }).window ??= {};
    const html = renderToStaticMarkup(createElement(QuarantineMove, { folderName: 'corpus', scanRoot: null, scanned: {}, planRows: async () => rows, planName: 'simsift-plan.json', marked: 2 }));
    expect(html).toContain('in the folder that holds');
    const shown = [...html.matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1]!.replace(/&#x27;/g, "'").replace(/&amp;/g, '&'));
    const dry = shown.find((c) => c.includes(' apply ') && c.endsWith('--dry-run'))!;
    const dryRun = await sh(dry, data);
    expect(dryRun.code, `${dry}\n${dryRun.err}`).toBe(0);
    expect(dryRun.out.match(/^would move /gm)).toHaveLength(2);
    // "then without --dry-run"; the undo command with the log it names.
    const run = await sh(dry.replace(/ --dry-run$/, ''), data);
    expect(run.code, run.err).toBe(0);
    const log = /undo log: (.*)$/m.exec(run.out)![1]!;
    const undo = shown.find((c) => c.includes('--undo'))!;
    const back = await sh(undo.replace('LOG', `"${log}"`), data);
    expect(back.code, `${undo}\n${back.err}`).toBe(0);
    expect((await readdir(join(data, 'corpus/b'))).sort()).toEqual(['1.txt', '2.txt']);
  });
});
