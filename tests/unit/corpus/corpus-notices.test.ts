/**
 * What the corpus panel says is true of the corpus on show: a passing notice about the corpus before a
 * scan ends when the scan starts, and a folder chosen again names the files that came back.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fileOf, settled, TEXTS, tabsPerTest } from './corpus-model.ts';

const tab = tabsPerTest('corpus-notices');

const folder = (names: readonly string[]) => names.map((name, i) => fileOf(`f/${name}`, TEXTS[i]!, 1_700_000_000_000 + i));

describe('the corpus panel notices', () => {
  it('"The saved corpus was cleared" ends when the next scan starts', async () => {
    const t = await tab();
    await t.session.start({ kind: 'file-list', files: folder(['a.txt', 'b.txt']), sync: true });
    await settled(t);
    await t.persistence.clear();
    expect(t.persistence.getSnapshot().notice).toBe('The saved corpus was cleared.');
    const scan = t.session.start({ kind: 'file-list', files: folder(['a.txt', 'b.txt', 'c.txt']), sync: true });
    await scan;
    await settled(t);
    expect(t.persistence.getSnapshot().notice).toBeNull();
    expect(t.persistence.getSnapshot().documentCount).toBe(3);
  });

  it('a folder chosen again names the files that came back and the new ones', async () => {
    const t = await tab();
    await t.session.start({ kind: 'file-list', files: folder(['a.txt', 'b.txt', 'c.txt']), sync: true });
    await settled(t);
    // b.txt deleted on disk, the folder chosen again: it leaves, and the panel says so.
    const [a, , c] = folder(['a.txt', 'b.txt', 'c.txt']);
    await t.session.start({ kind: 'file-list', files: [a!, c!], sync: true });
    await settled(t);
    expect(t.persistence.getSnapshot().notice).toBe('2 files unchanged (same size and modification time: not read); 1 file is no longer in the folder and left the corpus: f/b.txt.');
    // b.txt restored (and d.txt added), the folder chosen again.
    await t.session.start({ kind: 'file-list', files: folder(['a.txt', 'b.txt', 'c.txt', 'd.txt']), sync: true });
    await settled(t);
    expect(t.persistence.getSnapshot().notice).toBe(
      '2 files unchanged (same size and modification time: not read); 1 file came back to the folder and joined the corpus again: f/b.txt; 1 new: f/d.txt.',
    );
  });
});
