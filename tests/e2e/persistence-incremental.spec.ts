import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { generateCorpus } from '../fixtures/generate-corpus.ts';
import { PersistencePage, waitForSaved } from './persistence-page.ts';

test('files added to a restored corpus are matched against it and saved', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'simsift-persist-add-'));
  try {
    const corpus = generateCorpus(join(dir, 'corpus'), { files: 40, totalBytes: 40 * 3000, nearEvery: 10, exactEvery: 7, perFolder: 20, seed: 5 });
    // Two documents of the corpus that have no planted duplicate.
    const paired = new Set([...corpus.near, ...corpus.exact].flat());
    const [single1, single2] = [...Array(corpus.files).keys()].filter((i) => !paired.has(i) && !paired.has(i + 1));
    const added = join(dir, 'added');
    mkdirSync(added);
    const text = readFileSync(join(dir, 'corpus', corpus.pathOf(single1!)), 'utf8');
    const words = text.split(' ');
    for (const at of [40, 200, 330]) words[at] = 'zzzzzz';
    writeFileSync(join(added, 'edited.txt'), words.join(' '));
    copyFileSync(join(dir, 'corpus', corpus.pathOf(single2!)), join(added, 'copy.txt'));

    const app = new PersistencePage(page);
    await page.goto('/');
    await app.chooseFolder(join(dir, 'corpus'));
    await app.waitForState('done');
    const before = await app.figures();
    await waitForSaved(page);
    await page.reload();
    await app.waitForState('done');

    await app.chooseFolder(added);
    await app.waitForState('done');
    await expect(app.savedDocuments).toHaveText(`${corpus.files + 2} documents saved in this browser`);
    const after = await app.figures();
    expect(Number(after['Files scanned'])).toBe(corpus.files + 2);
    expect(Number(after['Near-duplicate groups'])).toBe(Number(before['Near-duplicate groups']) + 1);
    expect(Number(after['Exact-duplicate groups'])).toBe(Number(before['Exact-duplicate groups']) + 1);

    // And the merged corpus is what comes back.
    await waitForSaved(page);
    await page.reload();
    await app.waitForState('done');
    expect(await app.figures()).toEqual(after);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
