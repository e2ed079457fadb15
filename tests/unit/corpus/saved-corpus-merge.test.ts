/**
 * The saved corpus across reloads, through the real controller, scan session and worker APIs (over
 * MessageChannels) on fake-indexeddb: a merge after a reload keeps every saved pair, with or without
 * the files' contents, and reads only what the new files need.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCorpusPersistence, type CorpusPersistence } from '../../../src/corpus/corpus-persistence.ts';
import type { ScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore, type ScanStore } from '../../../src/scan/scan-store.ts';
import { closeCorpusDb, configureStorage } from '../../../src/storage/database.ts';
import { withWriterLock } from '../../../src/storage/tab-coordination.ts';
import { LOCK_WAIT_MS } from '../../../src/corpus/corpus-writer.ts';
import { createWorkerBridge } from '../../../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../../../src/workers/worker-pool.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { indexApi, type IndexApi } from '../../../src/workers/index-api.ts';
import type { IngestItem } from '../../../src/workers/ingest-protocol.ts';
import { BROWSER_READ_LIMIT, type ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { docFile, type ScanResult } from '../../../src/scan/scan-result.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';

/** The ingest API as it is, counting every item it is asked to read (by name) while `counting` is on. */
function countingIngest(reads: string[]): IngestApi {
  const note = (items: readonly IngestItem[]) => {
    for (const it of items) reads.push(it.name);
  };
  return {
    ...ingestApi,
    ingestBatch: ((items, ...rest) => {
      note(items);
      return ingestApi.ingestBatch(items, ...rest);
    }) as IngestApi['ingestBatch'],
    verifyPairs: ((items, ...rest) => {
      note(items);
      return ingestApi.verifyPairs(items, ...rest);
    }) as IngestApi['verifyPairs'],
    chainGroups: ((items, ...rest) => {
      note(items);
      return ingestApi.chainGroups(items, ...rest);
    }) as IngestApi['chainGroups'],
  };
}

/** One open "tab": store, workers, persistence controller and session, restored from storage. */
interface Tab {
  store: ScanStore;
  persistence: CorpusPersistence;
  session: ScanSession;
  reads: string[];
}

async function openTab(readLimit = BROWSER_READ_LIMIT): Promise<Tab> {
  const reads: string[] = [];
  const workers: ScanWorkers = {
    ingest: createWorkerPool<IngestApi>(channelSpawner(countingIngest(reads)).spawn, 2),
    index: createWorkerBridge<IndexApi>(channelSpawner(indexApi).spawn),
    readLimit,
  };
  const store = createScanStore();
  const persistence = createCorpusPersistence(store, workers);
  const session = persistence.session;
  await persistence.start();
  return { store, persistence, session, reads };
}

/** Waits until the writes behind the shown result have committed (what a reload would keep). */
async function settled(tab: Tab): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    const s = tab.persistence.getSnapshot();
    if (!s.saving && tab.store.getSnapshot().state !== 'scanning') return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the saved corpus never settled');
}

function inFolder(path: string, content: string): File {
  const f = new File([content], path.split('/').pop()!);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

/** A 260-word text unique to `seed` (long enough to need no short-document sets). */
function text(seed: number): string {
  return Array.from({ length: 260 }, (_, i) => `w${(seed * 7919 + i * 104729) % 1000003}`).join(' ');
}

/** `text(seed)` with one word changed: a near-duplicate (Jaccard about 0.98). */
function near(seed: number): string {
  const words = text(seed).split(' ');
  words[130] = 'changed';
  return words.join(' ');
}

/** 50 near-duplicate pairs: 100 documents. */
function savedFolder(): File[] {
  const files: File[] = [];
  for (let i = 0; i < 50; i++) {
    files.push(inFolder(`saved/${i}-a.txt`, text(i + 1)));
    files.push(inFolder(`saved/${i}-b.txt`, near(i + 1)));
  }
  return files;
}

/** Pairs as sorted path pairs. */
function pairPaths(r: ScanResult): string[] {
  const out: string[] = [];
  for (let p = 0; p < r.verified.count; p++) {
    const a = r.docs.paths[r.verified.a[p]!]!;
    const b = r.docs.paths[r.verified.b[p]!]!;
    out.push([a, b].sort().join(' ~ '));
  }
  return out.sort();
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  configureStorage({ name: 'saved-corpus-merge', events: {} });
});
const opened: Tab[] = [];
afterEach(() => {
  for (const t of opened.splice(0)) t.persistence.close();
  closeCorpusDb();
});

async function tab(readLimit?: number): Promise<Tab> {
  const t = await openTab(readLimit);
  opened.push(t);
  return t;
}

