/**
 * `simsift scan DIR`: the app's scan, run in Node. The CLI only walks DIR and prints: the files go
 * through the same scan session, the same ingest and index worker APIs (in worker threads, over
 * comlink's Node adapter) and the same relation and CSV export as the app's "Export CSV", so both
 * give the same file for the same folder.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DEFAULT_K } from '../core/quality/defaults.ts';
import { pairsCsvBytes } from '../core/export/pairs-csv-bytes.ts';
import { createScanStore, type ScanSnapshot } from '../scan/scan-store.ts';
import { createScanSession } from '../scan/scan-session.ts';
import { describePhases, startCpuClock, type CpuClock } from './scan-phases.ts';
import { refuseOutputsOverInputs } from './output-places.ts';
import { checkProtected, writePlan } from './plan-output.ts';
import { parseScanArgs, scanHelp, type ScanArgs } from './scan-options.ts';
import { chooseFiles, readsEveryFile } from './scan-files.ts';
import { describeCacheUse, describeScan, plural, writeLeftOut } from './scan-summary.ts';
import { defaultThreads } from './cli-options.ts';
import type { ScanResult } from '../scan/scan-result.ts';
import { createNodeScanWorkers, type NodeScanWorkers } from './node-scan-workers.ts';
import type { ListedIdentities } from './stat-listing.ts';
import { positionsIn } from '../scan/scan-docs.ts';
import { cacheOfResult, lendUnchanged, openCache, scanIntoCache, type CacheOutcome, type CacheUse } from './cached-scan.ts';
import type { SearchCorpus } from '../scan/search-corpus.ts';
import { plainScan, type ScanStage } from '../scan/scan-run.ts';
import { writeScanCache } from './scan-cache.ts';
import { takeCsvAhead } from '../scan/pairs-csv-ahead.ts';
import { writeBundle } from './bundle-output.ts';
import { isWithin, realPathOf } from './apply-paths.ts';
import type { PairsInput } from './pairs-input.ts';
import { readPairsFile } from './read-input.ts';
import { matchPairsByPath } from '../core/index/external-pairs.ts';
import type { PairList } from '../core/index/pair-list.ts';
import { flushStream, openAtomicFile, outputError, writeStream, type AtomicFile } from './atomic-file.ts';
import { encodeName, escapeName, hasEscapedBytes, terminalText } from './terminal-names.ts';
import { describeSettings, errorCode, processIo, reportFailure, UsageError, write, type CliIo } from './cli-common.ts';

/** Progress line refresh interval on a terminal. */
const PROGRESS_MS = 100;

/**
 * Opens `out` (atomic-file.ts: a temporary file beside it) before any file is read, so an unwritable
 * place fails at once with exit code 2 and the earlier file stays until the new one is complete.
 */
async function openOutput(out: string): Promise<AtomicFile> {
  try {
    return await openAtomicFile(out);
  } catch (error) {
    throw new UsageError(outputError(JSON.stringify(out), error).message);
  }
}

/**
 * Writes the relation CSV, chunk by chunk, to the output file (committed when whole) or stdout. A name
 * that is not UTF-8 is written as its own bytes. On a terminal the names' control characters are
 * escaped (terminal-names.ts), so a name cannot drive it; a file or a pipe gets the names as they are.
 * `built`: the CSV's bytes from `startCsv`, when another thread built them.
 */
async function writeCsv(result: ScanResult, output: AtomicFile | undefined, io: CliIo, built: Promise<Uint8Array[]> | null): Promise<void> {
  const tty = toTerminal(output, io);
  const paths = tty ? result.docs.paths.map(terminalText) : result.docs.paths;
  // Only a path can hold a name's invalid bytes: its cell is then written as those bytes.
  const encodeCell = paths.some(hasEscapedBytes) ? encodeName : undefined;
  const chunks: Iterable<Uint8Array> = built ? await built : pairsCsvBytes(result.relation, paths, result.contained, undefined, undefined, encodeCell);
  if (output === undefined) {
    for (const chunk of chunks) await writeStream(io.stdout, chunk);
    await flushStream(io.stdout);
    return;
  }
  for (const chunk of chunks) await output.write(chunk);
  await output.commit();
}

/**
 * The CSV's bytes built on the index thread while this one builds and writes the scan's cache; null
 * without a cache (nothing to overlap), or when names need this thread's care (a terminal's escaping,
 * a name's invalid bytes), and the CSV is then built as it is written.
 */
