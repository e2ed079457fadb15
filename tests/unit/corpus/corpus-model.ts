/**
 * The saved corpus's model test harness: generates sequences of what a person can do (choose a folder,
 * change its files on disk and choose it again, Choose files, remove, pin, cancel and resume, reload,
 * another tab's clear), runs them through the real controller, scan session and worker APIs (over
 * MessageChannels) on fake-indexeddb, and compares what the app would export with a fresh scan of the
 * same files (a session with no saved corpus): the pairs CSV, the groups CSV (as the list shows them by
 * default) and every document's modification time, byte for byte; and each saved document's feature-set
 * size and MinHash sketch with those a fresh fingerprinting of its file gives.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach } from 'vitest';
import { createCorpusPersistence, type CorpusPersistence } from '../../../src/corpus/corpus-persistence.ts';
import { createScanSession, type ScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore, DEFAULT_K, type ScanStore } from '../../../src/scan/scan-store.ts';
import { closeCorpusDb, configureStorage } from '../../../src/storage/database.ts';
import { createWorkerBridge } from '../../../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../../../src/workers/worker-pool.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { indexApi, type IndexApi } from '../../../src/workers/index-api.ts';
import { BROWSER_READ_LIMIT, type ScanWorkers } from '../../../src/workers/scan-workers.ts';
import type { ScanResult } from '../../../src/scan/scan-result.ts';
import { DEFAULT_SETTINGS, type SimHashSettings } from '../../../src/core/simhash/settings.ts';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../../../src/core/quality/defaults.ts';
import type { Grouping } from '../../../src/scan/scan-result.ts';
import { pairsCsvText } from '../../fixtures/pairs-csv.ts';
import { groupsCsv } from '../../../src/core/export/groups-csv.ts';
import { lowerCasePaths, orderGroups } from '../../../src/ui/groups/group-view.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';
import { exclusionMatcher, NO_EXCLUSIONS } from '../../../src/core/documents/exclusions.ts';
import { putKeepExclusions } from '../../../src/storage/keep-marks.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';
import type { DocId } from '../../../src/core/ids.ts';
import { loadCorpus } from '../../../src/storage/corpus-repository.ts';
import { createClaimBuffer } from '../../../src/workers/claimed-hashes.ts';
import { DOC_FLAG_SKIPPED, DOC_FLAG_TOO_SHORT } from '../../../src/storage/corpus-columns.ts';
import { SKETCH_BINS, sketchKnown } from '../../../src/core/groups/minhash-sketch.ts';

// ---- the texts: real prose with natural near copies (MIT licenses of two packages) and exact copies ----

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(root + path, 'utf8');
/** The base texts; every file on the model's disk is one of these, or an edit of one. */
export const TEXTS: readonly string[] = [
  read('tests/fixtures/documents/apache.txt').slice(0, 3000),
  read('tests/fixtures/documents/cc0.txt').slice(0, 3000),
  read('node_modules/react/LICENSE'),
  read('node_modules/xxhash-wasm/LICENSE.md'),
  read('node_modules/react/README.md'),
  read('node_modules/idb/LICENSE'),
  read('node_modules/comlink/README.md').slice(0, 3000),
  read('node_modules/fake-indexeddb/README.md').slice(0, 3000),
];

/** `text` with a few words replaced (one in about 60, at least one): a near copy of it. */
export function edited(text: string, seed: number): string {
  const next = mulberry32(seed);
  const words = text.split(' ');
  const changes = Math.max(1, Math.floor(words.length / 60));
  for (let i = 0; i < changes; i++) words[next() % words.length] = `edit${next() % 1000}`;
  return words.join(' ');
}

// ---- actions: plain data, so a failing sequence can be printed and shrunk ----