/** Closes a tab as a reload would (its channel stops listening; the database connection is reopened). */
function reload(t: Tab): void {
  t.persistence.close();
  closeCorpusDb();
}

describe('merging new files into a saved corpus after a reload', () => {
  for (const keep of [false, true]) {
    it(`keeps every saved pair and adds the new ones (keep contents ${keep ? 'on' : 'off'})`, async () => {
      const first = await tab();
      await first.persistence.setKeepContents(keep);
      await first.session.start({ kind: 'file-list', files: savedFolder() });
      await settled(first);
      const savedPairs = pairPaths(first.store.getSnapshot().result!);
      expect(savedPairs.length).toBe(50);
      reload(first);

      const second = await tab();
      expect(second.store.getSnapshot().state).toBe('done');
      expect(pairPaths(second.store.getSnapshot().result!)).toEqual(savedPairs);
      second.reads.length = 0;
      // 4 new files: a near-duplicate of saved document 0-a, and a new pair of their own, and one alone.
      const fresh = [inFolder('new/n0.txt', near(1).replace('w', 'x')), inFolder('new/p-a.txt', text(900)), inFolder('new/p-b.txt', near(900)), inFolder('new/alone.txt', text(901))];
      await second.session.start({ kind: 'file-list', files: fresh });
      await settled(second);
      const merged = second.store.getSnapshot().result!;
      expect(merged.docs.count).toBe(104);
      const pairs = pairPaths(merged);
      for (const p of savedPairs) expect(pairs).toContain(p);
      expect(pairs).toContain('new/p-a.txt ~ new/p-b.txt');
      if (keep) {
        expect(pairs).toContain('new/n0.txt ~ saved/0-a.txt');
        expect(pairs).toContain('new/n0.txt ~ saved/0-b.txt');
      } else {
        // Its saved neighbours' contents are gone: not measured, and said so (never scored 0).
        expect(second.persistence.getSnapshot().unmeasured).toBe(2);
      }
      reload(second);

      // The merge itself was saved: a reload shows the same pairs.
      const third = await tab();
      expect(pairPaths(third.store.getSnapshot().result!)).toEqual(pairs);
    });
  }

  it('keeps every file\'s contents through a reload, a file sent to a worker whole included', async () => {
    // Files over 1,000 bytes are not read on the main thread: a worker reads them (their bytes are not
    // in the batch's Blob, so the writer keeps the File itself).
    const first = await tab(1000);
    const texts = { 'k/a-short.txt': 'a few words only', 'k/b-long.txt': text(5), 'k/c-near.txt': near(5), 'k/d-small.txt': 'another short text, é and ü' };
    await first.session.start({ kind: 'file-list', files: Object.entries(texts).map(([path, t]) => inFolder(path, t)) });
    await settled(first);
    reload(first);
    const second = await tab();
    const { docs } = second.store.getSnapshot().result!;
    expect([...docs.paths].sort()).toEqual(Object.keys(texts));
    // Each is its range of its batch's stored Blob, sliced when read.
    for (let p = 0; p < docs.count; p++) expect(await docFile(docs, p).text()).toBe(texts[docs.paths[p] as keyof typeof texts]);
  });

  it('a merge of k new files re-reads at most k files: only the saved neighbours of the new files (contents kept)', async () => {
    const first = await tab();
    await first.session.start({ kind: 'file-list', files: savedFolder() });
    await settled(first);
    reload(first);
    const second = await tab();
    const fresh = [inFolder('new/n0.txt', near(1).replace('w', 'x')), inFolder('new/p-a.txt', text(900)), inFolder('new/p-b.txt', near(900)), inFolder('new/alone.txt', text(901))];
    second.reads.length = 0;
    await second.session.start({ kind: 'file-list', files: fresh });
    await settled(second);
    // The scan reads each new file and measures its own pair (p-a, p-b: read again); the merge then
    // reads n0 and its two saved neighbours only. Before, it measured all 54 pairs again (105 reads).
    const savedReads = second.reads.filter((n) => n.startsWith('saved/'));
    expect(savedReads.sort()).toEqual(['saved/0-a.txt', 'saved/0-b.txt']);
    expect(second.reads.length).toBeLessThanOrEqual(fresh.length + 2 + 3);
    expect(second.store.getSnapshot().result!.verification.measured).toBe(2);
  });
});

/** A 520-word text unique to `seed`: its cuts below stay over the short documents' 200 words (whose sets a restore reads). */
function long(seed: number): string {
  return `${text(seed)} ${text(seed + 5000)}`;
}

