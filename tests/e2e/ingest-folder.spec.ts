import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { IngestPage } from './ingest-page.ts';

test('choosing a folder fingerprints it and shows exact and near duplicates', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-folder-'));
  try {
    const corpus = generateCorpus(join(dir, 'corpus'), { files: 60, totalBytes: 60 * 3000, nearEvery: 10, exactEvery: 7, perFolder: 20, seed: 7 });
    const app = new IngestPage(page);
    await app.open();
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    // Every planted exact copy shares a group with its original, marked identical to the reference or
    // near-identical to it, and every planted near-duplicate is in a group with a file that has the
    // original's text (which may be an exact copy of the original), verified: its row shows the
    // distance and the exact Jaccard.
    const sameText = (doc: number) => {
      const docs = new Set([doc]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [a, b] of corpus.exact) {
          if (docs.has(a) !== docs.has(b)) {
            docs.add(a).add(b);
            grew = true;
          }
        }
      }
      return [...docs].map((d) => `corpus/${corpus.pathOf(d)}`);
    };
    const groups = await app.groups();
    const groupOf = (path: string) => groups.findIndex((g) => g.reference === path || g.members.some((m) => m.path === path));
    for (const [copy, original] of corpus.exact) {
      const g = groupOf(`corpus/${corpus.pathOf(copy)}`);
      expect(g, `${corpus.pathOf(copy)} is in a group`).toBeGreaterThanOrEqual(0);
      expect(groupOf(`corpus/${corpus.pathOf(original)}`)).toBe(g);
    }
    for (const [nearCopy, nearOriginal] of corpus.near) {
      const copyPath = `corpus/${corpus.pathOf(nearCopy)}`;
      const originals = sameText(nearOriginal);
      const group = groups.find((g) => {
        const paths = [g.reference, ...g.members.map((m) => m.path)];
        return paths.includes(copyPath) && paths.some((p) => originals.includes(p));
      });
      expect(group, `${copyPath} grouped with ${originals.join(' or ')}`).toBeDefined();
      // The near copy's row, or (when the near copy is the reference) an original's row, says how near.
      const member = group!.members.find((m) => m.path === copyPath) ?? group!.members.find((m) => originals.includes(m.path))!;
      expect(member.label).toMatch(/, distance \d+, similarity /);
    }
    await expect(app.progressStatus).toContainText(`Scanned ${corpus.files} files`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