/** One thing a person does. `r`: a random number that picks among what exists when the step runs. */
export type Action =
  | { t: 'choose-folder' }
  | { t: 'disk-delete'; r: number }
  | { t: 'disk-edit'; r: number; seed: number }
  | { t: 'disk-copy'; r: number; name: string }
  | { t: 'disk-edited-copy'; r: number; name: string; seed: number }
  /** A copy of a file's first 70% of words: a near copy only below the default threshold (Jaccard about 0.77). */
  | { t: 'disk-cut-copy'; r: number; name: string }
  | { t: 'choose-files'; r: number; name: string; bare: boolean }
  | { t: 'remove'; r: number }
  | { t: 'pin'; r: number }
  | { t: 'cancel-resume'; early: boolean }
  | { t: 'reload' }
  | { t: 'other-tab-clear' }
  /** A file touched on disk: a new modification time, the same bytes. */
  | { t: 'disk-touch'; r: number }
  /** An edit that keeps the size and the modification time: the quick check cannot see it (the documented limit). */
  | { t: 'disk-hidden-edit'; r: number }
  /** "Re-read every file", then the folder chosen again: every file is read. */
  | { t: 'reread' }
  /** The page reloaded, then other fingerprint settings applied (`r` picks them). */
  | { t: 'settings-after-reload'; r: number }
  /**
   * The keep panel's exclusions set to a pattern naming one file of the folder (`r` picks it; an `r`
   * divisible by 4 clears them instead): from the next scan on, it is as a file not in the folder.
   */
  | { t: 'exclude'; r: number }
  /** A file too short to fingerprint written into the folder (`r` picks its text among a few: often the same as another's). */
  | { t: 'disk-short'; r: number; name: string }
  /** The settings panel's similarity threshold changed (`r` picks it among MODEL_THRESHOLDS): a regroup. */
  | { t: 'similarity'; r: number }
  /** The k slider moved (`r` picks k among MODEL_KS): a regroup. */
  | { t: 'hamming'; r: number }
  /** The grouping mode changed (`r` picks it among MODEL_GROUPINGS): a regroup. */
  | { t: 'grouping'; r: number };

/** The short texts `disk-short` writes: below the fingerprint's minimum, so the scan lists them as skipped. */
const SHORT_TEXTS: readonly string[] = ['hi', 'hi', 'ok then'];

/** The fingerprint settings the settings action picks among (TF-IDF left out: its corpus is never quick-checked). */
export const MODEL_SETTINGS: readonly SimHashSettings[] = [
  DEFAULT_SETTINGS,
  { features: { kind: 'word', n: 1 }, weights: 'tf', stopWords: false },
  { features: { kind: 'char-ngram', n: 4 }, weights: 'binary', stopWords: false },
];

/** The similarity thresholds the `similarity` action picks among (the default, 0.8, among them). */
export const MODEL_THRESHOLDS: readonly number[] = [0.5, 0.7, DEFAULT_SIMILARITY_THRESHOLD, 0.9];
/** The ks the `hamming` action picks among (the default among them). */
export const MODEL_KS: readonly number[] = [6, 10, DEFAULT_K, 24];
export const MODEL_GROUPINGS: readonly Grouping[] = ['reference', 'components'];

/** `text` with one letter changed, same length (same bytes count for ASCII). */
export function sameSizeEdit(text: string): string {
  const at = text.search(/[a-y]/);
  return at < 0 ? text : text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) + 1) + text.slice(at + 1);
}

/** How often each action is drawn: every action a person can take. */
export const ACTION_WEIGHTS: readonly [Action['t'], number][] = [
  ['choose-folder', 4],
  ['disk-delete', 2],
  ['disk-edit', 2],
  ['disk-copy', 2],
  ['disk-edited-copy', 2],
  ['disk-cut-copy', 2],
  ['choose-files', 2],
  ['remove', 2],
  ['pin', 1],
  ['cancel-resume', 2],
  ['reload', 2],
  ['other-tab-clear', 1],
  ['disk-touch', 2],
  ['disk-hidden-edit', 1],
  ['reread', 1],
  ['settings-after-reload', 1],
  ['exclude', 2],
  ['disk-short', 1],
  ['similarity', 2],
  ['hamming', 2],
  ['grouping', 1],
];

/**
 * The grouping changes between scans, reloads and near copies at several similarities: a regroup's
 * candidates after a reload or a merge are reached in a few steps (rare among every action).
 */
export const REGROUP_WEIGHTS: readonly [Action['t'], number][] = [
  ['choose-folder', 3],
  ['disk-edit', 1],
  ['disk-edited-copy', 1],
  ['disk-cut-copy', 2],
  ['choose-files', 1],
  ['remove', 1],
  ['pin', 1],
  ['cancel-resume', 1],
  ['reload', 3],
  ['similarity', 4],
  ['hamming', 2],
  ['grouping', 2],
];

