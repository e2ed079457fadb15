/**
 * `simsift scan DIR [--k N] [--features ...] [--weights ...] [--out FILE.csv]`: fingerprints every
 * text file under DIR, finds all pairs within Hamming distance k through the permuted-table index,
 * groups them (connected components) and writes the pairs CSV the app exports, paths relative to DIR.
 */
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { allPairs } from '../core/index/all-pairs.ts';
import { sortPairs } from '../core/index/pair-list.ts';
import { createUnionFind, find, union } from '../core/groups/union-find.ts';
import { createFingerprinter, type Fingerprinter } from '../core/simhash/fingerprinter.ts';
import { createDocumentFrequencyCounter } from '../core/simhash/document-frequencies.ts';
import { jaccard } from '../core/simhash/simhash.ts';
import { pairsCsv } from '../core/export/csv.ts';
import type { DocumentFrequencies } from '../core/simhash/document-frequencies.ts';
import {
  FILE_BINARY,
  FILE_OK,
  FILE_TOO_LARGE,
  FILE_TOO_SHORT,
  FILE_UNREADABLE,
  startScanPool,
  type FileFingerprints,
  type ScanPool,
} from './scan-threads.ts';
import {
  defaultSettings,
  describeSettings,
  errorCode,
  loadText,
  parseK,
  parseSettingsOption,
  processIo,
  SETTINGS_USAGE,
  UsageError,
  write,
  type CliIo,
  type LoadedText,
} from './cli-common.ts';

const USAGE = `usage: simsift scan DIR [--k N] ${SETTINGS_USAGE} [--out FILE.csv] [--threads T]`;
/** Default maximum Hamming distance (as `simsift pairs`). */
export const DEFAULT_SCAN_K = 3;
/** Files read ahead while the current one is fingerprinted. */
const READ_AHEAD = 16;
/**
 * Most fingerprinting threads. The default is 1: on this project's shared 2-core machine, 2 threads
 * took 2.1 to 3.8 s against 1.2 to 1.9 s for one on 7,078 files (66 MB), thread startup (each
 * thread loads TypeScript through tsx) included, so threads are only used when asked for.
 */
const MAX_THREADS = 16;
/** Progress line refresh interval on a terminal. */
const PROGRESS_MS = 100;

type ScanArgs = {
  dir: string;
  k: number;
  out: string | undefined;
  /** Fingerprinting threads; undefined means 1. */
  threads: number | undefined;
  settings: ReturnType<typeof defaultSettings>;
};

