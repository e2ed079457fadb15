/**
 * `simsift pairs FILE --k N [--engine index|duckdb] ...`: reads fingerprints (text: one per line,
 * alone or as `simsift fingerprint` prints them; or the Parquet export) and prints every pair within
 * distance k as `i j distance` (0-based row numbers, i < j, sorted), with a one-line summary on
 * stderr. The in-process permuted-table index or DuckDB (core/index/pairs-sql.ts) searches; both
 * give the same lines.
 */
import './wasm-top-tier.ts';
import { allPairs } from '../core/index/all-pairs.ts';
import { MAX_BLOCKS, binomial, layoutProblem } from '../core/index/block-layout.ts';
import { chooseBlocks, estimateCost } from '../core/index/search-cost.ts';
import { ESTIMATE_BUDGET, allPairCount, estimatePairCount } from '../core/index/pair-estimate.ts';
import { PairLimitError, sortPairs, type PairList } from '../core/index/pair-list.ts';
import { processIo, TooManyPairsError, UsageError, reportFailure, write, type CliIo } from './cli-common.ts';
import { defaultThreads, oneOperand, parseOptions, parseThreads } from './cli-options.ts';
import { openOutput, parquetOutput, textOutput, type PairOutput, type PairPaths } from './pairs-output.ts';
import { isParquet, readHead } from './fingerprint-input.ts';
import { readFingerprintFile } from './read-input.ts';
import type { PairsPool } from './pairs-threads.ts';
import { refuseOutputsOverInputs } from './output-places.ts';
import { namedRegularFile, type NamedFile } from './input-files.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';

const USAGE =
  'usage: simsift pairs FILE [--k N] [--engine index|duckdb] [--blocks M] [--threads T] [--memory-limit SIZE] [--max-pairs P] [--out FILE] [--format text|parquet] [--paths]';
const HELP = `${USAGE}
  FILE             fingerprints: text (16 hex digits a line, or \`simsift fingerprint\` output, where \`-\` rows have none)
                   or the Parquet file of \`simsift fingerprint DIR --format parquet\`; i and j are 0-based row numbers
  --k N            maximum Hamming distance, 0..64 (default 3)
  --engine E       index: the in-process permuted-table index (default); duckdb: the same search as SQL in DuckDB,
                   with DuckDB's memory limit and spilling to a temporary directory
  --blocks M       blocks per fingerprint, k < M <= ${MAX_BLOCKS} (default: chosen from n and k for the engine)
  --threads T      index: threads searching, this one included (default: all cores when the search would take
                   over ~0.05 s on one);
                   duckdb: DuckDB's threads (default: all cores)
  --memory-limit S duckdb: DuckDB's memory_limit, e.g. 512MB or 4GB (default: DuckDB's, 80% of RAM)
  --max-pairs P    refuse a search estimated (from a sample) to report more than P pairs (default ${'100,000,000'})
  --out FILE       write the pairs to FILE instead of stdout (checked before any work)
  --format F       text (default) or parquet (the default when --out ends in .parquet): columns i, j, distance,
                   path_a, path_b, with k and the fingerprints' settings in the metadata; \`simsift scan DIR --pairs FILE\`
                   reads it back
  --paths          append the two paths to each line: \`i j distance<TAB>path_a<TAB>path_b\` (tab, newline,
                   CR and backslash in a path written \\t \\n \\r \\\\)
`;
/** Default bound on reported pairs: ~1 GB of in-process pair lists, ~2 GB of output text. */
export const DEFAULT_MAX_PAIRS = 100_000_000;

interface PairsArgs {
  file: string;
  k: number;
  engine: 'index' | 'duckdb';
  blocks: number | undefined;
  /** Undefined: decided from the estimated search time once n is known (index), DuckDB's default (duckdb). */
  threads: number | undefined;
  memoryLimit: string | undefined;
  maxPairs: number;
  out: string | undefined;
  /** parquet: the pairs file `simsift scan --pairs` reads (always with paths). */
  format: 'text' | 'parquet';
  paths: boolean;
}

/**
 * Searches estimated to take longer than this on one core use every core. The calling thread searches
 * one range itself, so a second core adds one worker, started before the input is read: its startup
 * overlaps the reading, and half the search moves off this thread.
 */
const AUTO_THREADS_ABOVE_NS = 0.05e9;
/** A search shorter than this is not estimated first: its own pair limit stops it soon enough. */
const ESTIMATE_ABOVE_NS = 2e9;
/** The estimate's share of the search's expected time, and what one of its distance checks costs. */
const ESTIMATE_SHARE = 0.02;
const ESTIMATE_NS_PER_CHECK = 1.5;