/** A random sequence of `length` actions drawn with `weights` (the first chooses the folder). */
export function generate(seed: number, length: number, weights: readonly [Action['t'], number][] = ACTION_WEIGHTS): Action[] {
  const next = mulberry32(seed);
  const out: Action[] = [{ t: 'choose-folder' }];
  let names = 0;
  const total = weights.reduce((s, [, w]) => s + w, 0);
  while (out.length < length) {
    let x = next() % total;
    let t: Action['t'] = 'reload';
    for (const [name, w] of weights) {
      if (x < w) {
        t = name;
        break;
      }
      x -= w;
    }
    const r = next();
    const seedOf = next();
    const name = `n${names++}.txt`;
    switch (t) {
      case 'disk-delete':
      case 'disk-touch':
      case 'disk-hidden-edit':
      case 'settings-after-reload':
      case 'exclude':
      case 'similarity':
      case 'hamming':
      case 'grouping':
        out.push({ t, r });
        break;
      case 'disk-edit':
        out.push({ t, r, seed: seedOf });
        break;
      case 'disk-copy':
      case 'disk-cut-copy':
      case 'disk-short':
        out.push({ t, r, name });
        break;
      case 'disk-edited-copy':
        out.push({ t, r, name, seed: seedOf });
        break;
      case 'choose-files':
        out.push({ t, r, name, bare: (seedOf & 1) === 1 });
        break;
      case 'remove':
      case 'pin':
        out.push({ t, r });
        break;
      case 'cancel-resume':
        out.push({ t, early: (seedOf & 1) === 1 });
        break;
      default:
        out.push({ t } as Action);
    }
  }
  return out;
}

// ---- the app under test ----

/** One open "tab": store, workers, controller and session over the shared fake-indexeddb. */
export interface Tab {
  store: ScanStore;
  persistence: CorpusPersistence;
  session: ScanSession;
}

function scanWorkers(): ScanWorkers {
  return {
    ingest: createWorkerPool<IngestApi>(channelSpawner(ingestApi).spawn, 2),
    index: createWorkerBridge<IndexApi>(channelSpawner(indexApi).spawn),
    readLimit: BROWSER_READ_LIMIT,
  };
}

/**
 * The real scan workers, except that the index worker's first search (split or not) waits forever:
 * every file is read and handed to the writer, and the scan is still running. Later searches run.
 * `armed` false: searches run until `arm()` (a restore searches too), and the first after it waits.
 */
export function workersHoldingFirstSearch(armed = true): { workers: ScanWorkers; searching: Promise<void>; arm: () => void } {
  let reached!: () => void;
  const searching = new Promise<void>((resolve) => (reached = resolve));
  let held = false;
  const hold =
    <A extends unknown[], R>(real: (...args: A) => R) =>
    (...args: A): R | Promise<never> => {
      if (held || !armed) return real(...args);
      held = true;
      reached();
      return new Promise<never>(() => undefined);
    };
  const api = { ...indexApi, findDuplicates: hold(indexApi.findDuplicates), groupExactDuplicates: hold(indexApi.groupExactDuplicates) };
  return {
    workers: {
      ingest: createWorkerPool<IngestApi>(channelSpawner(ingestApi).spawn, 2),
      index: createWorkerBridge<IndexApi>(channelSpawner(api).spawn),
      readLimit: BROWSER_READ_LIMIT,
    },
    searching,
    arm: () => void (armed = true),
  };
}

/** Opens a tab on the current database (restoring what it holds) and waits until it is quiet; `workers`: the real APIs unless given. */
export async function openTab(workers: ScanWorkers = scanWorkers()): Promise<Tab> {
  const store = createScanStore();
  const persistence = createCorpusPersistence(store, workers);
  const session = persistence.session;
  await persistence.start();
  await settled({ store, persistence, session });
  return { store, persistence, session };
}

/**
 * For a test file: a fresh database (named `name`) before each test and every tab it opened closed after
 * it. Returns how to open a tab (on `workers` when given).
 */
