/**
 * `simsift pairs FILE --k N [--blocks M] [--threads T]`: reads one 16-hex-digit fingerprint per
 * line and prints every pair within distance k as `i j distance` (0-based line numbers, i < j,
 * sorted), with a one-line timing summary on stderr.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { allPairs } from '../core/index/all-pairs.ts';
import { MAX_BLOCKS, binomial, chooseBlocks, estimateCost, layoutProblem } from '../core/index/block-layout.ts';
import { sortPairs, type PairList } from '../core/index/pair-list.ts';
import { startPairsPool, type PairsPool } from './pairs-threads.ts';

/** Where the command writes; the process streams unless a caller (a test) passes its own. */
export interface PairsIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const USAGE = 'usage: simsift pairs FILE [--k N] [--blocks M] [--threads T]';
const MAX_THREADS = 64;

interface PairsArgs {
  file: string;
  k: number;
  blocks: number | undefined;
  /** Undefined: decided from the estimated search time once n is known. */
  threads: number | undefined;
}

/** Searches estimated to take longer than this on one core use every core (thread startup ~0.5 s). */
const AUTO_THREADS_ABOVE_NS = 1.5e9;

/** Thrown for bad input; the command prints its message as one line and exits with 2. */
class UsageError extends Error {}

/**
 * Runs `simsift pairs` with the arguments after the subcommand name (e.g. `['fps.txt', '--k', '3']`)
 * and returns the exit code: 0 on success, 2 on bad arguments or input, 1 on an unexpected failure.
 */
export async function runPairs(argv: string[], io: PairsIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let pool: PairsPool | null = null;
  try {
    const args = parseArgs(argv);
    if (args === 'help') {
      io.stdout.write(`${USAGE}\n  --k N        maximum Hamming distance, 0..64 (default 3)\n  --blocks M   blocks per fingerprint, k < M <= ${MAX_BLOCKS} (default: chosen from n and k)\n  --threads T  worker threads for the search (default: all cores when the search would take over ~1.5 s on one, else 1)\n`);
      return 0;
    }
    // Start requested threads first: their startup (loading TypeScript) overlaps reading the file.
    if (args.threads !== undefined && args.threads > 1) pool = startPairsPool(args.threads);

    const readStart = performance.now();
    let bytes: Buffer;
    try {
      bytes = await readFile(args.file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      throw new UsageError(`cannot read ${JSON.stringify(args.file)}${code ? ` (${code})` : ''}`);
    }
    const { hi, lo } = parseFingerprintLines(bytes, args.file);
    const n = hi.length;
    const readSeconds = (performance.now() - readStart) / 1000;

    const blocks = args.k > MAX_BLOCKS - 1 && args.blocks === undefined ? 0 : (args.blocks ?? chooseBlocks(n, args.k));
    if (args.threads === undefined && blocks > 0 && estimateCost(n, args.k, blocks) > AUTO_THREADS_ABOVE_NS) {
      const threads = Math.min(availableParallelism(), binomial(blocks, args.k), 8);
      if (threads > 1) pool = startPairsPool(threads);
    }
    const searchStart = performance.now();
    let startupSeconds: number | undefined;
    let threadsUsed = 1;
    let pairs: PairList;
    if (pool && n >= 2 && blocks > 0) {
      threadsUsed = pool.size;
      await pool.ready;
      const searchStartWarm = performance.now();
      pairs = await pool.allPairs(hi, lo, args.k, blocks);
      // Thread startup is reported apart from the search itself.
      startupSeconds = (searchStartWarm - searchStart) / 1000;
    } else {
      pairs = allPairs(hi, lo, args.k, blocks > 0 ? { blocks } : {});
    }
    const searchEnd = performance.now();
    const sorted = sortPairs(pairs);
    const outputStart = performance.now();
    await writePairs(sorted, io.stdout);
    const outputSeconds = (performance.now() - outputStart) / 1000;

    const searchSeconds = (searchEnd - searchStart) / 1000 - (startupSeconds ?? 0);
    const summary = [
      `simsift pairs: n=${n}`,
      `k=${args.k}`,
      blocks > 0 ? `blocks=${blocks} tables=${binomial(blocks, args.k)}` : 'blocks=none (brute force)',
      `threads=${threadsUsed}`,
      `pairs=${sorted.count}`,
      `read_seconds=${readSeconds.toFixed(3)}`,
      ...(startupSeconds !== undefined ? [`thread_startup_seconds=${startupSeconds.toFixed(3)}`] : []),
      `search_seconds=${searchSeconds.toFixed(3)}`,
      `sort_seconds=${((outputStart - searchEnd) / 1000).toFixed(3)}`,
      `output_seconds=${outputSeconds.toFixed(3)}`,
    ];
    io.stderr.write(summary.join(' ') + '\n');
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`simsift pairs: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`simsift pairs: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await pool?.close();
  }
}

function parseArgs(argv: string[]): PairsArgs | 'help' {
  let file: string | undefined;
  let k = 3;
  let blocks: number | undefined;
  let threads: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return 'help';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name === '--k' || name === '--blocks' || name === '--threads') {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value. ${USAGE}`);
      const v = parseInteger(value, name);
      if (name === '--k') {
        if (v < 0 || v > 64) throw new UsageError(`--k must be in 0..64 (got ${value})`);
        k = v;
      } else if (name === '--blocks') {
        blocks = v;
      } else {
        if (v < 1 || v > MAX_THREADS) throw new UsageError(`--threads must be in 1..${MAX_THREADS} (got ${value})`);
        threads = v;
      }
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option ${JSON.stringify(arg)}. ${USAGE}`);
    } else if (file === undefined) {
      file = arg;
    } else {
      throw new UsageError(`unexpected argument ${JSON.stringify(arg)}. ${USAGE}`);
    }
  }
  if (file === undefined) throw new UsageError(`missing FILE. ${USAGE}`);
  if (blocks !== undefined) {
    const problem = layoutProblem(k, blocks);
    if (problem) throw new UsageError(`--blocks: ${problem}`);
  }
  return { file, k, blocks, threads };
}