function startCsv(result: ScanResult, output: AtomicFile | undefined, io: CliIo, workers: NodeScanWorkers, caching: boolean): Promise<Uint8Array[]> | null {
  if (!caching || toTerminal(output, io) || result.docs.paths.some(hasEscapedBytes)) return null;
  const build = () => workers.index.call(new AbortController().signal, (api) => api.pairsCsvBytes(result.relation, result.docs.paths, result.contained));
  // A cached scan's merge has the index thread build it right after grouping (the rows are the relation's only: no contained ones).
  const ahead = (result.contained?.count ?? 0) === 0 ? takeCsvAhead(result.relation, result.docs.paths) : null;
  const built = ahead ? ahead.catch(() => null).then((chunks) => chunks ?? build()) : build();
  built.catch(() => {});
  return built;
}

/**
 * Each document's modification time in whole milliseconds (`mtimeMs` at its listing position `listedAt`;
 * 0 at -1). A loop, not Float64Array.from with a function: that iterates the source and boxes every time.
 */
function wholeMilliseconds(listedAt: Int32Array, mtimeMs: Float64Array): Float64Array {
  const out = new Float64Array(listedAt.length);
  for (let d = 0; d < listedAt.length; d++) out[d] = listedAt[d] < 0 ? 0 : Math.floor(mtimeMs[listedAt[d]]);
  return out;
}

/** True when the CSV goes to a terminal (its names then escaped on this thread). */
function toTerminal(output: AtomicFile | undefined, io: CliIo): boolean {
  return output === undefined && (io.stdout as { isTTY?: boolean }).isTTY === true;
}

