import { describe, expect, it } from 'vitest';
import { createKeepMarksStore } from '../../../src/corpus/keep-marks-store.ts';
import { getSavedMarks } from '../../../src/storage/keep-marks.ts';
import { useFreshDatabase } from '../storage/storage-test-db.ts';

useFreshDatabase();

const paths = ['docs/a.txt', 'docs/b.txt', 'docs/c.txt'];
const nextTask = () => new Promise((done) => setTimeout(done, 0));

describe('the keep marks store', () => {
  it('shows a change at once and saves the changes of one task in a later task, as they stand last', async () => {
    const store = createKeepMarksStore(paths);
    let heard = 0;
    store.subscribe(() => heard++);
    store.setMarks(new Map([[0, true]]));
    store.setMarks(new Map([[0, true], [1, false]]));
    store.setIgnored(new Set([2]));
    store.setSeparated([[0, 1]]);
    // The readers see each change in the same task; nothing is written yet.
    expect(heard).toBe(4);
    expect(store.getSnapshot().marks).toEqual(new Map([[0, true], [1, false]]));
    expect(await getSavedMarks()).toEqual({ marks: [], ignored: [], separated: [] });
    await nextTask();
    await expect.poll(() => getSavedMarks()).toEqual({ marks: [['docs/a.txt', true], ['docs/b.txt', false]], ignored: ['docs/c.txt'], separated: [['docs/a.txt', 'docs/b.txt']] });
    // A new store for the same documents reads them back.
    const again = createKeepMarksStore(paths);
    await expect.poll(() => again.getSnapshot().ignored).toEqual(new Set([2]));
    expect(again.getSnapshot().marks).toEqual(new Map([[0, true], [1, false]]));
  });
});