function tooManyPairs(estimate: number, args: PairsArgs): TooManyPairsError {
  return new TooManyPairsError(
    `about ${estimate.toLocaleString('en')} pairs within k=${args.k} (estimated from a sample), over --max-pairs ${args.maxPairs.toLocaleString('en')}: lower --k, or raise --max-pairs if the output may be that large`,
  );
}

/**
 * Runs `simsift pairs` with the arguments after the subcommand name (e.g. `['fps.txt', '--k', '3']`)
 * and returns the exit code: 0 on success, 2 on bad arguments or input, 1 on an unexpected failure.
 */
export async function runPairs(argv: string[], io: CliIo = processIo): Promise<number> {
  let pool: PairsPool | null = null;
  let output: PairOutput | null = null;
  try {
    const args = parsePairsArgs(argv);
    if (args === 'help') {
      await write(io.stdout, HELP);
      return 0;
    }
    // An --out over FILE, or an unwritable one, fails here, before the input is read or anything is
    // searched; then FILE is checked (a regular file, by its real path: DuckDB is given nothing else).
    await refuseOutputsOverInputs([args.file], [['--out', args.out]]);
    const outFile = args.out !== undefined ? await openOutput(args.out) : null;
    output = args.format === 'parquet' ? parquetOutput(outFile!, args.k) : textOutput(outFile, io.stdout);
    const file = await namedRegularFile(args.file);
    if (args.engine === 'duckdb') return await runDuckdb(args, file, output, io);

    // Threads start before the input is read, so their startup (loading their code) overlaps reading:
    // as many as asked, or by default as the search needs at the most fingerprints a text file's size allows.
    const early = args.threads ?? (isParquet(await readHead(file)) ? 1 : autoPairsThreads(Math.ceil(file.size / 17), args.k, args.blocks));
    if (early > 1) pool = await startPool(early);

    const readStart = performance.now();
    // Shared memory: the worker threads read the fingerprints where they were parsed, without a copy.
    const input = await readFingerprintFile(file, args.paths, true);
    const paths = checkedPaths(input.paths, args);
    const { hi, lo } = input;
    const n = hi.length;
    const readSeconds = (performance.now() - readStart) / 1000;

    const blocks = args.k > MAX_BLOCKS - 1 && args.blocks === undefined ? 0 : (args.blocks ?? chooseBlocks(n, args.k));
    // One-thread search time (brute force: about 1 ns a pair), for the estimate.
    const searchNs = blocks > 0 ? estimateCost(n, args.k, blocks) : allPairCount(n);
    // The search stops itself past --max-pairs (so memory stays bounded). A sample estimate first
    // pays only where the search is long and could end that way: it costs at most ~2% of the search.
    let estimate: number | null = null;
    const estimateStart = performance.now();
    if (allPairCount(n) > args.maxPairs && searchNs > ESTIMATE_ABOVE_NS) {
      estimate = estimatePairCount(hi, lo, args.k, Math.min(ESTIMATE_BUDGET, (searchNs * ESTIMATE_SHARE) / ESTIMATE_NS_PER_CHECK));
      if (estimate > args.maxPairs) throw tooManyPairs(estimate, args);
    }
    const estimateSeconds = (performance.now() - estimateStart) / 1000;
    // A Parquet input's count is known only now.
    if (args.threads === undefined && !pool) {
      const threads = autoPairsThreads(n, args.k, args.blocks);
      if (threads > 1) pool = await startPool(threads);
    }
    const searchStart = performance.now();
    let threadsUsed = 1;
    // Tables each thread searched, this one first: the split follows which thread got to a table first.
    let threadTables: readonly number[] = [];
    let presorted = false;
    let pairs: PairList;
    // Int32 counters bound the shared count: a limit that high could not be held in memory anyway.
    const limit = Math.min(args.maxPairs, 2 ** 31 - 2 ** 26);
    try {
      if (pool && n >= 2 && blocks > 0) {
        threadsUsed = pool.size;
        // Not waiting for the workers to load: this thread searches its range meanwhile.
        // Sorted where found: each thread sorts its own pairs (the worker while this thread sorts its own), then one merge.
        pairs = await pool.sortedPairs(hi, lo, args.k, blocks, limit);
        threadTables = pool.lastThreadTables;
        presorted = true;
        // A worker that could not start fails the command even when this thread took every table
        // (its startup, begun before the input was read, is over by now unless the search was short).
        await pool.ready;
      } else {
        pairs = allPairs(hi, lo, args.k, { ...(blocks > 0 ? { blocks } : {}), pairLimit: { limit } });
      }
    } catch (error) {
      // Stopped past the limit: say about how many pairs there would have been.
      if (error instanceof PairLimitError) throw tooManyPairs(Math.max(estimatePairCount(hi, lo, args.k), args.maxPairs + 1), args);
      throw error;
    }
    const searchEnd = performance.now();
    const sorted = presorted ? pairs : sortPairs(pairs);
    // Fingerprint numbers become row numbers (rows without a fingerprint were left out); the map is increasing, so the order holds.
    if (input.rows) {
      for (let p = 0; p < sorted.count; p++) {
        sorted.a[p] = input.rows[sorted.a[p]];
        sorted.b[p] = input.rows[sorted.b[p]];
      }
    }
    const outputStart = performance.now();
    if (input.format === 'parquet') output.settings = await readRecordedSettings(file);
    await output.write(sorted, paths ? { a: (i) => paths[sorted.a[i]], b: (i) => paths[sorted.b[i]] } : undefined);
    await output.finish();
    const outputSeconds = (performance.now() - outputStart) / 1000;

    const searchSeconds = (searchEnd - searchStart) / 1000;
    const summary = [
      `simsift pairs: n=${n}`,
      ...(input.totalRows !== n ? [`rows=${input.totalRows}`] : []),
      `k=${args.k}`,
      'engine=index',
      blocks > 0 ? `blocks=${blocks} tables=${binomial(blocks, args.k)}` : 'blocks=none (brute force)',
      `threads=${threadsUsed}`,
      ...(threadTables.length > 0 ? [`thread_tables=${threadTables.join('+')}`] : []),
      `pairs=${sorted.count}`,
      ...(estimate !== null ? [`estimated_pairs=${estimate}`, `estimate_seconds=${estimateSeconds.toFixed(3)}`] : []),
      `read_seconds=${readSeconds.toFixed(3)}`,
      `search_seconds=${searchSeconds.toFixed(3)}`,
      `sort_seconds=${((outputStart - searchEnd) / 1000).toFixed(3)}`,
      `output_seconds=${outputSeconds.toFixed(3)}`,
    ];
    io.stderr.write(summary.join(' ') + '\n');
    return 0;
  } catch (error) {
    return reportFailure('pairs', error, io);
  } finally {
    await pool?.close();
    await output?.close();
  }
}

