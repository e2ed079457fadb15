/**
 * The quick check of a folder chosen again (#34), through the real controller, scan session and worker
 * APIs on fake-indexeddb: a file whose path, size and modification time equal its saved record is not
 * read; edited, touched and new files are; the result equals a fresh scan, and the times survive a reload.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb } from '../../../src/storage/database.ts';
import { edited, exportsOf, filesOf, freshExportsOf, settled, TEXTS, type Disk, type Tab, tabsPerTest } from './corpus-model.ts';

const tab = tabsPerTest('quick-check');

async function reload(t: Tab): Promise<Tab> {
  await settled(t);
  t.persistence.close();
  closeCorpusDb();
  return tab();
}

function startDisk(): Disk {
  const disk: Disk = new Map();
  TEXTS.forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
  disk.set('f/near-t1.txt', [edited(TEXTS[1]!, 7), 1_700_000_100_000]);
  return disk;
}

/** What a fresh scan (no saved corpus) of the folder exports. */
const freshExportOf = (disk: Disk) => freshExportsOf(filesOf(disk, []));

describe('the quick check of a folder chosen again', () => {
  it('reads only the edited, touched and new files; says so; equals a fresh scan; keeps the times after a reload', async () => {
    const disk = startDisk();
    let t = await tab();
    const first: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, first), sync: true });
    await settled(t);
    expect(first).toHaveLength(disk.size);

    // On disk: t2 edited (new time), t3 touched (same bytes, new time), t4 deleted, a new near copy of t5.
    disk.set('f/t2.txt', [edited(TEXTS[2]!, 11), 1_800_000_000_000]);
    disk.set('f/t3.txt', [TEXTS[3]!, 1_800_000_001_000]);
    disk.delete('f/t4.txt');
    disk.set('f/new.txt', [edited(TEXTS[5]!, 13), 1_800_000_002_000]);
    const second: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, second), sync: true });
    await settled(t);
    expect(second.sort()).toEqual(['f/new.txt', 'f/t2.txt', 'f/t3.txt']);
    expect(t.persistence.getSnapshot().notice).toBe(
      '6 files unchanged (same size and modification time: not read); 1 read again, contents unchanged; 1 changed: f/t2.txt; 1 new: f/new.txt; ' +
        '1 file is no longer in the folder and left the corpus: f/t4.txt.',
    );
    const expected = await freshExportOf(disk);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(expected);
    // The touched file's new time is on show and saved.
    t = await reload(t);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(expected);

    // Chosen again after the reload, nothing changed: nothing is read.
    const third: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, third), sync: true });
    await settled(t);
    expect(third).toEqual([]);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(expected);
  });

  it('without kept contents, a new near copy of an unchanged file is measured by reading that one file, after a reload', async () => {
    const disk = startDisk();
    let t = await tab();
    await t.persistence.setKeepContents(false);
    await t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
    await settled(t);
    t = await reload(t);
    disk.set('f/near-t4.txt', [edited(TEXTS[4]!, 21), 1_800_000_000_000]);
    const reads: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, reads), sync: true });
    await settled(t);
    // The new file, and for its pair's exact Jaccard the one unchanged file it pairs with: never the folder.
    expect(reads.sort()).toEqual(['f/near-t4.txt', 'f/t4.txt']);
    expect(t.persistence.getSnapshot().unmeasured).toBe(0);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(await freshExportOf(disk));
  });

  it('reads a file whose saved record has no modification time (0), and saves the time it has now', async () => {
    const disk = startDisk();
    for (const [p, [text]] of disk) disk.set(p, [text, 0]);
    let t = await tab();
    await t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
    await settled(t);
    for (const [p, [text]] of disk) disk.set(p, [text, 1_700_000_000_000]);
    const again: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, again), sync: true });
    await settled(t);
    expect(again).toHaveLength(disk.size);
    t = await reload(t);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(await freshExportOf(disk));
    const times = t.store.getSnapshot().result!.docs.modified!;
    expect([...times].every((x) => x === 1_700_000_000_000)).toBe(true);
  });

  it('"Re-read every file" makes the next choose of the folder read every file, once', async () => {
    const disk = startDisk();
    const t = await tab();
    await t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
    await settled(t);
    // An edit that kept the size and the time: the quick check cannot see it.
    const [text, time] = disk.get('f/t0.txt')!;
    disk.set('f/t0.txt', [text.replace('a', 'b'), time]);
    const quick: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, quick), sync: true });
    await settled(t);
    expect(quick).toEqual([]);
    t.persistence.rereadAll();
    const all: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, all), sync: true });
    await settled(t);
    expect(all).toHaveLength(disk.size);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(await freshExportOf(disk));
    const next: string[] = [];
    await t.session.start({ kind: 'file-list', files: filesOf(disk, next), sync: true });
    await settled(t);
    expect(next).toEqual([]);
  });
});
