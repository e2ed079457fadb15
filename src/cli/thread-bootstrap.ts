/** Starting TypeScript worker threads for the CLI: the one place that knows how tsx gets loaded. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The source of a worker thread's bootstrap (for `new Worker(source, { eval: true })`) that runs the
 * TypeScript module `entry`. Worker threads do not inherit tsx's `register()` from the parent, and in
 * Node 20 a `--import tsx` in the worker's execArgv does not apply to its entry module, so the worker
 * registers tsx itself and then imports `entry`. Paths are absolute, so any working directory works.
 */
export function tsWorkerSource(entry: URL): string {
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
}
