/** Folders for the concurrency tests of `simsift apply`: many groups of copies, and the check that every file is in the root or in a log. */
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseUndoLog } from '../../../src/cli/undo-log.ts';
import { TEXT } from './apply-texts.ts';
import { planOf, snapshot, writeFiles } from './hand-plan.ts';

/** Writes `groups` texts, each as PREFIXkeep/N.txt and PREFIXcopy/N.txt under `root`; returns a JSON plan keeping the first and removing the second. */
export async function copiesWithPlan(root: string, plan: string, groups: number, prefix = ''): Promise<string> {
  const map: Record<string, string> = {};
  const specs: Array<[string, number, 'keep' | 'remove']> = [];
  for (let g = 1; g <= groups; g++) {
    map[`${prefix}keep/${g}.txt`] = map[`${prefix}copy/${g}.txt`] = `Text number ${g}. ${TEXT}`;
    specs.push([`${prefix}keep/${g}.txt`, g, 'keep'], [`${prefix}copy/${g}.txt`, g, 'remove']);
  }
  await writeFiles(root, map);
  return planOf(plan, root, specs);
}

/**
 * What went missing: each file of `before` (root-relative path -> base64 bytes) must be in the root with
 * its bytes, or listed by exactly one undo log of the quarantines and held there with its bytes.
 */
export async function unaccounted(root: string, quarantines: readonly string[], before: Record<string, string>): Promise<string[]> {
  const now = await snapshot(root);
  // Root-relative path -> where the logs that list it say it is held (a log's root may be a folder inside `root`).
  const logged = new Map<string, string[]>();
  for (const q of quarantines) {
    const names = await readdir(q).catch(() => [] as string[]);
    for (const name of names.filter((n) => /^simsift-undo-.*\.json$/.test(n))) {
      const log = parseUndoLog(await readFile(join(q, name), 'utf8'));
      for (const m of log.moves) {
        const path = relative(root, join(log.root, m.path));
        logged.set(path, [...(logged.get(path) ?? []), join(q, m.path)]);
      }
    }
  }
  const lost: string[] = [];
  for (const [path, bytes] of Object.entries(before)) {
    if (now[path] === bytes) continue;
    const logs = logged.get(path) ?? [];
    const held = await Promise.all(logs.map(async (at) => (await readFile(at).catch(() => null))?.toString('base64') === bytes));
    if (now[path] !== undefined) lost.push(`${path}: changed in the root`);
    else if (!held.includes(true)) lost.push(`${path}: left the root and is held by no quarantine whose log lists it (logs: ${logs.length})`);
  }
  return lost;
}

/** `simsift ARGS` as a user runs it (node bin/simsift.js), in its own process. */
export function simsiftProcess(args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve('bin/simsift.js'), ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('close', (code) => done({ code, out, err }));
  });
}