export function tabsPerTest(name: string): (workers?: ScanWorkers) => Promise<Tab> {
  const opened: Tab[] = [];
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
    configureStorage({ name, events: {} });
  });
  afterEach(() => {
    for (const t of opened.splice(0)) t.persistence.close();
    closeCorpusDb();
  });
  return async (workers?: ScanWorkers) => {
    const t = await openTab(workers);
    opened.push(t);
    return t;
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves at the tab's next change (scan store or saved corpus), or after `ms` at the latest. */
function nextChange(tab: Tab, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      offStore();
      offCorpus();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const offStore = tab.store.subscribe(done);
    const offCorpus = tab.persistence.subscribe(done);
  });
}

const turn = () => new Promise<void>((r) => setImmediate(r));

/** Waits until nothing runs behind the page (scans, restores, writes behind the shown result). */
export async function settled(tab: Tab): Promise<void> {
  let quiet = 0;
  for (let i = 0; i < 20000; i++) {
    const s = tab.persistence.getSnapshot();
    const busy = s.saving || s.status === 'restoring' || s.status === 'starting' || tab.store.getSnapshot().state === 'scanning' || tab.store.getSnapshot().regrouping;
    // Quiet for a few turns in a row: a catch-up (another tab's change) starts a turn after a write ends.
    // Busy: woken by the change that ends it (polling with timers left the test idle half its time).
    quiet = busy ? 0 : quiet + 1;
    if (quiet >= 3) return;
    if (busy) await nextChange(tab, 50);
    else await turn();
  }
  throw new Error('the saved corpus never settled');
}

