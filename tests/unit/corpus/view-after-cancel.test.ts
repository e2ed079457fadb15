/**
 * The similarity threshold and grouping a person chose come back after a reload even when a cancelled
 * scan's batches left the saved pairs behind (they are saved with the pairs, which a later write makes
 * stale), as the references do (storage/verified-pairs.ts getSavedPins). Found by the model test (seed
 * 138 of its grouping run: the resumed scan grouped by reference again).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb } from '../../../src/storage/database.ts';
import { edited, filesOf, settled, TEXTS, type Disk, tabsPerTest, workersHoldingFirstSearch } from './corpus-model.ts';

const tab = tabsPerTest('view-after-cancel');

describe('the grouping values a person chose', () => {
  it('are back after a reload that follows a scan cancelled once its batches were saved', async () => {
    const disk: Disk = new Map();
    TEXTS.forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
    disk.set('f/near-t1.txt', [edited(TEXTS[1]!, 7), 1_700_000_100_000]);
    let t = await tab();
    await t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
    await settled(t);
    await t.session.regroup({ similarityThreshold: 0.7, grouping: 'components' });
    await settled(t);
    t.persistence.close();
    closeCorpusDb();

    // A new file: the folder chosen again commits its batch, and the cancel lands while the scan searches.
    disk.set('f/near-t2.txt', [edited(TEXTS[2]!, 9), 1_700_000_200_000]);
    const { workers, searching, arm } = workersHoldingFirstSearch(false);
    t = await tab(workers);
    expect(t.store.getSnapshot().result!.grouping).toBe('components');
    arm();
    const running = t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
    await searching;
    t.session.cancel();
    await running;
    await settled(t);
    t.persistence.close();
    closeCorpusDb();

    t = await tab();
    expect(t.persistence.getSnapshot().documentCount).toBe(disk.size);
    const { similarityThreshold, grouping, result } = t.store.getSnapshot();
    expect([similarityThreshold, grouping]).toEqual([0.7, 'components']);
    expect([result!.similarityThreshold, result!.grouping]).toEqual([0.7, 'components']);
  });
});