/**
 * The threads a search of n fingerprints within k uses by default: every core (at most one per table,
 * and 8) once the one-thread estimate passes AUTO_THREADS_ABOVE_NS, else 1. `blocks` as given (or chosen).
 */
export function autoPairsThreads(n: number, k: number, blocks: number | undefined, cores = defaultThreads()): number {
  const m = k > MAX_BLOCKS - 1 && blocks === undefined ? 0 : (blocks ?? chooseBlocks(n, k));
  if (m === 0 || estimateCost(n, k, m) <= AUTO_THREADS_ABOVE_NS) return 1;
  return Math.max(1, Math.min(cores, binomial(m, k), 8));
}

/** The pair-search threads: their pool (and comlink) loaded only when a search uses more than one. */
async function startPool(threads: number): Promise<PairsPool> {
  return (await import('./pairs-threads.ts')).startPairsPool(threads);
}

/** A Parquet input's recorded settings: the Parquet decoder loaded only for a Parquet input. */
async function readRecordedSettings(file: NamedFile): Promise<SimHashSettings | undefined> {
  return (await import('./fingerprint-parquet-input.ts')).readRecordedSettings(file);
}

/** `--engine duckdb`: DuckDB reads the Parquet file itself; text is parsed here and appended. */
async function runDuckdb(args: PairsArgs, file: NamedFile, output: PairOutput, io: CliIo): Promise<number> {
  const readStart = performance.now();
  const head = await readHead(file);
  const parquet = isParquet(head);
  if (parquet) output.settings = await readRecordedSettings(file);
  const input = parquet ? null : await readFingerprintFile(file, args.paths);
  const textPaths = input ? checkedPaths(input.paths, args) : undefined;
  const readSeconds = (performance.now() - readStart) / 1000;
  const outputStart = { seconds: 0 };
  // DuckDB is a native module: loaded only when asked for, not on every simsift start.
  const { duckdbPairs } = await import('./duckdb-pairs.ts');
  const run = await duckdbPairs(
    input ? { hi: input.hi, lo: input.lo, rows: input.rows } : { parquet: file.real, name: file.given },
    { k: args.k, blocks: args.blocks, memoryLimit: args.memoryLimit, threads: args.threads, maxPairs: args.maxPairs, paths: args.paths },
    async (a, b, distance, count, chunkPaths) => {
      const t = performance.now();
      // Parquet: DuckDB joined the paths to each pair; text: they were read here, by row.
      const pathsOf: PairPaths | undefined = chunkPaths
        ? { a: (i) => chunkPaths.a[i], b: (i) => chunkPaths.b[i] }
        : textPaths
          ? { a: (i) => textPaths[a[i]], b: (i) => textPaths[b[i]] }
          : undefined;
      await output.write({ a, b, distance, count }, pathsOf);
      outputStart.seconds += (performance.now() - t) / 1000;
    },
  );
  const finishStart = performance.now();
  await output.finish();
  outputStart.seconds += (performance.now() - finishStart) / 1000;
  const summary = [
    `simsift pairs: n=${run.n}`,
    ...(input && input.totalRows !== run.n ? [`rows=${input.totalRows}`] : []),
    `k=${args.k}`,
    'engine=duckdb',
    run.blocks > 0 ? `blocks=${run.blocks} tables=${run.tables}` : 'blocks=none (brute force)',
    ...(args.memoryLimit ? [`memory_limit=${args.memoryLimit}`] : []),
    `pairs=${run.pairs}`,
    ...(run.estimate !== null ? [`estimated_pairs=${run.estimate}`, `estimate_seconds=${run.estimateSeconds.toFixed(3)}`] : []),
    `read_seconds=${(readSeconds + run.loadSeconds).toFixed(3)}`,
    `search_seconds=${(run.searchSeconds - outputStart.seconds).toFixed(3)}`,
    `output_seconds=${outputStart.seconds.toFixed(3)}`,
  ];
  io.stderr.write(summary.join(' ') + '\n');
  return 0;
}

