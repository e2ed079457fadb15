/**
 * A scan cancelled once its batches were saved, then resumed after a reload: the files it saved keep
 * their modification times. New files' times are asked once the results show (corpus/file-times.ts);
 * a cancelled scan shows none, and a resume reads only the files not saved yet, so before the fix
 * those documents stayed without a time (seed 432 of the model test with the search split on every corpus).
 * The cancel lands deterministically: the index worker holds the first search until the scan is cancelled.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb } from '../../../src/storage/database.ts';
import { edited, exportsOf, filesOf, freshExportsOf, settled, TEXTS, type Disk, tabsPerTest, workersHoldingFirstSearch } from './corpus-model.ts';

const tab = tabsPerTest('cancelled-scan-times');

describe('a scan cancelled after its batches were saved', () => {
  it('keeps the saved files their times: on show, after a reload, and once resumed (equal to a fresh scan)', async () => {
    const disk: Disk = new Map();
    TEXTS.forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
    disk.set('f/near-t1.txt', [edited(TEXTS[1]!, 7), 1_700_000_100_000]);
    const timeOf = (path: string) => disk.get(path)![1];
    const { workers, searching } = workersHoldingFirstSearch();
    let t = await tab(workers);
    const running = t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
    await searching;
    t.session.cancel();
    await running;
    await settled(t);
    // What the cancelled scan finished stays on show (searched again once the first search was let go).
    for (let i = 0; i < 500 && !t.store.getSnapshot().result; i++) await new Promise((r) => setTimeout(r, 2));
    const partial = t.store.getSnapshot().result!;
    expect(partial.partial).toBe(true);
    expect(Array.from(partial.docs.paths, (p, d) => [p, partial.docs.modified?.[d]])).toEqual(partial.docs.paths.map((p) => [p, timeOf(p)]));

    t.persistence.close();
    closeCorpusDb();
    t = await tab();
    const restored = t.store.getSnapshot().result!;
    expect(restored.docs.count).toBe(disk.size);
    expect(Array.from(restored.docs.paths, (p, d) => [p, restored.docs.modified?.[d]])).toEqual(restored.docs.paths.map((p) => [p, timeOf(p)]));

    // Resumed as the panel offers it (or the folder chosen again): nothing is read, and the corpus equals
    // a fresh scan, times included.
    const reads: string[] = [];
    if (t.persistence.getSnapshot().interrupted) await t.persistence.resume(filesOf(disk, reads));
    else await t.session.start({ kind: 'file-list', files: filesOf(disk, reads), sync: true });
    await settled(t);
    expect(reads).toEqual([]);
    expect(exportsOf(t.store.getSnapshot().result)).toBe(await freshExportsOf(filesOf(disk, [])));
  });
});
