/**
 * A k the person chose (the slider's regroup) is kept by the next scan after a reload, as it is before
 * one: the saved settings say it was chosen, not the default a scan takes. A corpus saved before this
 * was kept (no such field) still takes the default at its next scan.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb, writeTransaction } from '../../../src/storage/database.ts';
import { DEFAULT_K } from '../../../src/scan/scan-store.ts';
import { edited, fileOf, settled, TEXTS, tabsPerTest, type Tab } from './corpus-model.ts';

const tab = tabsPerTest('chosen-k-after-reload');

const folder = () => [...TEXTS.map((text, i) => fileOf(`f/t${i}.txt`, text, 1_700_000_000_000 + i * 1000)), fileOf('f/near-t1.txt', edited(TEXTS[1]!, 7), 1_700_000_100_000)];

const CHOSEN = 10;

async function chooseFolder(t: Tab): Promise<number> {
  await t.session.start({ kind: 'file-list', files: folder(), sync: true });
  await settled(t);
  return t.store.getSnapshot().result!.k;
}

async function reload(t: Tab): Promise<Tab> {
  t.persistence.close();
  closeCorpusDb();
  return tab();
}

describe('a k the person chose', () => {
  it('is kept by the next scan after a reload', async () => {
    let t = await tab();
    expect(await chooseFolder(t)).toBe(DEFAULT_K);
    await t.session.regroup({ k: CHOSEN });
    await settled(t);
    // Before a reload the next scan keeps it.
    expect(await chooseFolder(t)).toBe(CHOSEN);
    t = await reload(t);
    expect(t.store.getSnapshot().result!.k).toBe(CHOSEN);
    // It was set back to the default here: the reloaded page took the saved k as the default's.
    expect(await chooseFolder(t)).toBe(CHOSEN);
  });

  it('saved before it was kept (no kAuto in the settings) is taken as the default: the next scan takes DEFAULT_K', async () => {
    let t = await tab();
    await chooseFolder(t);
    await t.session.regroup({ k: CHOSEN });
    await settled(t);
    t.persistence.close();
    closeCorpusDb();
    // The record as a version without the field wrote it (a k the default once gave by corpus size).
    await writeTransaction(['settings'], async (tx) => {
      const record = (await tx.objectStore('settings').get('current'))!;
      delete record.kAuto;
      await tx.objectStore('settings').put(record);
    });
    t = await tab();
    expect(t.store.getSnapshot().result!.k).toBe(CHOSEN);
    expect(await chooseFolder(t)).toBe(DEFAULT_K);
  });
});