/** Runs `simsift scan`; returns the exit code (2 for bad arguments or an unreadable DIR, 1 for a failure). */
export async function runScan(argv: string[], io: CliIo = processIo): Promise<number> {
  const progress = createProgress(io);
  let workers: ReturnType<typeof createNodeScanWorkers> | null = null;
  let output: AtomicFile | undefined;
  let planOutput: AtomicFile | undefined;
  let bundleOutput: AtomicFile | undefined;
  let clock: CpuClock | null = null;
  try {
    const args = parseScanArgs(argv);
    if (args === 'help') {
      await write(io.stdout, scanHelp());
      return 0;
    }
    clock = startCpuClock();
    const started = performance.now();
    const startedMs = Date.now();
    await checkPlaces(args);
    // The threads start (and compile their modules) while this thread walks and reads the cache; they take
    // the stats. A cached rescan starts the index thread once they are taken (scan-files.ts readsEveryFile).
    const threads = args.threads ?? defaultThreads();
    workers = createNodeScanWorkers(threads);
    workers.ingest.warm();
    if (readsEveryFile(args)) workers.index.warm();
    // The cache is read while the folder is walked, and restored while the threads take the stats
    // (cached-scan.ts restoreCache needs none); both awaited once the stats are taken.
    const cacheRead = args.cache === undefined ? Promise.resolve(null) : openCache(args.cache, args.dir, args.settings, args.containment);
    cacheRead.catch(() => {});
    if (args.out !== undefined) output = await openOutput(args.out);
    if (args.plan.file !== undefined) planOutput = await openOutput(args.plan.file);
    if (args.bundle !== undefined) bundleOutput = await openOutput(args.bundle);
    // A bad pairs file fails here, before any file is read.
    const pairsInput = args.pairs === undefined ? undefined : await readPairsFile(args.pairs);

    const { collected, scanned, kept, identity, unreadable, listed, hidden, excluded, cacheUse, fromCache, fileAt } = await chooseFiles({ args, workers, cacheRead });
    // k as the session would choose it (by corpus size), known here to check the pairs against it.
    const k = args.k ?? DEFAULT_K;
    const pairs = pairsInput && args.pairs !== undefined ? matchPairs(pairsInput, args.pairs, args, collected.paths, k) : undefined;

    const store = createScanStore({ ...(args.k === undefined ? {} : { k: args.k }), settings: args.settings, similarityThreshold: args.threshold, containmentThreshold: args.containment, grouping: args.grouping });
    let cacheOutcome: CacheOutcome | null = null;
    if (fromCache) await lendUnchanged(workers, new AbortController().signal, fromCache.before, fromCache.check.unchanged, (k) => fileAt(fromCache.check.unchangedAt[k]));
    // The search corpus behind the result: the cache keeps the feature-set sizes it knows.
    let shown: SearchCorpus | null = null;
    const stage: ScanStage | null =
      fromCache
        ? async (scan) => {
            const { grouped, outcome } = await scanIntoCache(scan, workers!, fromCache.before, fromCache.check.unchanged.length, scanned, args.containment === 0 && !toTerminal(output, io));
            cacheOutcome = outcome;
            shown = grouped.corpus;
            return grouped;
          }
        : args.cache !== undefined
          ? async (scan) => {
              const own = await plainScan(scan);
              shown = own.corpus;
              return own;
            }
          : null;
    const session = createScanSession(store, workers, stage);
    const unsubscribe = store.subscribe(() => progress.update(describeProgress(store.getSnapshot())));
    clock.mark();
    const sessionFrom = performance.now();
    await session.start({ kind: 'collected', collected, ...(pairs ? { pairs } : {}) });
    unsubscribe();
    progress.clear();
    const snapshot = store.getSnapshot();
    if (snapshot.state !== 'done' || !snapshot.result) throw new Error(snapshot.error ?? `the scan ended ${snapshot.state}`);
    const result = snapshot.result;
    // Whole milliseconds, as a browser's File.lastModified gives them: the keep rules' newest and oldest
    // then decide alike here and in the page that opens this scan's bundle (stat gives fractions of a ms).
    // Each document's place in the listing (-1: none, or unreadable), for its times.
    const listedAt = positionsIn(result.docs.paths, kept).map((i) => (i >= 0 && unreadable[i] === 0 ? i : -1));
    result.docs.modified = wholeMilliseconds(listedAt, identity.mtimeMs);
    refuseMismatchedPairs(result, args);

    if (planOutput !== undefined) checkProtected(result, args.plan);
    clock.mark();
    const writingFrom = performance.now();
    // The CSV is built on the index thread (idle now) while this thread writes the other outputs.
    const csv = startCsv(result, output, io, workers, args.cache !== undefined);
    const cacheLine = args.cache === undefined ? '' : await keepCache(args.cache, args.dir, startedMs, result, identity, listedAt, shown, cacheUse!, cacheOutcome, args.reread);
    await writeCsv(result, output, io, csv);
    const planned = planOutput === undefined ? '' : await writePlan(result, args.plan, planOutput, args.dir);
    const bundled = bundleOutput === undefined ? '' : await writeBundle(result, { dir: args.dir, scannedAt: startedMs, kAuto: args.k === undefined && !pairs, exclusions: args.exclusions }, bundleOutput);
    await writeLeftOut(io, excluded, [...listed, ...result.skipped]);
    clock.mark();
    const end = performance.now();
    const seconds = (end - started) / 1000;
    const phases = describePhases(clock, { started, sessionFrom, writingFrom, end }, cacheOutcome !== null, args.containment > 0);
    const summary = describeScan({ result, hidden, listed, args, documents: scanned.length, pairsGiven: pairs ? pairs.count : null, cacheLine, merged: cacheOutcome !== null, threads, seconds, phases });
    await write(io.stderr, summary + planned + bundled);
    return 0;
  } catch (error) {
    progress.clear();
    await output?.abort();
    await planOutput?.abort();
    await bundleOutput?.abort();
    return reportFailure('scan', error, io);
  } finally {
    clock?.stop();
    workers?.ingest.terminate();
    workers?.index.terminate();
  }
}

/**
 * Refuses, with exit code 2 before anything starts: a DIR that is not a folder this process can read, an
 * output over an input, and a cache inside DIR (the next scan would read it as a document).
 */
async function checkPlaces(args: ScanArgs): Promise<void> {
  let info;
  try {
    info = await stat(args.dir);
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(args.dir)} (${errorCode(error)})`);
  }
  if (!info.isDirectory()) throw new UsageError(`${JSON.stringify(args.dir)} is not a directory`);
  await refuseOutputsOverInputs([args.dir, ...(args.pairs === undefined ? [] : [args.pairs])], [['--out', args.out], ['--plan', args.plan.file], ['--cache', args.cache], ['--bundle', args.bundle]]);
  if (args.cache !== undefined && isWithin(await realPathOf(resolve(args.cache)), await realPathOf(resolve(args.dir)))) {
    throw new UsageError(`--cache ${JSON.stringify(args.cache)} is inside the folder being scanned: the next scan would read it as a document; choose a path outside ${JSON.stringify(args.dir)}`);
  }
}

/** Refuses the pairs of --pairs whose distances do not fit this scan's fingerprints (other files or settings). */
function refuseMismatchedPairs(result: ScanResult, args: ScanArgs): void {
  if (result.externalMismatched && result.externalMismatched.count > 0) {
    const { count, examples } = result.externalMismatched;
    const shown = examples.map((m) => `${escapeName(result.docs.paths[m.a])} ~ ${escapeName(result.docs.paths[m.b])}: ${m.given} in the file, ${m.actual < 0 ? 'no fingerprint here' : `${m.actual} here`}`);
    throw new UsageError(
      `${plural(count, 'pair')} of ${JSON.stringify(args.pairs)} ${count === 1 ? 'does' : 'do'} not fit this scan's fingerprints ` +
        `(${shown.join('; ')}${count > shown.length ? '; ...' : ''}): were they found from other files or other settings than ${describeSettings(args.settings)}?`,
    );
  }
}