/** The input's paths for --paths (undefined without it); a text file without any path cannot give them. */
function checkedPaths(paths: string[] | undefined, args: PairsArgs): string[] | undefined {
  if (!args.paths) return undefined;
  if (!paths || !paths.some((p) => p !== '')) {
    throw new UsageError(`--paths: ${JSON.stringify(args.file)} has no paths (write it with simsift fingerprint, or as Parquet)`);
  }
  return paths;
}

/** `simsift pairs`'s options (cli-options.ts reads them). */
const PAIRS_OPTIONS = {
  k: { type: 'string' },
  engine: { type: 'string' },
  blocks: { type: 'string' },
  threads: { type: 'string' },
  'memory-limit': { type: 'string' },
  'max-pairs': { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  paths: { type: 'boolean' },
} as const;

function parsePairsArgs(argv: string[]): PairsArgs | 'help' {
  const parsed = parseOptions(argv, PAIRS_OPTIONS, USAGE);
  if (parsed === 'help') return 'help';
  const { values, positionals } = parsed;
  const file = oneOperand(positionals, 'FILE', USAGE);
  let k = 3;
  if (values.k !== undefined) {
    k = parseInteger(values.k, '--k');
    if (k < 0 || k > 64) throw new UsageError(`--k must be in 0..64 (got ${values.k})`);
  }
  const engine = values.engine ?? 'index';
  if (engine !== 'index' && engine !== 'duckdb') throw new UsageError(`--engine must be index or duckdb (got ${JSON.stringify(engine)})`);
  const blocks = values.blocks === undefined ? undefined : parseInteger(values.blocks, '--blocks');
  let memoryLimit: string | undefined;
  if (values['memory-limit'] !== undefined) {
    if (!/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(values['memory-limit'].trim())) {
      throw new UsageError(`--memory-limit must be a size like 512MB or 4GB (got ${JSON.stringify(values['memory-limit'])})`);
    }
    memoryLimit = values['memory-limit'].trim();
  }
  let maxPairs = DEFAULT_MAX_PAIRS;
  if (values['max-pairs'] !== undefined) {
    const value = values['max-pairs'].replaceAll('_', '');
    if (!/^\d{1,15}$/.test(value)) throw new UsageError(`--max-pairs must be a positive integer (got ${JSON.stringify(values['max-pairs'])})`);
    maxPairs = Number(value);
  }
  const out = values.out;
  const given = values.format;
  if (given !== undefined && given !== 'text' && given !== 'parquet') throw new UsageError(`--format must be text or parquet (got ${JSON.stringify(given)})`);
  let format: PairsArgs['format'] | undefined = given;
  if (blocks !== undefined && !(engine === 'duckdb' && blocks === 0)) {
    const problem = layoutProblem(k, blocks);
    if (problem) throw new UsageError(`--blocks: ${problem}`);
  }
  format ??= out !== undefined && out.toLowerCase().endsWith('.parquet') ? 'parquet' : 'text';
  if (format === 'parquet' && out === undefined) throw new UsageError('--format parquet needs --out FILE');
  // A pairs file is read back by path (row numbers depend on how the fingerprints were listed).
  const paths = format === 'parquet' || values.paths === true;
  return { file, k, engine, blocks, threads: parseThreads(values.threads), memoryLimit, maxPairs, out, format, paths };
}

function parseInteger(value: string, name: string): number {
  if (!/^-?\d{1,6}$/.test(value)) throw new UsageError(`${name} must be an integer (got ${JSON.stringify(value)})`);
  return Number(value);
}