/** The first `share` of `long(seed)`'s words: its Jaccard with the whole text is about `share`, its set that much smaller. */
function cut(seed: number, share: number): string {
  const words = long(seed).split(' ');
  return words.slice(0, Math.round(words.length * share)).join(' ');
}

describe('a new file after a reload, against saved documents its bounds rule out', () => {
  it('reads none of the saved documents the saved set sizes rule out (before: each candidate with a saved document was read again)', async () => {
    // Saved: cuts of 12 texts to 60% and 70% (Jaccard with the whole text about that, under 0.8, and
    // often within k of it); new after the reload: the 12 whole texts.
    const first = await tab();
    await first.session.start({ kind: 'file-list', files: Array.from({ length: 12 }, (_, i) => [inFolder(`saved/${i}-60.txt`, cut(i + 1, 0.6)), inFolder(`saved/${i}-70.txt`, cut(i + 1, 0.7))]).flat() });
    await settled(first);
    reload(first);
    const second = await tab();
    expect(second.store.getSnapshot().state).toBe('done');
    second.reads.length = 0;
    await second.session.start({ kind: 'file-list', files: Array.from({ length: 12 }, (_, i) => inFolder(`new/${i}.txt`, long(i + 1))) });
    await settled(second);
    const merged = second.store.getSnapshot().result!;
    expect(merged.docs.count).toBe(36);
    const v = merged.verification;
    // Candidates with a saved member were found and ruled out by the saved sizes, none read.
    expect(v.sizeRejected).toBeGreaterThan(0);
    expect(second.reads.filter((n) => n.startsWith('saved/'))).toEqual([]);
    expect(v.docsRead).toBe(0);
    // And they are no pairs: the ruled-out documents' Jaccards are below the threshold.
    expect(pairPaths(merged).filter((p) => p.includes('new/'))).toEqual([]);
    console.log(`after a reload, 12 new files against 24 saved: ${v.candidates} candidates, ${v.sizeRejected} ruled out by the saved set sizes, ${v.sketchRejected} by the sketches, ${v.measured} measured, ${v.docsRead} files read again`);
  });
});

describe('choosing a saved folder again', () => {
  it('updates paths in place: unchanged files are skipped and said so, a changed file replaces its saved version', async () => {
    const first = await tab();
    await first.session.start({ kind: 'file-list', files: savedFolder() });
    await settled(first);
    const pairs = pairPaths(first.store.getSnapshot().result!);

    await first.session.start({ kind: 'file-list', files: savedFolder() });
    await settled(first);
    let r = first.store.getSnapshot().result!;
    expect(r.docs.count).toBe(100);
    expect(new Set(r.docs.paths).size).toBe(100);
    expect(r.exactGroups.count).toBe(0);
    expect(pairPaths(r)).toEqual(pairs);
    expect(first.persistence.getSnapshot().notice).toBe('100 files read again, contents unchanged.');
    expect(first.persistence.getSnapshot().documentCount).toBe(100);

    // One file edited on disk: it replaces its saved version (and no longer pairs with 0-a).
    const edited = savedFolder().map((f) => (f.webkitRelativePath === 'saved/0-b.txt' ? inFolder('saved/0-b.txt', text(777)) : f));
    await first.session.start({ kind: 'file-list', files: edited });
    await settled(first);
    r = first.store.getSnapshot().result!;
    expect(r.docs.count).toBe(100);
    expect(first.persistence.getSnapshot().notice).toBe('99 files read again, contents unchanged; 1 changed: saved/0-b.txt.');
    expect(pairPaths(r)).toEqual(pairs.filter((p) => p !== 'saved/0-a.txt ~ saved/0-b.txt'));
    reload(first);

    const second = await tab();
    expect(second.persistence.getSnapshot().documentCount).toBe(100);
    const back = second.store.getSnapshot().result!;
    expect(back.docs.count).toBe(100);
    expect(new Set(back.docs.paths).size).toBe(100);
    expect(pairPaths(back)).toEqual(pairPaths(r));
  });
});