/**
 * Writes the scan's cache (cached-scan.ts) and returns the summary's line about it: what the cache
 * spared, or why it could not be used.
 */
async function keepCache(file: string, dir: string, startedMs: number, result: ScanResult, identity: ListedIdentities, listedAt: Int32Array, search: SearchCorpus | null, use: CacheUse, outcome: CacheOutcome | null, reread: boolean): Promise<string> {
  const cache = cacheOfResult(await realpath(dir), startedMs, result, identity, listedAt, search);
  if (cache) await writeScanCache(file, cache);
  return describeCacheUse(file, cache !== null, use, outcome, reread);
}

/** Examples shown of a problem with many instances. */
const SHOWN = 3;

/**
 * The pairs file's pairs as doc ids of this scan (`paths` in doc order), refusing a file that cannot
 * be the candidates of this scan: other settings or another k recorded, a distance beyond k, a
 * path that is not under DIR. A path matches relative to DIR, or as `simsift fingerprint DIR` writes
 * it (DIR/relative, resolved against the current directory).
 */
function matchPairs(input: PairsInput, file: string, args: ScanArgs, paths: readonly string[], k: number): PairList {
  const { recorded } = input;
  if (recorded.settings && describeSettings(recorded.settings) !== describeSettings(args.settings)) {
    throw new UsageError(`${file} was found from fingerprints with ${describeSettings(recorded.settings)}; this scan uses ${describeSettings(args.settings)} (set the same options)`);
  }
  if (recorded.k !== undefined && recorded.k !== k) {
    throw new UsageError(
      `${file} holds the pairs within k=${recorded.k}; this scan uses k=${k}${args.k === undefined ? ' (by corpus size)' : ''}: ` +
        `${recorded.k < k ? 'pairs between the two would be missing' : 'it holds pairs beyond this k'} (give --k ${recorded.k})`,
    );
  }
  const beyond: string[] = [];
  let beyondCount = 0;
  for (let p = 0; p < input.distance.length; p++) {
    if (input.distance[p] <= k) continue;
    if (beyond.length < SHOWN) beyond.push(`${input.pathA[p]} ~ ${input.pathB[p]} at ${input.distance[p]}`);
    beyondCount++;
  }
  if (beyondCount > 0) {
    throw new UsageError(`${plural(beyondCount, 'pair')} of ${file} ${beyondCount === 1 ? 'is' : 'are'} farther apart than k=${k} (${beyond.join('; ')}${beyondCount > SHOWN ? '; ...' : ''}): give the --k they were found with`);
  }
  const byPath = new Map<string, number>();
  paths.forEach((path, d) => byPath.set(path, d));
  const root = resolve(args.dir);
  const docOf = (path: string): number => {
    const direct = byPath.get(path);
    if (direct !== undefined) return direct;
    const under = relative(root, resolve(path));
    if (under === '' || under.startsWith('..') || isAbsolute(under)) return -1;
    return byPath.get(under.split(sep).join('/')) ?? -1;
  };
  const matched = matchPairsByPath(input, docOf);
  if (matched.missing.count > 0) {
    const { count, examples } = matched.missing;
    throw new UsageError(
      `${plural(count, 'path')} of ${file} ${count === 1 ? 'is' : 'are'} not among the files scanned under ${JSON.stringify(args.dir)} ` +
        `(${examples.slice(0, SHOWN).map((e) => JSON.stringify(e)).join(', ')}${count > SHOWN ? ', ...' : ''}): pairs must come from fingerprints of this folder`,
    );
  }
  return matched.pairs;
}

/** The progress line's text for a snapshot of the scan. */
function describeProgress(s: ScanSnapshot): string {
  const p = s.progress;
  if (!p) return 'listing files';
  if (p.phase === 'reading' || p.phase === 'fingerprinting') return `fingerprinting ${p.filesDone}/${p.filesTotal} files`;
  return p.phase === 'indexing' ? 'searching near-duplicate pairs' : 'verifying and grouping';
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