function parseScanArgs(argv: string[]): ScanArgs | 'help' {
  const settings = defaultSettings();
  let dir: string | undefined;
  let k = DEFAULT_SCAN_K;
  let out: string | undefined;
  let threads: number | undefined;
  let optionsEnded = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!optionsEnded && (arg === '--help' || arg === '-h')) return 'help';
    if (!optionsEnded && arg === '--') {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && arg.startsWith('-') && arg !== '-') {
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (name === '--k' || name === '--out' || name === '--threads') {
        const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
        if (name === '--k') k = parseK(value);
        else if (name === '--threads') {
          if (value === undefined || !/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > MAX_THREADS) {
            throw new UsageError(`--threads must be an integer in 1..${MAX_THREADS} (got ${JSON.stringify(value ?? '')})`);
          }
          threads = Number(value);
        } else if (value === undefined || value === '') throw new UsageError('--out needs a file name');
        else out = value;
        continue;
      }
      const last = parseSettingsOption(argv, i, settings);
      if (last < 0) throw new UsageError(`unknown option ${JSON.stringify(arg)}. ${USAGE}`);
      i = last;
      continue;
    }
    if (dir !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}. ${USAGE}`);
    dir = arg;
  }
  if (dir === undefined) throw new UsageError(`missing DIR. ${USAGE}`);
  return { dir, k, out, threads, settings };
}

/**
 * Every regular file under `root`, as paths relative to it with '/' separators, sorted by code unit.
 * Symbolic links are not followed (no cycles, nothing outside DIR). Unreadable subdirectories are
 * reported through `onError` and skipped.
 */
export async function walkFiles(root: string, onError: (path: string, message: string) => void): Promise<string[]> {
  const files: string[] = [];
  const pending: string[] = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (dir === root) throw error;
      onError(toRelative(root, dir), `directory unreadable (${errorCode(error)})`);
      continue;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) files.push(toRelative(root, full));
    }
  }
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function toRelative(root: string, full: string): string {
  const rel = relative(root, full);
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Loads files in order with up to READ_AHEAD reads in flight, calling `each` one file at a time. */
async function forEachLoaded(
  root: string,
  paths: readonly string[],
  each: (index: number, loaded: LoadedText) => void | Promise<void>,
): Promise<void> {
  const inFlight: Promise<LoadedText>[] = [];
  let next = 0;
  const fill = () => {
    while (inFlight.length < READ_AHEAD && next < paths.length) inFlight.push(loadText(join(root, paths[next++])));
  };
  fill();
  for (let i = 0; i < paths.length; i++) {
    const loaded = await inFlight.shift()!;
    fill();
    await each(i, loaded);
  }
}

/** Reads and fingerprints the files one by one on this thread (with read-ahead). */
async function fingerprintFiles(
  root: string,
  paths: readonly string[],
  fingerprinter: Fingerprinter,
  onProgress: (done: number) => void,
): Promise<FileFingerprints> {
  const n = paths.length;
  const out: FileFingerprints = {
    status: new Uint8Array(n),
    hi: new Uint32Array(n),
    lo: new Uint32Array(n),
    bytes: new Float64Array(n),
    messages: new Array<string | null>(n).fill(null),
  };
  await forEachLoaded(root, paths, (i, loaded) => {
    onProgress(i + 1);
    out.bytes[i] = loaded.bytes;
    if (!loaded.ok) {
      out.status[i] = loaded.kind === 'binary' ? FILE_BINARY : loaded.kind === 'too-large' ? FILE_TOO_LARGE : FILE_UNREADABLE;
      out.messages[i] = loaded.message;
      return;
    }
    const r = fingerprinter.fingerprint(loaded.text);
    if (r.status !== 'ok') {
      out.status[i] = FILE_TOO_SHORT;
      return;
    }
    out.hi[i] = r.hi;
    out.lo[i] = r.lo;
  });
  return out;
}

/** Runs `simsift scan`; returns the exit code (2 for bad arguments or an unreadable DIR, 1 for a failure). */
export async function runScan(argv: string[], io: CliIo = processIo): Promise<number> {
  const progress = createProgress(io);
  let pool: ScanPool | null = null;
  try {
    const args = parseScanArgs(argv);
    if (args === 'help') {
      await write(
        io.stdout,
        `${USAGE}\n  --k N          maximum Hamming distance, 0..64 (default ${DEFAULT_SCAN_K})\n` +
          '  --features F   word3 (3-word shingles, default), word1 (words), char5 (5-character n-grams), ...\n' +
          '  --weights W    binary (default), tf, tfidf (document frequencies from DIR)\n' +
          '  --stop-words   drop English stop words\n  --out FILE     write the CSV there instead of stdout\n' +
          `  --threads T    fingerprinting threads, 1..${MAX_THREADS} (default 1)\n`,
      );
      return 0;
    }
    const started = performance.now();
    let info;
    try {
      info = await stat(args.dir);
    } catch (error) {
      throw new UsageError(`cannot read ${JSON.stringify(args.dir)} (${errorCode(error)})`);
    }
    if (!info.isDirectory()) throw new UsageError(`${JSON.stringify(args.dir)} is not a directory`);
    const problems: string[] = [];
    let paths: string[];
    try {
      paths = await walkFiles(args.dir, (path, message) => problems.push(`${path}: ${message}`));
    } catch (error) {
      throw new UsageError(`cannot read ${JSON.stringify(args.dir)} (${errorCode(error)})`);
    }
    const n = paths.length;

    const threads = Math.min(args.threads ?? 1, Math.max(1, n));
    let files: FileFingerprints;
    let fingerprinter: Fingerprinter;
    if (threads > 1) {
      pool = startScanPool(threads);
      const absolute = paths.map((p) => join(args.dir, p));
      let options: { documentFrequencies?: DocumentFrequencies } = {};
      await pool.configure(args.settings);
      if (args.settings.weights === 'tfidf') {
        const df = await pool.countDocumentFrequencies(absolute, (done) =>
          progress.update(`counting document frequencies ${done}/${n} files`),
        );
        options = { documentFrequencies: df };
        await pool.configure(args.settings, df);
      }
      files = await pool.fingerprint(absolute, (done) => progress.update(`fingerprinting ${done}/${n} files`));
      fingerprinter = createFingerprinter(args.settings, options); // for the feature sets of pairs
    } else {
      // TF-IDF needs the corpus' document frequencies before any fingerprint: a first pass.
      let options = {};
      if (args.settings.weights === 'tfidf') {
        const base = createFingerprinter({ ...args.settings, weights: 'binary' });
        const counter = createDocumentFrequencyCounter();
        await forEachLoaded(args.dir, paths, (i, loaded) => {
          progress.update(`counting document frequencies ${i + 1}/${n} files`);
          if (loaded.ok) counter.add(base.featureSet(loaded.text));
        });
        options = { documentFrequencies: counter.result() };
      }
      fingerprinter = createFingerprinter(args.settings, options);
      files = await fingerprintFiles(args.dir, paths, fingerprinter, (done) =>
        progress.update(`fingerprinting ${done}/${n} files`),
      );
    }

    // Only documents with a fingerprint enter the index.
    const hiAll = files.hi;
    const loAll = files.lo;
    const hasPrint = new Uint8Array(n);
    const counts = { fingerprinted: 0, tooShort: 0, binary: 0, tooLarge: 0, unreadable: 0, bytes: 0 };
    for (let i = 0; i < n; i++) {
      counts.bytes += files.bytes[i];
      const status = files.status[i];
      if (status === FILE_OK) {
        hasPrint[i] = 1;
        counts.fingerprinted++;
      } else if (status === FILE_TOO_SHORT) counts.tooShort++;
      else if (status === FILE_BINARY) counts.binary++;
      else {
        if (status === FILE_TOO_LARGE) counts.tooLarge++;
        else counts.unreadable++;
        problems.push(`${paths[i]}: ${files.messages[i]}`);
      }
    }
    const fingerprintSeconds = (performance.now() - started) / 1000;

    // Index the fingerprinted documents (dense ids), find all pairs within k, map ids back.
    const ids = new Uint32Array(counts.fingerprinted);
    for (let i = 0, j = 0; i < n; i++) if (hasPrint[i]) ids[j++] = i;
    const hi = new Uint32Array(ids.length);
    const lo = new Uint32Array(ids.length);
    for (let j = 0; j < ids.length; j++) {
      hi[j] = hiAll[ids[j]];
      lo[j] = loAll[ids[j]];
    }
    progress.update(`searching pairs among ${ids.length} fingerprints`);
    const found = sortPairs(allPairs(hi, lo, args.k));
    const pairs = await scorePairs(found, ids, args.dir, paths, fingerprinter, progress);
    progress.clear();

    const csv = pairsCsv(pairs, paths);
    if (args.out !== undefined) {
      try {
        await writeFile(args.out, csv);
      } catch (error) {
        throw new UsageError(`cannot write ${JSON.stringify(args.out)} (${errorCode(error)})`);
      }
    } else {
      await write(io.stdout, csv);
    }

    for (const line of problems) await write(io.stderr, `skipped ${line}\n`);
    const seconds = (performance.now() - started) / 1000;
    await write(
      io.stderr,
      `simsift scan: ${n} files, ${(counts.bytes / 1e6).toFixed(1)} MB: ${counts.fingerprinted} fingerprinted, ` +
        `${counts.tooShort} too short, ${counts.binary} binary, ${counts.tooLarge} too large, ${counts.unreadable} unreadable; ` +
        `${pairs.count} pairs in ${pairs.groups} groups (k=${args.k}, ${describeSettings(args.settings)}); ` +
        `${threads} thread${threads === 1 ? '' : 's'}, ` +
        `fingerprinting ${fingerprintSeconds.toFixed(2)} s, total ${seconds.toFixed(2)} s` +
        `${args.out !== undefined ? `; wrote ${args.out}` : ''}\n`,
    );
    return 0;
  } catch (error) {
    progress.clear();
    if (error instanceof UsageError) {
      io.stderr.write(`simsift scan: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`simsift scan: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await pool?.close();
  }
}

/**
 * Groups pairs into connected components and computes each pair's exact Jaccard. Groups are numbered
 * 1.. in order of their first document (documents are in path order); pairs are ordered by group,
 * then by (a, b). Each document's feature set is computed once, re-reading its file.
 */
async function scorePairs(
  found: { a: Uint32Array; b: Uint32Array; distance: Uint8Array; count: number },
  ids: Uint32Array,
  root: string,
  paths: readonly string[],
  fingerprinter: Fingerprinter,
  progress: Progress,
): Promise<{ group: Uint32Array; a: Uint32Array; b: Uint32Array; distance: Uint8Array; jaccard: Float64Array; count: number; groups: number }> {
  const count = found.count;
  const a = new Uint32Array(count);
  const b = new Uint32Array(count);
  for (let p = 0; p < count; p++) {
    a[p] = ids[found.a[p]];
    b[p] = ids[found.b[p]];
  }
  // Connected components over document ids.
  const uf = createUnionFind(paths.length);
  for (let p = 0; p < count; p++) union(uf, a[p], b[p]);
  const groupOfRoot = new Int32Array(paths.length).fill(-1);
  const groupOfPair = new Uint32Array(count);
  let groups = 0;
  // Number groups by their smallest document: scan documents in order.
  const inPair = new Uint8Array(paths.length);
  for (let p = 0; p < count; p++) inPair[a[p]] = inPair[b[p]] = 1;
  for (let d = 0; d < paths.length; d++) {
    if (!inPair[d]) continue;
    const r = find(uf, d);
    if (groupOfRoot[r] < 0) groupOfRoot[r] = ++groups;
  }
  for (let p = 0; p < count; p++) groupOfPair[p] = groupOfRoot[find(uf, a[p])];
  // Order: group, then (a, b) (found is already in (a, b) order and ids preserve it).
  const order = Array.from({ length: count }, (_, p) => p);
  order.sort((x, y) => groupOfPair[x] - groupOfPair[y] || x - y);

  // Exact Jaccard: feature sets of the documents in pairs, each computed once.
  const sets = new Map<number, Uint32Array>();
  const docs = [...new Set(Array.from(a).concat(Array.from(b)))].sort((x, y) => x - y);
  let done = 0;
  await forEachLoaded(
    root,
    docs.map((d) => paths[d]),
    (i, loaded) => {
      progress.update(`exact Jaccard: ${++done}/${docs.length} files`);
      sets.set(docs[i], loaded.ok ? fingerprinter.featureSet(loaded.text) : new Uint32Array(0));
    },
  );
  const out = {
    group: new Uint32Array(count),
    a: new Uint32Array(count),
    b: new Uint32Array(count),
    distance: new Uint8Array(count),
    jaccard: new Float64Array(count),
    count,
    groups,
  };
  for (let i = 0; i < count; i++) {
    const p = order[i];
    out.group[i] = groupOfPair[p];
    out.a[i] = a[p];
    out.b[i] = b[p];
    out.distance[i] = found.distance[p];
    out.jaccard[i] = jaccard(sets.get(a[p])!, sets.get(b[p])!);
  }
  return out;
}

type Progress = { update(text: string): void; clear(): void };

/** A single self-overwriting progress line on stderr, only when stderr is a terminal. */
function createProgress(io: CliIo): Progress {
  const tty = io.stderr.isTTY === true;
  let last = 0;
  let shown = false;
  return {
    update(text) {
      if (!tty) return;
      const now = performance.now();
      if (now - last < PROGRESS_MS) return;
      last = now;
      io.stderr.write(`\r\x1b[K${text}`);
      shown = true;
    },
    clear() {
      if (tty && shown) io.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}