/** A file as a folder input gives it (with its path under the chosen folder), or as Choose files does (`bare`). */
export function fileOf(path: string, text: string, modified: number): File {
  const bare = !path.includes('/');
  const f = new File([text], path.split('/').pop()!, { lastModified: modified });
  if (!bare) Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

/** A folder on a model disk: path -> [text, modification time]. */
export type Disk = Map<string, [string, number]>;

/** The folder's Files as a folder input gives them; each one's bytes read (stream) are noted in `reads`. */
export function filesOf(disk: Disk, reads: string[]): File[] {
  return [...disk.keys()].sort().map((path) => {
    const [text, time] = disk.get(path)!;
    const f = fileOf(path, text, time);
    const stream = f.stream.bind(f);
    Object.defineProperty(f, 'stream', { value: () => (reads.push(path), stream()) });
    return f;
  });
}

// ---- the model: the files on disk, and which of them the corpus should hold ----

interface DiskFile {
  text: string;
  modified: number;
}

/** The values a result is grouped with: k, the similarity threshold and the grouping mode. */
export interface View {
  k: number;
  similarityThreshold: number;
  grouping: Grouping;
}

/** A new page's values (nothing saved). */
export const DEFAULT_VIEW: View = { k: DEFAULT_K, similarityThreshold: DEFAULT_SIMILARITY_THRESHOLD, grouping: 'reference' };

class Model {
  /** The chosen folder `f` as it is on disk now. */
  disk = new Map<string, DiskFile>();
  /** What the saved corpus should hold: a fresh scan of exactly these files is the expected answer. */
  corpus = new Map<string, DiskFile>();
  /** Paths the person made references (kept while the document stays as it was). */
  pinned: string[] = [];
  /** The fingerprint settings the corpus was last made with (the page's: the next scan uses them). */
  settings: SimHashSettings = DEFAULT_SETTINGS;
  /** The page's grouping values: the result on show was grouped with them, and the next scan and regroup use them. */
  view: View = DEFAULT_VIEW;
  /**
   * What a reload brings back: the fingerprint settings and k saved by a scan or regroup (null: none, or
   * cleared), and the threshold and grouping of the last result shown over the saved corpus.
   */
  saved: { settings: SimHashSettings; view: View } | null = null;
  /** The keep panel's exclusion patterns (saved; the scans leave the files they match unread). */
  exclusions: string[] = [];
  clock = 1_700_000_000_000;

  constructor() {
    // f/: the base texts, an exact copy and a near copy.
    TEXTS.forEach((text, i) => this.disk.set(`f/t${i}.txt`, { text, modified: this.tick() }));
    this.disk.set('f/sub/copy-of-t0.txt', { text: TEXTS[0]!, modified: this.tick() });
    this.disk.set('f/sub/near-t1.txt', { text: edited(TEXTS[1]!, 7), modified: this.tick() });
  }

  tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  diskPaths(): string[] {
    return [...this.disk.keys()].sort();
  }

  folderFiles(): File[] {
    return this.diskPaths().map((p) => fileOf(p, this.disk.get(p)!.text, this.disk.get(p)!.modified));
  }

  /**
   * The corpus follows the folder: its files as they are now, its files no longer there leave. Without
   * `all` (Re-read every file), a file at the saved size and (known) time is not read: its saved version stays.
   */
  sync(all = false): void {
    for (const p of [...this.corpus.keys()]) if (p.startsWith('f/') && (!this.disk.has(p) || this.excluded(p))) this.leave(p);
    for (const [p, f] of this.disk) {
      if (this.excluded(p)) continue;
      const was = this.corpus.get(p);
      if (!all && was && was.modified > 0 && was.modified === f.modified && Buffer.byteLength(was.text) === Buffer.byteLength(f.text)) continue;
      this.put(p, f);
    }
  }

  excluded(path: string): boolean {
    return exclusionMatcher({ ...NO_EXCLUSIONS, patterns: this.exclusions })(path) !== null;
  }

  put(path: string, file: DiskFile): void {
    if (this.excluded(path)) return;
    const was = this.corpus.get(path);
    if (was && was.text !== file.text) this.pinned = this.pinned.filter((x) => x !== path);
    // The same contents at the same path: the saved document stays, its modification time follows the file.
    this.corpus.set(path, { ...file });
  }

  leave(path: string): void {
    this.corpus.delete(path);
    this.pinned = this.pinned.filter((x) => x !== path);
  }

  /** A scan or regroup over the saved corpus wrote the page's values with it. */
  keepView(): void {
    this.saved = { settings: this.settings, view: this.view };
  }

  /** A new page: the saved values, or a new page's when nothing is saved or the corpus is empty (nothing is restored). */
  reloaded(): void {
    this.settings = this.saved?.settings ?? DEFAULT_SETTINGS;
    this.view = this.saved && this.corpus.size > 0 ? this.saved.view : { ...DEFAULT_VIEW, k: this.saved?.view.k ?? DEFAULT_K };
  }

  corpusFiles(): File[] {
    return [...this.corpus.keys()].sort().map((p) => fileOf(p, this.corpus.get(p)!.text, this.corpus.get(p)!.modified));
  }
}

// ---- what the app would export ----

/**
 * The pairs CSV ("Export CSV"), the groups CSV as the list shows them by default, each document's
 * modification time, the histogram of candidates the page plots and the values it was grouped with.
 */
export function exportsOf(result: ScanResult | null): string {
  if (!result || result.docs.count === 0) return '';
  const { relation, docs } = result;
  const pairs = pairsCsvText(relation, docs.paths);
  const order = orderGroups(relation.groups, lowerCasePaths(docs.paths), 'size', '');
  const groups = groupsCsv(relation.groups, docs.paths, order, relation.identical);
  const times = docs.paths.map((p, d) => `${p}\t${docs.modified?.[d] ?? 0}`).join('\n');
  const skipped = result.skipped.map((s) => `${s.path}\t${s.reason}\t${s.message}`).sort().join('\n');
  return `${pairs}\n--- groups ---\n${groups}\n--- modified ---\n${times}\n--- skipped ---\n${skipped}\n--- pinned ---\n${result.pinned.map((d) => docs.paths[d]).sort().join('\n')}\n--- histogram ---\n${[...result.histogram].join(',')}\n--- grouped with ---\nk ${result.k}, similarity ${result.similarityThreshold}, ${result.grouping}`;
}

let freshWorkers: ScanWorkers | null = null;

/** A fresh scan of exactly the files the corpus should hold, on a session with no saved corpus. */
async function freshExports(model: Model): Promise<string> {
  return freshExportsOf(model.corpusFiles(), model.pinned, model.settings, model.view);
}

/**
 * What a fresh scan of `files` (a session with no saved corpus) exports, with the documents at
 * `pinnedPaths` made references; `view`: the grouping values the page starts with (a store made with
 * a k keeps it).
 */
export async function freshExportsOf(files: File[], pinnedPaths: readonly string[] = [], settings?: SimHashSettings, view?: View): Promise<string> {
  if (files.length === 0) return '';
  const store = createScanStore({ ...(settings ? { settings } : {}), ...view });
  freshWorkers ??= scanWorkers();
  const session = createScanSession(store, freshWorkers);
  await session.start({ kind: 'file-list', files });
  let result = store.getSnapshot().result!;
  // Every file's own time: what the app must end with (it asks new files theirs once the results show).
  result.docs.modified = Float64Array.from(result.docs.files, (f, d) => (f instanceof File ? f.lastModified : (result.docs.modified?.[d] ?? 0)));
  const pinned = pinnedPaths.map((p) => result.docs.paths.indexOf(p) as DocId).filter((d) => d >= 0);
  if (pinned.length > 0) {
    await session.regroup({ pinned });
    result = store.getSnapshot().result!;
  }
  return exportsOf(result);
}

/**
 * Each saved document's feature-set size and sketch as storage holds them (`actual`) and as fingerprinting
 * its file afresh gives them (`expected`), one line per document in path order: a fingerprinted document
 * must have both, and any other (a copy, a short file) may have neither, but never a wrong one.
 */
async function storedSets(model: Model): Promise<{ expected: string; actual: string }> {
  const saved = await loadCorpus();
  const expected: string[] = [];
  const actual: string[] = [];
  const line = (path: string, size: number, sketch: Uint16Array) => `${path}\tsize ${size}\tsketch ${sketch.join(' ')}`;
  for (const p of [...saved.paths.keys()].sort((x, y) => (saved.paths[x]! < saved.paths[y]! ? -1 : 1))) {
    const path = saved.paths[p]!;
    const sketch = saved.sketches.subarray(p * SKETCH_BINS, (p + 1) * SKETCH_BINS);
    const fingerprinted = (saved.storedFlags[p]! & (DOC_FLAG_SKIPPED | DOC_FLAG_TOO_SHORT)) === 0;
    if (!fingerprinted && saved.setSizes[p] === 0 && !sketchKnown(saved.sketches, p)) continue;
    const text = model.corpus.get(path)?.text;
    // Fingerprinted alone with claims of its own: a worker without claims leaves a text it saw before unsketched.
    const fresh = text === undefined ? null : await ingestApi.ingestBatch([{ name: path, bytes: new TextEncoder().encode(text) }], model.settings, { setSizes: true, claims: createClaimBuffer(1) });
    expected.push(fresh ? line(path, fresh.setSizes![0]!, fresh.sketches) : `${path}\tnot in the corpus`);
    actual.push(line(path, saved.setSizes[p]!, sketch));
  }
  return { expected: expected.join('\n'), actual: actual.join('\n') };
}

/** Null when the saved sizes and sketches are those of a fresh fingerprinting (see storedSets), else both listings. */
async function storedSetsDiffer(model: Model): Promise<{ expected: string; actual: string } | null> {
  const sets = await storedSets(model);
  return sets.expected === sets.actual ? null : { expected: `--- saved feature sets ---\n${sets.expected}`, actual: `--- saved feature sets ---\n${sets.actual}` };
}

/** True when the page's store holds the model's fingerprint settings and grouping values. */
function sameValues(page: { settings: SimHashSettings; k: number; similarityThreshold: number; grouping: Grouping }, model: Model): boolean {
  const v = model.view;
  return JSON.stringify(page.settings) === JSON.stringify(model.settings) && page.k === v.k && page.similarityThreshold === v.similarityThreshold && page.grouping === v.grouping;
}

// ---- running a sequence ----

let dbCounter = 0;

/** Runs `actions` from an empty database; returns null when the app agreed with a fresh scan throughout, else what differed. */
export async function runSequence(actions: readonly Action[]): Promise<{ step: number; expected: string; actual: string } | null> {
  globalThis.indexedDB = new IDBFactory();
  configureStorage({ name: `corpus-model-${dbCounter++}`, events: {} });
  const model = new Model();
  let tab = await openTab();
  const tabs: Tab[] = [tab];
  const reload = async () => {
    tab.persistence.close();
    closeCorpusDb();
    tab = await openTab();
    tabs.push(tab);
    model.reloaded();
  };
  try {
    for (let step = 0; step < actions.length; step++) {
      const a = actions[step]!;
      const pick = <T>(xs: readonly T[]): T | undefined => (xs.length === 0 ? undefined : xs[(a as { r: number }).r % xs.length]);
      switch (a.t) {
        case 'choose-folder':
          await tab.session.start({ kind: 'file-list', files: model.folderFiles(), sync: true });
          model.sync();
          model.keepView();
          break;
        case 'disk-delete': {
          const paths = model.diskPaths();
          if (paths.length <= 1) break;
          model.disk.delete(pick(paths)!);
          break;
        }
        case 'disk-edit': {
          const p = pick(model.diskPaths())!;
          model.disk.set(p, { text: edited(model.disk.get(p)!.text, a.seed), modified: model.tick() });
          break;
        }
        case 'disk-copy': {
          const p = pick(model.diskPaths())!;
          model.disk.set(`f/${a.name}`, { text: model.disk.get(p)!.text, modified: model.tick() });
          break;
        }
        case 'disk-cut-copy': {
          const p = pick(model.diskPaths())!;
          const words = model.disk.get(p)!.text.split(' ');
          model.disk.set(`f/c/${a.name}`, { text: words.slice(0, Math.ceil(words.length * 0.7)).join(' '), modified: model.tick() });
          break;
        }
        case 'disk-short':
          model.disk.set(`f/${a.name}`, { text: SHORT_TEXTS[a.r % SHORT_TEXTS.length]!, modified: model.tick() });
          break;
        case 'disk-edited-copy': {
          const p = pick(model.diskPaths())!;
          model.disk.set(`f/c/${a.name}`, { text: edited(model.disk.get(p)!.text, a.seed), modified: model.tick() });
          break;
        }
        case 'choose-files': {
          // Another file (not of the folder): a copy of a base text, or an edit of one.
          const base = TEXTS[a.r % TEXTS.length]!;
          const text = a.r % 3 === 0 ? base : edited(base, a.r);
          const path = a.bare ? a.name : `x/${a.name}`;
          const file = { text, modified: model.tick() };
          await tab.session.start({ kind: 'file-list', files: [fileOf(path, file.text, file.modified)] });
          model.put(path, file);
          model.keepView();
          break;
        }
        case 'remove': {
          const result = tab.store.getSnapshot().result;
          if (!result || result.docs.count === 0) break;
          const d = (a.r % result.docs.count) as DocId;
          const path = result.docs.paths[d]!;
          await tab.persistence.remove([d]);
          model.leave(path);
          break;
        }
        case 'pin': {
          const result = tab.store.getSnapshot().result;
          if (!result) break;
          // A member of a group (not its reference) made the reference, as the list's button does.
          const g = result.relation.groups;
          if (g.count === 0) break;
          const group = a.r % g.count;
          const slot = g.offsets[group]! + 1;
          if (slot >= g.offsets[group + 1]!) break;
          const doc = g.members[slot]! as DocId;
          await tab.session.regroup({ pinned: [...tab.store.getSnapshot().pinned.filter((x) => x !== doc), doc] });
          if (!model.pinned.includes(result.docs.paths[doc]!)) model.pinned.push(result.docs.paths[doc]!);
          break;
        }
        case 'cancel-resume': {
          // The folder chosen, the scan cancelled (at once, or once a batch is saved), the page
          // reloaded, and the scan resumed as the panel offers it (or the folder chosen again).
          const running = tab.session.start({ kind: 'file-list', files: model.folderFiles(), sync: true });
          if (!a.early) {
            const before = tab.persistence.getSnapshot().documentCount;
            for (let i = 0; i < 500 && tab.store.getSnapshot().state === 'scanning' && tab.persistence.getSnapshot().documentCount === before; i++) await pause(1);
          }
          tab.session.cancel();
          await running;
          await settled(tab);
          const chosen = { settings: model.settings, view: model.view };
          // The cancel came after the scan had ended: its corpus and values were saved.
          if (tab.store.getSnapshot().state === 'done') {
            model.sync();
            model.keepView();
          }
          await reload();
          if (tab.persistence.getSnapshot().documentCount > 0) {
            // The person's values are kept with what the scan committed, as by a scan that ended.
            model.settings = chosen.settings;
            model.view = chosen.view;
          } else if (!sameValues(tab.store.getSnapshot(), model)) {
            // Nothing committed: the scan may have saved its values before the cancel (then they are back) or not.
            model.settings = chosen.settings;
            model.view = chosen.view;
          }
          if (tab.persistence.getSnapshot().interrupted) await tab.persistence.resume(model.folderFiles());
          else await tab.session.start({ kind: 'file-list', files: model.folderFiles(), sync: true });
          model.sync();
          model.keepView();
          break;
        }
        case 'reload':
          await settled(tab);
          await reload();
          break;
        case 'disk-touch': {
          const p = pick(model.diskPaths())!;
          model.disk.set(p, { text: model.disk.get(p)!.text, modified: model.tick() });
          break;
        }
        case 'disk-hidden-edit': {
          const p = pick(model.diskPaths())!;
          const f = model.disk.get(p)!;
          model.disk.set(p, { text: sameSizeEdit(f.text), modified: f.modified });
          break;
        }
        case 'reread':
          tab.persistence.rereadAll();
          await tab.session.start({ kind: 'file-list', files: model.folderFiles(), sync: true });
          model.sync(true);
          model.keepView();
          break;
        case 'settings-after-reload': {
          await settled(tab);
          await reload();
          const settings = MODEL_SETTINGS[a.r % MODEL_SETTINGS.length]!;
          // The settings panel rescans only for other fingerprint settings, over a corpus on show.
          if (!tab.store.getSnapshot().result || JSON.stringify(settings) === JSON.stringify(model.settings)) break;
          await tab.session.rescan(settings);
          // A rescan is a new scan of the same files: references are not carried over.
          model.pinned = [];
          model.settings = settings;
          model.keepView();
          break;
        }
        case 'exclude': {
          const p = pick(model.diskPaths())!;
          model.exclusions = a.r % 4 === 0 ? [] : [p.slice('f/'.length)];
          await putKeepExclusions({ ...NO_EXCLUSIONS, patterns: model.exclusions });
          break;
        }
        case 'other-tab-clear': {
          await settled(tab);
          const other = await openTab();
          tabs.push(other);
          await other.persistence.clear();
          other.persistence.close();
          // This tab hears it and loads the (empty) corpus.
          for (let i = 0; i < 500 && tab.store.getSnapshot().result; i++) await pause(2);
          model.corpus.clear();
          model.pinned = [];
          model.saved = null;
          break;
        }
        case 'similarity':
        case 'hamming':
        case 'grouping': {
          // The settings panel and the k slider are on the results: without them there is nothing to change.
          const result = tab.store.getSnapshot().result;
          if (!result || result.docs.count === 0) break;
          const options: Partial<View> = a.t === 'similarity' ? { similarityThreshold: pick(MODEL_THRESHOLDS)! } : a.t === 'hamming' ? { k: pick(MODEL_KS)! } : { grouping: pick(MODEL_GROUPINGS)! };
          await tab.session.regroup(options);
          model.view = { ...model.view, ...options };
          // Saved with the regrouped pairs (the threshold and grouping) and the settings (k).
          model.keepView();
          break;
        }
      }
      await settled(tab);
      const last = step === actions.length - 1;
      // Checked at the end, and again after a reload (a reload step, and one more after the last step).
      if (last || a.t === 'reload') {
        const expected = await freshExports(model);
        const actual = exportsOf(tab.store.getSnapshot().result);
        if (actual !== expected) return { step, expected, actual };
        const sets = await storedSetsDiffer(model);
        if (sets) return { step, ...sets };
      }
      if (last) {
        await reload();
        const expected = await freshExports(model);
        const actual = exportsOf(tab.store.getSnapshot().result);
        if (actual !== expected) return { step: actions.length, expected, actual };
      }
    }
    return null;
  } finally {
    for (const t of tabs) t.persistence.close();
    closeCorpusDb();
  }
}

/** Deletes steps while the sequence still fails: the shortest failing sequence found this way. */
export async function shrink(actions: Action[]): Promise<Action[]> {
  let current = actions;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = current.length - 1; i >= 0; i--) {
      const shorter = current.filter((_, j) => j !== i);
      if (shorter.length === 0) continue;
      if (await runSequence(shorter)) {
        current = shorter;
        changed = true;
      }
    }
  }
  return current;
}

/** A readable diff of two exports: the lines only one of them has. */
export function lineDiff(expected: string, actual: string): string {
  const e = expected.split(/\r?\n/);
  const a = actual.split(/\r?\n/);
  const onlyE = e.filter((l) => !a.includes(l));
  const onlyA = a.filter((l) => !e.includes(l));
  return [...onlyE.slice(0, 20).map((l) => `- ${l}`), ...onlyA.slice(0, 20).map((l) => `+ ${l}`)].join('\n') || '(same lines, other order)';
}