function parseInteger(value: string, name: string): number {
  if (!/^-?\d{1,6}$/.test(value)) throw new UsageError(`${name} must be an integer (got ${JSON.stringify(value)})`);
  return Number(value);
}

// Hex digit values by byte; -1 for anything else.
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[65 + c] = 10 + c;
  HEX[97 + c] = 10 + c;
}

/**
 * Parses one 16-hex-digit fingerprint per line (either case; surrounding spaces, tabs and a CR are
 * ignored; a final newline is optional) straight from the bytes, without a string per line.
 */
export function parseFingerprintLines(bytes: Uint8Array, name: string): { hi: Uint32Array; lo: Uint32Array } {
  let lines = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lines++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) lines++;
  const hi = new Uint32Array(lines);
  const lo = new Uint32Array(lines);
  let pos = 0;
  for (let line = 0; line < lines; line++) {
    let end = bytes.indexOf(10, pos);
    if (end < 0) end = bytes.length;
    let s = pos;
    let e = end;
    while (s < e && (bytes[s] === 32 || bytes[s] === 9)) s++;
    while (e > s && (bytes[e - 1] === 32 || bytes[e - 1] === 9 || bytes[e - 1] === 13)) e--;
    let h = 0;
    let l = 0;
    let ok = e - s === 16;
    for (let q = 0; ok && q < 16; q++) {
      const v = HEX[bytes[s + q]];
      if (v < 0) ok = false;
      else if (q < 8) h = (h << 4) | v;
      else l = (l << 4) | v;
    }
    if (!ok) {
      const shown = Buffer.from(bytes.subarray(pos, Math.min(end, pos + 40))).toString('utf8');
      throw new UsageError(
        `${name}:${line + 1}: expected 16 hex digits, got ${JSON.stringify(shown)}${end - pos > 40 ? '...' : ''}`,
      );
    }
    hi[line] = h >>> 0;
    lo[line] = l >>> 0;
    pos = end + 1;
  }
  return { hi, lo };
}

/**
 * Writes `i j distance` lines in chunks of many pairs, waiting for the stream to drain. A reader
 * that goes away (EPIPE, e.g. `| head`) ends the output quietly.
 */
async function writePairs(pairs: PairList, out: NodeJS.WritableStream): Promise<void> {
  const CHUNK = 32768;
  let closed = false;
  const onError = () => {
    closed = true;
  };
  out.on('error', onError);
  try {
    for (let start = 0; start < pairs.count && !closed; start += CHUNK) {
      const end = Math.min(pairs.count, start + CHUNK);
      let text = '';
      for (let i = start; i < end; i++) text += `${pairs.a[i]} ${pairs.b[i]} ${pairs.distance[i]}\n`;
      if (!out.write(text)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('error', done);
            resolve();
          };
          out.on('drain', done);
          out.on('error', done);
        });
      }
    }
  } finally {
    out.off('error', onError);
  }
}