describe('counts across panels and reloads', () => {
  it('the saved count follows the commits, and the skipped list is the same after a reload', async () => {
    const first = await tab();
    const files: File[] = [];
    for (let i = 0; i < 600; i++) files.push(inFolder(`big/${i}.txt`, text(5000 + i)));
    files.push(inFolder('big/empty.txt', ''));
    files.push(inFolder('big/.hidden.txt', text(1)));
    files.push(inFolder('big/.git/config', 'x'));
    const seen = new Set<number>();
    first.persistence.subscribe(() => seen.add(first.persistence.getSnapshot().documentCount));
    await first.session.start({ kind: 'file-list', files });
    await settled(first);
    expect(first.persistence.getSnapshot().documentCount).toBe(601);
    // Batches of 256 files: the panel showed the commits as they landed, not 0 until the end.
    expect([...seen].some((n) => n > 0 && n < 601)).toBe(true);
    const skipped = first.store.getSnapshot().result!.skipped.map((s) => `${s.path}: ${s.reason}`).sort();
    expect(skipped).toEqual(['big/.git/: hidden', 'big/.hidden.txt: hidden', 'big/empty.txt: empty']);
    reload(first);

    const second = await tab();
    expect(second.persistence.getSnapshot().documentCount).toBe(601);
    expect(second.store.getSnapshot().result!.skipped.map((s) => `${s.path}: ${s.reason}`).sort()).toEqual(skipped);
    // The same folder again: still listed once.
    await second.session.start({ kind: 'file-list', files });
    await settled(second);
    expect(second.store.getSnapshot().result!.skipped.map((s) => `${s.path}: ${s.reason}`).sort()).toEqual(skipped);
  });
});

describe('two tabs', () => {
  it('a scan started while another tab writes waits for it and is saved, never dropped', async () => {
    const other = await tab();
    await other.session.start({ kind: 'file-list', files: savedFolder() });
    await settled(other);
    const waiting = await tab();
    // The other tab saves a long scan: it holds the writer lock (longer than a moment's write).
    let releaseOther!: () => void;
    const held = new Promise<void>((r) => (releaseOther = r));
    const lock = withWriterLock(() => held);
    const fresh = [inFolder('tab2/a.txt', text(3000)), inFolder('tab2/b.txt', near(3000))];
    const scan = waiting.session.start({ kind: 'file-list', files: fresh });
    await new Promise((r) => setTimeout(r, LOCK_WAIT_MS + 500));
    expect(waiting.store.getSnapshot().state).toBe('scanning');
    expect(waiting.persistence.getSnapshot().notice).toContain('waits for it');
    releaseOther();
    await lock;
    await scan;
    await settled(waiting);
    expect(waiting.store.getSnapshot().result!.docs.count).toBe(102);
    reload(waiting);
    reload(other);

    const after = await tab();
    expect(after.persistence.getSnapshot().documentCount).toBe(102);
    expect(pairPaths(after.store.getSnapshot().result!)).toContain('tab2/a.txt ~ tab2/b.txt');
  }, 20_000);

  it('a waiting scan is merged with what the other tab saved meanwhile', async () => {
    const first = await tab();
    const second = await tab();
    let releaseOther!: () => void;
    const held = new Promise<void>((r) => (releaseOther = r));
    const lock = withWriterLock(() => held);
    const scan = second.session.start({ kind: 'file-list', files: [inFolder('tab2/a.txt', text(3000)), inFolder('tab2/b.txt', near(3000))] });
    await new Promise((r) => setTimeout(r, 100));
    releaseOther();
    await lock;
    // The first tab scans while the second one saves: it waits for it, then reads the corpus again
    // (it was busy and skipped the change notice) and merges its files with the second tab's.
    await first.session.start({ kind: 'file-list', files: savedFolder() });
    await scan;
    await settled(first);
    await settled(second);
    reload(first);
    reload(second);
    const after = await tab();
    expect(after.persistence.getSnapshot().documentCount).toBe(102);
    expect(after.store.getSnapshot().result!.docs.count).toBe(102);
  }, 20_000);
});

describe('questions go to the panel', () => {
  it('a smaller scan with other fingerprint settings asks (no confirm() in scan/), and "keep" keeps the saved corpus', async () => {
    const first = await tab();
    await first.session.start({ kind: 'file-list', files: savedFolder() });
    await settled(first);
    const asked: string[] = [];
    first.persistence.subscribe(() => {
      const c = first.persistence.getSnapshot().confirmation;
      if (c && !asked.includes(c.message)) {
        asked.push(c.message);
        first.persistence.answer(false);
      }
    });
    first.store.update({ settings: { ...first.store.getSnapshot().settings, features: { kind: 'word-shingle', n: 2 } } });
    await first.session.start({ kind: 'file-list', files: [inFolder('other/a.txt', text(4000))] });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('Rebuild the saved corpus from the 1 files of this scan?');
    expect(first.store.getSnapshot().state).toBe('cancelled');
    expect(first.persistence.getSnapshot().confirmation).toBeNull();
    reload(first);
    const second = await tab();
    expect(second.persistence.getSnapshot().documentCount).toBe(100);
  });
});
