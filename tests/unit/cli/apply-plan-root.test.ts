// A plan's recorded root must be absolute (issue #35): "" or a relative name was resolved from the current
// directory and files were moved from there. Run as a user runs it, in a folder holding what it names.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copiesWithPlan, simsiftProcess } from './concurrent-apply.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-plan-root-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a plan's root", () => {
  it('of "" or a relative name is refused with the reason, and nothing moves', async () => {
    // The plan's paths are valid both under A and, with "A/" in front, under the current directory.
    const planA = await copiesWithPlan(join(dir, 'A'), join(dir, 'a.json'), 2);
    const planHere = await copiesWithPlan(dir, join(dir, 'here.json'), 2, 'A/');
    for (const [plan, root] of [[planA, 'A'], [planHere, ''], [planHere, '.'], [planA, './A']] as const) {
      const value = JSON.parse(await readFile(plan, 'utf8'));
      value.root = root;
      await writeFile(plan, JSON.stringify(value));
      const r = await simsiftProcess(['apply', plan, '--into', join(dir, 'q')], dir);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`its root ${JSON.stringify(root)} must be an absolute path`);
      expect(existsSync(join(dir, 'A/copy/1.txt'))).toBe(true);
      expect(existsSync(join(dir, 'q'))).toBe(false);
    }
    // --root names the folder instead, relative to where the command runs, as a person types it.
    const r = await simsiftProcess(['apply', planA, '--into', join(dir, 'q'), '--root', 'A'], dir);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(dir, 'A/copy/1.txt'))).toBe(false);
  }, 60_000);
});
