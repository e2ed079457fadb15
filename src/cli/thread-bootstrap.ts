/**
 * Starting the CLI's worker threads: the one place that knows whether the CLI runs from its prebuilt
 * bundle (dist-cli/, see bin/build-cli.js) or from the TypeScript sources through tsx.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * True in the prebuilt bundle: every module of it shares the bundle file's URL (dist-cli/main.mjs),
 * while a source module's URL ends in `.ts`.
 */
const BUNDLED = import.meta.url.endsWith('.mjs');

/**
 * From the sources, the prebuilt bundle's folder when it was built from exactly these sources
 * (bin/build-cli.js's freshBuild): its threads start without tsx's loader, which costs each thread
 * about as much as a small scan. `SIMSIFT_FROM_SOURCE` keeps the threads on the sources too.
 */
const BUILT_THREADS: string | null = BUNDLED || process.env.SIMSIFT_FROM_SOURCE ? null : await freshBuildFolder();

async function freshBuildFolder(): Promise<string | null> {
  // A URL esbuild does not follow: the bundle never imports the build script.
  const script = new URL('../../bin/build-cli.js', import.meta.url);
  const { freshBuild } = (await import(script.href)) as { freshBuild: () => string | null };
  return freshBuild();
}

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

/** A built thread entry for `source` (x.thread.ts in a build's folder): its one-file CommonJS build when it has one, else its module. */
function builtThread(source: string): string {
  const single = source.replace(/\.ts$/, '.cjs');
  return existsSync(single) ? single : source.replace(/\.ts$/, '.mjs');
}

/**
 * Starts a worker thread running the module `entry` (`new URL('./x.thread.ts', import.meta.url)`):
 * in the bundle, the bundled `x.thread.cjs` or `x.thread.mjs` beside it, with no loader; from the sources, the current
 * bundle's when it is fresh, else through tsx.
 */
export function startThread(entry: URL, options: WorkerOptions = {}): Worker {
  if (BUNDLED) return new Worker(builtThread(fileURLToPath(entry)), options);
  // The bundle holds the thread entries of this folder only (a test's own thread runs through tsx).
  if (BUILT_THREADS !== null && new URL('.', entry).href === new URL('.', import.meta.url).href) {
    return new Worker(builtThread(join(BUILT_THREADS, basename(entry.pathname))), options);
  }
  return new Worker(tsWorkerSource(entry), { ...options, eval: true });
}
