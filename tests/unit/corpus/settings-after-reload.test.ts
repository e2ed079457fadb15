/**
 * Apply settings after a reload (#34): other fingerprint settings rescan the saved corpus from its kept
 * contents (the result equals a fresh scan with those settings, times included); without kept contents
 * nothing is scanned and the page says why, and the result keeps the settings it was made with.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb, writeTransaction } from '../../../src/storage/database.ts';
import type { SimHashSettings } from '../../../src/core/simhash/settings.ts';
import type { ScanResult } from '../../../src/scan/scan-result.ts';
import { edited, exportsOf, fileOf, filesOf, freshExportsOf, settled, TEXTS, tabsPerTest, type Disk } from './corpus-model.ts';
import { CONTAINMENT_DEFAULT_SETTING } from '../../../src/core/groups/contained-pairs.ts';

const tab = tabsPerTest('settings-after-reload');

const folder = () => [
  ...TEXTS.map((text, i) => fileOf(`f/t${i}.txt`, text, 1_700_000_000_000 + i * 1000)),
  fileOf('f/near-t1.txt', edited(TEXTS[1]!, 7), 1_700_000_100_000),
  fileOf('f/copy-t2.txt', TEXTS[2]!, 1_700_000_200_000),
];

const SINGLE_WORDS: SimHashSettings = { features: { kind: 'word', n: 1 }, weights: 'tf', stopWords: false };

/** A fresh scan of the folder with `settings` (a session with no saved corpus). */
const freshWith = (settings: SimHashSettings) => freshExportsOf(folder(), [], settings);

describe('Apply settings after a reload', () => {
  it('rescans the saved corpus from its kept contents: the result equals a fresh scan with the new settings', async () => {
    let t = await tab();
    await t.session.start({ kind: 'file-list', files: folder(), sync: true });
    await settled(t);
    t.persistence.close();
    closeCorpusDb();
    t = await tab();
    await t.session.rescan(SINGLE_WORDS);
    await settled(t);
    const shown = t.store.getSnapshot();
    expect(shown.rescanNote).toBeNull();
    expect(shown.result!.settings).toEqual(SINGLE_WORDS);
    expect(shown.result!.docs.count).toBe(folder().length);
    const actual = exportsOf(shown.result);
    expect(actual).toBe(await freshWith(SINGLE_WORDS));
  });

  it('without kept contents says the folder must be chosen again, and the result keeps its settings', async () => {
    let t = await tab();
    await t.persistence.setKeepContents(false);
    await t.session.start({ kind: 'file-list', files: folder(), sync: true });
    await settled(t);
    t.persistence.close();
    closeCorpusDb();
    t = await tab();
    const before = t.store.getSnapshot().result!.settings;
    await t.session.rescan(SINGLE_WORDS);
    await settled(t);
    const shown = t.store.getSnapshot();
    expect(shown.rescanNote).toMatch(/These settings were not applied.*Choose the folder again/);
    expect(shown.result!.settings).toEqual(before);
  });
});

/** The contained pairs a result lists, as "inner in outer". */
const listed = (r: ScanResult) => Array.from({ length: r.contained?.count ?? 0 }, (_, i) => `${r.docs.paths[r.contained!.inner[i]]} in ${r.docs.paths[r.contained!.outer[i]]}`);

/** The middle half of TEXTS[0]'s words: an excerpt of f/t0.txt. */
function excerptOfT0(): string {
  const words = TEXTS[0]!.split(' ');
  return words.slice(Math.floor(words.length / 4), Math.floor((3 * words.length) / 4)).join(' ');
}

/** The texts as f/t<i>.txt, and the excerpt of f/t0.txt when `withExcerpt`. */
function textsDisk(withExcerpt: boolean): Disk {
  const disk: Disk = new Map();
  TEXTS.forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
  if (withExcerpt) disk.set('f/part-t0.txt', [excerptOfT0(), 1_700_000_300_000]);
  return disk;
}

/** Scans `disk` with containment off in a new tab, saves it and closes the page. */
async function savedWithoutContainment(disk: Disk): Promise<void> {
  const t = await tab();
  t.store.update({ containmentThreshold: 0 });
  await t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
  await settled(t);
  t.persistence.close();
  closeCorpusDb();
}

describe('Contained documents and the saved corpus', () => {
  it('turned on over a corpus saved without them, reads the files again and finds them; a reload keeps the setting and the pairs', async () => {
    const files = () => [...folder(), fileOf('f/part-t0.txt', excerptOfT0(), 1_700_000_300_000)];
    let t = await tab();
    t.store.update({ containmentThreshold: 0 });
    await t.session.start({ kind: 'file-list', files: files(), sync: true });
    await settled(t);
    expect(listed(t.store.getSnapshot().result!)).toEqual([]);
    // The settings panel: containment turned on fingerprints again (the passages come from fingerprinting).
    t.store.update({ containmentThreshold: 0.9 });
    await t.session.rescan(t.store.getSnapshot().result!.settings);
    await settled(t);
    expect(listed(t.store.getSnapshot().result!)).toEqual(['f/part-t0.txt in f/t0.txt']);
    t.persistence.close();
    closeCorpusDb();
    t = await tab();
    await settled(t);
    const restored = t.store.getSnapshot().result!;
    expect(restored.containmentThreshold).toBe(0.9);
    expect(listed(restored)).toEqual(['f/part-t0.txt in f/t0.txt']);
  });

  it('a new scan with them on over a corpus saved without them reads only the new file, and finds the new excerpt inside a saved document (the saved ones sampled from their kept contents)', async () => {
    const disk = textsDisk(false);
    await savedWithoutContainment(disk);
    const t = await tab();
    await settled(t);
    // A setting stored (0, the default of an older SimSift included) is kept.
    expect(t.store.getSnapshot().containmentThreshold).toBe(0);
    t.store.update({ containmentThreshold: 0.9 });
    disk.set('f/part-t0.txt', [excerptOfT0(), 1_700_000_300_000]);
    const reads: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, reads), sync: true });
    await settled(t);
    expect(reads).toEqual(['f/part-t0.txt']);
    expect(listed(t.store.getSnapshot().result!)).toEqual(['f/part-t0.txt in f/t0.txt']);
  });

  it('a corpus whose saved view stored no setting (saved before containment) gets the default (off): its reload lists no contained documents and reads no file', async () => {
    await savedWithoutContainment(textsDisk(true));
    // As an older SimSift saved it: no setting and no passages in the saved view.
    await writeTransaction(['meta'], async (tx) => {
      const record = await tx.objectStore('meta').get('verified');
      if (record?.key !== 'verified') throw new Error('no saved view');
      const { containment, passageDocs, passageOffsets, passageKeys, ...older } = record;
      expect([containment, passageDocs, passageOffsets, passageKeys]).toEqual([0, undefined, undefined, undefined]);
      await tx.objectStore('meta').put(older);
    });
    closeCorpusDb();
    const t = await tab();
    await settled(t);
    const restored = t.store.getSnapshot().result!;
    expect(t.store.getSnapshot().containmentThreshold).toBe(CONTAINMENT_DEFAULT_SETTING);
    expect(restored.containmentThreshold).toBe(0);
    expect(listed(restored)).toEqual([]);
  });
});
