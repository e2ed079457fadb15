/**
 * Starting the CLI's worker threads: the one place that knows whether the CLI runs from its prebuilt
 * bundle (dist-cli/, see bin/build-cli.js) or from the TypeScript sources through tsx.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * True in the prebuilt bundle: every module of it shares the bundle file's URL (dist-cli/main.mjs),
 * while a source module's URL ends in `.ts`.
 */
const BUNDLED = import.meta.url.endsWith('.mjs');

/**
 * The source of a worker thread's bootstrap (for `new Worker(source, { eval: true })`) that runs the
 * TypeScript module `entry`. Worker threads do not inherit tsx's `register()` from the parent, and in
 * Node 20 a `--import tsx` in the worker's execArgv does not apply to its entry module, so the worker
 * registers tsx itself and then imports `entry`. Paths are absolute, so any working directory works.
 */
function tsWorkerSource(entry: URL): string {
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
}

/**
 * Starts a worker thread running the module `entry` (`new URL('./x.thread.ts', import.meta.url)`):
 * in the bundle, the bundled `x.thread.mjs` beside it, with no loader; from the sources, through tsx.
 */
export function startThread(entry: URL, options: WorkerOptions = {}): Worker {
  if (BUNDLED) return new Worker(new URL(entry.href.replace(/\.ts$/, '.mjs')), options);
  return new Worker(tsWorkerSource(entry), { ...options, eval: true });
}
