/**
 * A tab closed (the page unloaded) while its scan ran: the batches it committed hold the new files
 * without a modification time (new files are asked theirs once the results show, file-times.ts, which
 * never happens), and nothing runs at unload to ask them. A resume reads only the files not saved yet
 * (it must stay cheap: reading the saved ones again would make it a whole scan). The next time the
 * folder is chosen, each file saved without a time is read once (its contents may have changed since:
 * its size alone cannot say) and saved with its time; after that nothing is read again.
 *
 * The closed page is a scan held at its first search (every batch committed) whose module instances
 * are dropped: the next page imports fresh ones (vi.resetModules), as a reload does, so the writer lock
 * the dead page held is not its (Web Locks release a closed page's locks).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { edited, exportsOf, filesOf, freshExportsOf, settled, TEXTS, type Disk, type Tab, tabsPerTest } from './corpus-model.ts';

const NAME = 'closed-tab-times';
// A fresh database per test (its pages are opened below, each with its own modules).
tabsPerTest(NAME);

/** A new page on the same database: fresh module instances (nothing of the closed page's state), real workers. */
async function freshPage(): Promise<{ open: (workers?: ScanWorkers) => Promise<Tab>; close: (t: Tab) => void; model: typeof import('./corpus-model.ts') }> {
  vi.resetModules();
  const model = await import('./corpus-model.ts');
  const database = await import('../../../src/storage/database.ts');
  database.configureStorage({ name: NAME, events: {} });
  return {
    model,
    open: (workers) => model.openTab(workers),
    close: (t) => {
      t.persistence.close();
      database.closeCorpusDb();
    },
  };
}

/** The folder, and a page closed while scanning it, once every batch was committed. */
async function closedMidScan(): Promise<Disk> {
  const disk: Disk = new Map();
  TEXTS.forEach((text, i) => disk.set(`f/t${i}.txt`, [text, 1_700_000_000_000 + i * 1000]));
  disk.set('f/near-t1.txt', [edited(TEXTS[1]!, 7), 1_700_000_100_000]);
  // A page of its own (the test's other pages must not share its module state: the lock it keeps).
  const page = await freshPage();
  const { workers, searching } = page.model.workersHoldingFirstSearch();
  const t = await page.open(workers);
  void t.session.start({ kind: 'file-list', files: filesOf(disk, []), sync: true });
  await searching;
  for (let i = 0; i < 2000 && t.persistence.getSnapshot().documentCount < disk.size; i++) await new Promise((r) => setTimeout(r, 2));
  expect(t.persistence.getSnapshot().documentCount).toBe(disk.size);
  // The page goes: it hears nothing more, and its scan never ends.
  t.persistence.close();
  return disk;
}

const timesOf = (t: Tab) => {
  const docs = t.store.getSnapshot().result!.docs;
  return docs.paths.map((p, d) => [p, docs.modified?.[d] ?? 0]);
};

describe('a tab closed mid-scan', () => {
  for (const how of ['resumed as the panel offers', 'not resumed'] as const) {
    it(`leaves files without their time until the folder is chosen again (${how}): then each is read once and saved with its time, equal to a fresh scan, after a reload too`, async () => {
      const disk = await closedMidScan();
      const page = await freshPage();
      let t = await page.open();
      const paths = [...disk.keys()].sort();
      // What the closed page saved came back without times.
      expect(timesOf(t)).toEqual(paths.map((p) => [p, 0]));
      if (how === 'resumed as the panel offers') {
        expect(t.persistence.getSnapshot().interrupted).not.toBeNull();
        const resumed: string[] = [];
        await t.persistence.resume(filesOf(disk, resumed));
        await settled(t);
        // Every file was saved: the resume reads none.
        expect(resumed).toEqual([]);
      }
      const reads: string[] = [];
      await t.session.start({ kind: 'file-list', files: filesOf(disk, reads), sync: true });
      await settled(t);
      // Saved without a time, every file is read once (its contents may have changed since).
      expect([...reads].sort()).toEqual(paths);
      const expected = paths.map((p) => [p, disk.get(p)![1]]);
      expect(timesOf(t)).toEqual(expected);
      const fresh = await freshExportsOf(filesOf(disk, []));
      expect(exportsOf(t.store.getSnapshot().result)).toBe(fresh);

      // Saved with their times: a reload shows them, and the folder chosen again reads nothing.
      page.close(t);
      t = await page.open();
      expect(timesOf(t)).toEqual(expected);
      const again: string[] = [];
      await t.session.start({ kind: 'file-list', files: filesOf(disk, again), sync: true });
      await settled(t);
      expect(again).toEqual([]);
      expect(exportsOf(t.store.getSnapshot().result)).toBe(fresh);
      page.close(t);
    });
  }
});
