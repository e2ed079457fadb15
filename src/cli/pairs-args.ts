/**
 * `simsift pairs`' arguments: its options, their checks, and the thread count a search uses by default.
 * Apart from the command (pairs-command.ts), so main.ts can decide from argv alone, before the command's
 * modules load, whether to start a worker thread (pairs-early.ts).
 */
import { MAX_BLOCKS, binomial, chooseBlocks, estimateCost, layoutProblem } from '../core/index/block-layout.ts';
import { UsageError } from './cli-common.ts';
import { defaultThreads, oneOperand, parseOptions, parseThreads } from './cli-options.ts';

export const USAGE =
  'usage: simsift pairs FILE [--k N] [--engine index|duckdb] [--blocks M] [--threads T] [--memory-limit SIZE] [--max-pairs P] [--out FILE] [--format text|parquet] [--paths]';

/** Default bound on reported pairs: ~1 GB of in-process pair lists, ~2 GB of output text. */
export const DEFAULT_MAX_PAIRS = 100_000_000;

/** `simsift pairs`' arguments, checked. */
export interface PairsArgs {
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

/**
 * The threads a search of n fingerprints within k uses by default: every core (at most one per table,
 * and 8) once the one-thread estimate passes AUTO_THREADS_ABOVE_NS, else 1. `blocks` as given (or chosen).
 */
export function autoPairsThreads(n: number, k: number, blocks: number | undefined, cores = defaultThreads()): number {
  const m = k > MAX_BLOCKS - 1 && blocks === undefined ? 0 : (blocks ?? chooseBlocks(n, k));
  if (m === 0 || estimateCost(n, k, m) <= AUTO_THREADS_ABOVE_NS) return 1;
  return Math.max(1, Math.min(cores, binomial(m, k), 8));
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

/** Parses and checks `simsift pairs`' arguments (those after `pairs`); throws a `UsageError`. */
export function parsePairsArgs(argv: string[]): PairsArgs | 'help' {
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
