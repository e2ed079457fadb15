/**
 * The pairs command's first worker thread, started by main.ts from argv alone, before the command's
 * modules load, so the thread loads its code while this one loads the command and reads the input.
 * Loads no comlink: the command wraps the thread (node-worker.ts) when it takes it.
 */
import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { autoPairsThreads, parsePairsArgs } from './pairs-args.ts';
import { startThread } from './thread-bootstrap.ts';

/** How a thread ended before anyone listened: its 'error', or the code it exited with. */
export type ThreadEnd = { error: unknown } | { exitCode: number };

/** A started thread, with how it ended if it did before the command took it. */
export interface EarlyThread {
  readonly thread: Worker;
  readonly ended: () => ThreadEnd | null;
}

/** Starts a pair-search thread (cli/pairs.thread.ts) with none of the parent's loader flags (tsx's CLI). */
export function startPairsThread(): Worker {
  return startThread(new URL('./pairs.thread.ts', import.meta.url), { execArgv: [] });
}

/**
 * Starts the pair-search thread the command `simsift pairs ...argv` will ask for first, or returns null
 * when it asks for none as far as argv and the file's size tell: help, bad arguments (the command
 * reports them), DuckDB, one thread, or a text file too small. A Parquet file may be started for and
 * then not used: its count is known only once it is read.
 */
export function startEarlyPairsThread(argv: string[]): EarlyThread | null {
  let threads: number;
  try {
    const args = parsePairsArgs(argv);
    if (args === 'help' || args.engine === 'duckdb') return null;
    const size = statSync(args.file, { throwIfNoEntry: false })?.size;
    if (size === undefined) return null;
    // As the command decides before reading: the most fingerprints a text file of this size holds.
    threads = args.threads ?? autoPairsThreads(Math.ceil(size / 17), args.k, args.blocks);
  } catch {
    return null;
  }
  return threads < 2 ? null : watchEarlyThread(startPairsThread());
}

/** `thread` as an `EarlyThread`: its end recorded until the command takes it. */
export function watchEarlyThread(thread: Worker): EarlyThread {
  let end: ThreadEnd | null = null;
  // Listening also keeps an 'error' from being thrown as uncaught before the command takes the thread.
  thread.on('error', (error: unknown) => (end ??= { error }));
  thread.on('exit', (exitCode: number) => (end ??= { exitCode }));
  return { thread, ended: () => end };
}
