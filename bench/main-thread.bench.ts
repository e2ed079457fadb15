/**
 * `npm run bench -- main-thread [--files 20000] [--grep TEXT]`: the browser bench of the page's long tasks
 * (bench/browser/main-thread.bench.spec.ts) through Playwright, on the e2e configuration's built app:
 * the scan's long tasks, Cancel's latency, and the longest task of each action on about 40,000 pairs.
 * Set SIMSIFT_E2E_PORT as for the e2e tests.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOptions, numberOption } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function main(args: string[]): Promise<void> {
  const usage = 'usage: npm run bench -- main-thread [--files 20000] [--grep TEXT]  (groups of 5: about 2 pairs per file)';
  const o = benchOptions(args, { files: { type: 'string' }, grep: { type: 'string' } }, usage);
  if (!o) return;
  const files = numberOption(o.files, 20_000, 'files');
  const run = spawnSync(
    'npx',
    ['playwright', 'test', '-c', 'bench/browser/playwright.config.ts', 'main-thread', '--reporter', 'line', ...(o.grep ? ['--grep', o.grep] : [])],
    { cwd: root, stdio: 'inherit', env: { ...process.env, SIMSIFT_BENCH_FILES: String(files) } },
  );
  if (run.status !== 0) process.exitCode = run.status ?? 1;
}
