/**
 * How many workers of one kind to start: the one thread-count rule of the app's pools and the CLI
 * (cli/cli-options.ts). Apart from worker-pool.ts so a command can size threads without loading comlink.
 */

/** The most workers of one kind. */
export const MAX_WORKERS = 16;

/** A pool's size for `cores` logical cores: one worker per core, at least 1, at most MAX_WORKERS (2 when unknown). */
export function poolSize(cores: number): number {
  return Math.max(1, Math.min(MAX_WORKERS, cores || 2));
}

/** The default pool size: one worker per logical core the browser reports (see `poolSize`). */
export function defaultPoolSize(): number {
  return poolSize(typeof navigator !== 'undefined' ? navigator.hardwareConcurrency : 0);
}
