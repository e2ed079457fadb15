/**
 * `simsift scan DIR`: fingerprints every text file under DIR and answers as the app does with the
 * same settings: exact duplicates (identical normalized text) grouped and fingerprinted once,
 * candidate pairs within Hamming distance k from the permuted-table index, each confirmed by the
 * exact Jaccard of the two feature sets, short documents decided by the exact similarity join,
 * reference-centred groups (or connected components), and the pairs CSV of the app's "Export CSV".
 */
import { readFileSync } from 'node:fs';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { findNearDuplicates, type NearDuplicateInput } from '../core/groups/near-duplicates.ts';
import { referenceGroups } from '../core/groups/reference-groups.ts';
import { CHAIN_FOUND, CHAIN_UNKNOWN, connectedComponents, detectChaining } from '../core/groups/components.ts';
import { UNKNOWN_DISTANCE, type GroupTable } from '../core/groups/group-table.ts';
import { DEFAULT_SIMILARITY_THRESHOLD, SMALL_CORPUS, LARGE_CORPUS, defaultK, expectedRecall } from '../core/quality/defaults.ts';
import { createDocumentFrequencyCounter, type DocumentFrequencies } from '../core/simhash/document-frequencies.ts';
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { hamming } from '../core/simhash/fingerprint64.ts';
import { decodeText } from '../core/text/decode.ts';
import { relationCsvChunks } from '../core/export/csv.ts';
import { buildDuplicateRelation } from '../core/groups/duplicate-relation.ts';
import {
  comparedText,
  createFileFingerprints,
  FILE_BINARY,
  FILE_EMPTY,
  FILE_OK,
  FILE_TOO_LARGE,
  FILE_TOO_SHORT,
  FileRecorder,
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

const USAGE =
  `usage: simsift scan DIR [--k N] [--similarity T] [--no-verify] [--groups reference|components] ` +
  `${SETTINGS_USAGE} [--out FILE.csv] [--threads T]`;
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

type Grouping = 'reference' | 'components';

type ScanArgs = {
  dir: string;
  /** Undefined: follows the corpus size (defaultK). */
  k: number | undefined;
  threshold: number;
  verify: boolean;
  grouping: Grouping;
  out: string | undefined;
  /** Fingerprinting threads; undefined means 1. */
  threads: number | undefined;
  settings: ReturnType<typeof defaultSettings>;
};

/** Parses --similarity: a number in (0, 1]. */
function parseThreshold(value: string | undefined): number {
  const t = value === undefined || !/^\d*\.?\d+$/.test(value) ? Number.NaN : Number(value);
  if (!(t > 0 && t <= 1)) throw new UsageError(`--similarity must be a number in (0, 1], e.g. 0.8 (got ${JSON.stringify(value ?? '')})`);
  return t;
}

function parseScanArgs(argv: string[]): ScanArgs | 'help' {
  const settings = defaultSettings();
  let dir: string | undefined;
  let k: number | undefined;
  let threshold = DEFAULT_SIMILARITY_THRESHOLD;
  let verify = true;
  let grouping: Grouping = 'reference';
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
      if (name === '--no-verify') {
        if (eq > 0) throw new UsageError('--no-verify takes no value');
        verify = false;
        continue;
      }
      if (name === '--k' || name === '--out' || name === '--threads' || name === '--similarity' || name === '--groups') {
        const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
        if (name === '--k') k = parseK(value);
        else if (name === '--similarity') threshold = parseThreshold(value);
        else if (name === '--groups') {
          if (value !== 'reference' && value !== 'components') {
            throw new UsageError(`--groups must be reference or components (got ${JSON.stringify(value ?? '')})`);
          }
          grouping = value;
        } else if (name === '--threads') {
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
  return { dir, k, threshold, verify, grouping, out, threads, settings };
}

/** Names the app skips as hidden: dot files and folders, and node_modules. */
function isHiddenName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * Every regular file under `root`, as paths relative to it with '/' separators, sorted by code unit.
 * Symbolic links are not followed (no cycles, nothing outside DIR). Hidden files and folders are
 * left out as in the app (folders not entered; `onHidden` hears each). Unreadable subdirectories
 * are reported through `onError` and skipped.
 */
export async function walkFiles(
  root: string,
  onError: (path: string, message: string) => void,
  onHidden: (path: string) => void = () => undefined,
): Promise<string[]> {
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
      if ((entry.isDirectory() || entry.isFile()) && isHiddenName(entry.name)) {
        onHidden(toRelative(root, full));
        continue;
      }
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
  recorder: FileRecorder,
  onProgress: (done: number) => void,
): Promise<FileFingerprints> {
  const out = createFileFingerprints(paths.length);
  await forEachLoaded(root, paths, (i, loaded) => {
    onProgress(i + 1);
    recorder.record(out, i, paths[i], loaded);
  });
  return out;
}

/** Exact-duplicate groups: documents with identical normalized text (2+ each), and each one's representative. */
type ExactGroups = {
  /** count + 1 offsets into `members`. */
  start: Uint32Array;
  /** Doc ids, ascending within a group (the first is the group's reference); groups largest first. */
  members: Uint32Array;
  count: number;
  /** Per doc: the lowest doc id with the same text, or -1 when the doc has no fingerprint. */
  representative: Int32Array;
};

/**
 * Groups the fingerprinted documents by content hash, as the app's index worker does: groups of 2+
 * ordered largest first (ties: lowest first member), members ascending.
 */
function groupExact(files: FileFingerprints): ExactGroups {
  const n = files.status.length;
  const representative = new Int32Array(n).fill(-1);
  let m = 0;
  for (let i = 0; i < n; i++) if (files.status[i] === FILE_OK) m++;
  const ids = new Uint32Array(m);
  for (let i = 0, j = 0; i < n; i++) if (files.status[i] === FILE_OK) ids[j++] = i;
  const { hashHi, hashLo } = files;
  ids.sort((x, y) => hashHi[x] - hashHi[y] || hashLo[x] - hashLo[y] || x - y);
  const lists: Uint32Array[] = [];
  for (let s = 0; s < m; ) {
    let e = s + 1;
    while (e < m && hashHi[ids[e]] === hashHi[ids[s]] && hashLo[ids[e]] === hashLo[ids[s]]) e++;
    for (let t = s; t < e; t++) representative[ids[t]] = ids[s];
    if (e - s > 1) lists.push(ids.slice(s, e));
    s = e;
  }
  lists.sort((x, y) => y.length - x.length || x[0] - y[0]);
  const start = new Uint32Array(lists.length + 1);
  for (let g = 0; g < lists.length; g++) start[g + 1] = start[g] + lists[g].length;
  const members = new Uint32Array(start[lists.length]);
  lists.forEach((list, g) => members.set(list, start[g]));
  return { start, members, count: lists.length, representative };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Runs `simsift scan`; returns the exit code (2 for bad arguments or an unreadable DIR, 1 for a failure). */
export async function runScan(argv: string[], io: CliIo = processIo): Promise<number> {
  const progress = createProgress(io);
  let pool: ScanPool | null = null;
  try {
    const args = parseScanArgs(argv);
    if (args === 'help') {
      await write(
        io.stdout,
        `${USAGE}\n` +
          `  --k N            candidate pairs: fingerprints at most N bits apart, 0..64 (default by corpus size: 16 up to\n` +
          `                   ${SMALL_CORPUS} files, ${defaultK(LARGE_CORPUS)} up to ${LARGE_CORPUS}, 12 beyond)\n` +
          `  --similarity T   a candidate is a near-duplicate when the exact Jaccard of its feature sets is >= T (default ${DEFAULT_SIMILARITY_THRESHOLD})\n` +
          '  --no-verify      list fingerprint candidates without exact verification (jaccard left empty;\n' +
          '                   pairs with a short document are still verified)\n' +
          '  --groups G       reference (default: every member verified against its group\'s reference) or\n' +
          '                   components (connected components; stderr says how many chain)\n' +
          '  --features F     word3 (3-word shingles, default), word1 (words), char5 (5-character n-grams), ...\n' +
          '  --weights W      binary (default), tf, tfidf (document frequencies from DIR)\n' +
          '  --stop-words     drop English stop words\n  --out FILE       write the CSV there instead of stdout\n' +
          `  --threads T      fingerprinting threads, 1..${MAX_THREADS} (default 1)\n`,
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
    let hidden = 0;
    let paths: string[];
    try {
      paths = await walkFiles(
        args.dir,
        (path, message) => problems.push(`${path}: ${message}`),
        () => hidden++,
      );
    } catch (error) {
      throw new UsageError(`cannot read ${JSON.stringify(args.dir)} (${errorCode(error)})`);
    }
    const n = paths.length;

    const threads = Math.min(args.threads ?? 1, Math.max(1, n));
    let files: FileFingerprints;
    let recorder: FileRecorder;
    if (threads > 1) {
      pool = startScanPool(threads);
      const absolute = paths.map((p) => join(args.dir, p));
      let df: DocumentFrequencies | undefined;
      await pool.configure(args.settings);
      if (args.settings.weights === 'tfidf') {
        df = await pool.countDocumentFrequencies(absolute, (done) => progress.update(`counting document frequencies ${done}/${n} files`));
        await pool.configure(args.settings, df);
      }
      files = await pool.fingerprint(absolute, (done) => progress.update(`fingerprinting ${done}/${n} files`));
      recorder = new FileRecorder(args.settings, df); // for the feature sets of candidate pairs
    } else {
      // TF-IDF needs the corpus' document frequencies before any fingerprint: a first pass.
      let df: DocumentFrequencies | undefined;
      if (args.settings.weights === 'tfidf') {
        const base = createFingerprinter({ ...args.settings, weights: 'binary' });
        const counter = createDocumentFrequencyCounter();
        await forEachLoaded(args.dir, paths, (i, loaded) => {
          progress.update(`counting document frequencies ${i + 1}/${n} files`);
          if (loaded.ok) counter.add(base.featureSet(comparedText(paths[i], loaded.text)));
        });
        df = counter.result();
      }
      recorder = new FileRecorder(args.settings, df);
      files = await fingerprintFiles(args.dir, paths, recorder, (done) => progress.update(`fingerprinting ${done}/${n} files`));
    }

    const counts = { ok: 0, tooShort: 0, binary: 0, empty: 0, tooLarge: 0, unreadable: 0, bytes: 0 };
    for (let i = 0; i < n; i++) {
      counts.bytes += files.bytes[i];
      const status = files.status[i];
      if (status === FILE_OK) counts.ok++;
      else if (status === FILE_TOO_SHORT) counts.tooShort++;
      else if (status === FILE_BINARY) counts.binary++;
      else if (status === FILE_EMPTY) counts.empty++;
      else {
        if (status === FILE_TOO_LARGE) counts.tooLarge++;
        else counts.unreadable++;
        problems.push(`${paths[i]}: ${files.messages[i]}`);
      }
    }
    const fingerprintSeconds = (performance.now() - started) / 1000;

    // Exact duplicates: only one document per distinct text takes part in the near-duplicate search.
    const exact = groupExact(files);
    const hasFingerprint = new Uint8Array(n);
    const featureCount = new Uint32Array(n);
    let distinct = 0;
    for (let d = 0; d < n; d++) {
      if (exact.representative[d] !== d) continue;
      hasFingerprint[d] = 1;
      distinct++;
      // Only small documents' set sizes are known without re-reading them; a longer document (>= 200
      // words) is left out of the short-document join, as in the app (its candidates are still verified).
      featureCount[d] = files.smallSets.get(d)?.length ?? 0;
    }
    let reread = 0;
    const featureSetOf = (doc: number): Uint32Array => {
      const small = files.smallSets.get(doc);
      if (small) return small;
      reread++;
      progress.update(`exact Jaccard: ${reread} files read again`);
      try {
        const decoded = decodeText(readFileSync(join(args.dir, paths[doc])));
        return decoded.ok ? recorder.featureSet(paths[doc], decoded.text) : new Uint32Array(0);
      } catch {
        return new Uint32Array(0); // moved or deleted since it was fingerprinted: it matches nothing
      }
    };
    const input: NearDuplicateInput = {
      hi: files.hi,
      lo: files.lo,
      hasFingerprint,
      words: files.words,
      featureCount,
      getFeatureSet: featureSetOf,
    };
    progress.update(`searching pairs among ${distinct} distinct texts`);
    const k = args.k ?? defaultK(n);
    const found = findNearDuplicates(input, { k, threshold: args.threshold, verify: args.verify });
    // Feature sets of small documents are no longer needed unless components must be checked for chaining.
    if (args.grouping === 'reference') files.smallSets.clear();

    let near: GroupTable;
    let chainNote = '';
    if (args.grouping === 'components') {
      near = connectedComponents(n, found.pairs);
      progress.update(`checking ${near.count} components for chaining`);
      const chains = detectChaining(near, found.pairs, featureSetOf, args.threshold);
      let unknown = 0;
      for (let g = 0; g < near.count; g++) if (chains.status[g] === CHAIN_UNKNOWN) unknown++;
      // Members not paired with the component's reference: their distance comes from the fingerprints.
      for (let g = 0; g < near.count; g++) {
        const ref = near.members[near.offsets[g]];
        for (let s = near.offsets[g] + 1; s < near.offsets[g + 1]; s++) {
          const m = near.members[s];
          if (near.distanceToReference[s] === UNKNOWN_DISTANCE) near.distanceToReference[s] = hamming(files.hi[ref], files.lo[ref], files.hi[m], files.lo[m]);
        }
      }
      const witness = (g: number) =>
        `${paths[chains.witnessA[g]]} and ${paths[chains.witnessB[g]]} (Jaccard ${chains.witnessJaccard[g].toFixed(4)})`;
      let first = -1;
      for (let g = 0; g < near.count && first < 0; g++) if (chains.status[g] === CHAIN_FOUND) first = g;
      chainNote =
        (chains.chained === 0
          ? '; no component chains'
          : `; ${plural(chains.chained, 'component chains', 'components chain')} (members linked through others although ` +
            `not near-duplicates, e.g. group ${first + 1}: ${witness(first)})`) +
        (unknown > 0 ? `, ${unknown} too large to check fully` : '');
    } else {
      near = referenceGroups(n, found.pairs, { lengths: files.words });
    }
    progress.clear();

    const relation = buildDuplicateRelation({ count: n, representative: exact.representative, verified: found.pairs, lengths: files.words, grouping: args.grouping });
    const csv = [...relationCsvChunks(relation, paths)].join('');
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
    const verified = args.verify
      ? `${found.pairs.count} verified (Jaccard >= ${args.threshold}`
      : `${found.pairs.count} listed without verification (pairs with a short document verified at Jaccard >= ${args.threshold}`;
    await write(
      io.stderr,
      `simsift scan: ${plural(n, 'file')}, ${(counts.bytes / 1e6).toFixed(1)} MB: ${counts.ok} fingerprinted (${distinct} distinct texts; ` +
        `${files.fingerprinted} fingerprint runs), ${counts.tooShort} too short, ${counts.binary} binary, ${counts.empty} empty, ` +
        `${counts.tooLarge} too large, ${counts.unreadable} unreadable, ${hidden} hidden\n` +
        `simsift scan: ${plural(exact.count, 'exact group')}; ${plural(found.candidates, 'candidate pair')} within k=${k} ` +
        `(expected recall at Jaccard 0.8-0.9: ${expectedRecall(k).toFixed(3)}), ` +
        `${verified}; ${found.joinPairs} from the short-document join, ${found.joinOnly} of them not candidates); ` +
        `${plural(near.count, 'near-duplicate group')} (${args.grouping})${chainNote}; ` +
        `${describeSettings(args.settings)}; ${plural(threads, 'thread')}; ${reread} files read again for exact Jaccard; ` +
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
