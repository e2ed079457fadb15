// The CLI's prebuilt bundle: src/cli/main.ts and its worker-thread entries bundled by esbuild (a
// dependency of the project's, and tsx's) into dist-cli/, so `simsift` starts without compiling
// TypeScript on every run (tsx's loader cost about 0.2 s on the main thread and again in each thread).
// `npm install` builds it (the prepare script); bin/simsift.js rebuilds it when a source it was built
// from changed, and falls back to tsx if it cannot be built.
//
// Each build goes into its own folder, dist-cli/build-*, and dist-cli/current.json names the current one
// with the size and modification time of every source it was built from: a run that is still using an
// older build keeps its files (its worker threads load theirs later).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist-cli');
const current = join(out, 'current.json');
/** The entry points: the command line and the modules its worker threads run (see src/cli/thread-bootstrap.ts). */
const ENTRIES = ['main', 'ingest.thread', 'index.thread', 'pairs.thread', 'extract.thread', 'parquet.thread'];
/**
 * Threads also built as one CommonJS file each (x.thread.cjs), which thread-bootstrap.ts starts when
 * present: a thread loading one script skips Node's ESM loader (resolving and linking its chunks),
 * a quarter of a pair-search thread's startup, which the search waits for. Only threads whose code
 * bundles whole (no native or ESM-only package: the pair search's comlink is bundled in).
 */
const SINGLE_FILE_THREADS = ['pairs.thread'];
/** Builds older than this, other than the current one, are removed by the next build. */
const KEEP_OLD_MS = 60 * 60 * 1000;

/** The current build's folder if every source it was built from is unchanged (same size and time), else null. */
export function freshBuild() {
  let info;
  try {
    info = JSON.parse(readFileSync(current, 'utf8'));
  } catch {
    return null;
  }
  for (const [path, size, mtimeMs] of info.inputs) {
    const s = statSync(join(root, path), { throwIfNoEntry: false });
    if (!s || s.size !== size || s.mtimeMs !== mtimeMs) return null;
  }
  const dir = join(out, info.dir);
  return existsSync(join(dir, 'main.mjs')) ? dir : null;
}

/** Bundles the CLI into a new dist-cli/build-* folder and makes it current; returns the folder. */
export async function buildCli() {
  const { build } = await import('esbuild');
  const started = Date.now();
  const name = `build-${started}-${process.pid}`;
  const dir = join(out, name);
  const result = await build({
    absWorkingDir: root,
    entryPoints: ENTRIES.map((entry) => ({ in: `src/cli/${entry}.ts`, out: entry })),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Split, so each command's modules (and their packages: DuckDB's native module, hyparquet) still
    // load only when it runs. Chunks go beside the entries, so every module's import.meta.url is in the
    // build's folder, where thread-bootstrap.ts finds the thread entries.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages load from node_modules as they do under tsx (DuckDB's native module, xxhash-wasm's WASM).
    packages: 'external',
    // comlink's package "main" is its UMD build: Node would load it as CommonJS (the CJS loader and a
    // lexer pass over the file, on the main thread and again in every worker). Its ESM build loads as is.
    plugins: [{ name: 'comlink-esm', setup: (b) => b.onResolve({ filter: /^comlink$/ }, () => ({ path: 'comlink/dist/esm/comlink.mjs', external: true })) }],
    metafile: true,
    logLevel: 'silent',
  });
  const single = await build({
    absWorkingDir: root,
    entryPoints: SINGLE_FILE_THREADS.map((entry) => ({ in: `src/cli/${entry}.ts`, out: entry })),
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // comlink's ESM build, bundled in (its package "main" is the UMD build).
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'silent',
  });
  const sources = new Set([...Object.keys(result.metafile.inputs), ...Object.keys(single.metafile.inputs)].filter((path) => !path.includes('node_modules/')));
  const inputs = [...sources].map((path) => {
    const s = statSync(join(root, path));
    return [path, s.size, s.mtimeMs];
  });
  // A source saved while this build ran may not be in it: then the build is used once and not made current.
  if (inputs.every(([, , mtimeMs]) => mtimeMs < started)) {
    const tmp = `${current}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ dir: name, inputs }));
    renameSync(tmp, current);
  }
  for (const old of readdirSync(out)) {
    const age = started - Number(/^build-(\d+)-/.exec(old)?.[1] ?? started);
    if (old !== name && age > KEEP_OLD_MS) rmSync(join(out, old), { recursive: true, force: true });
  }
  return dir;
}

/** The bundled CLI's entry URL, built first when missing or stale; null when it cannot be built. */
export async function cliEntry() {
  let dir = freshBuild();
  if (!dir) {
    try {
      mkdirSync(out, { recursive: true });
      dir = await buildCli();
    } catch {
      return null;
    }
  }
  return pathToFileURL(join(dir, 'main.mjs'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // As npm's prepare script: a failed build must not fail `npm install` (simsift then runs through tsx).
  try {
    mkdirSync(out, { recursive: true });
    console.log(`simsift: command line bundled into ${await buildCli()}`);
  } catch (error) {
    console.warn(`simsift: could not bundle the command line (${error instanceof Error ? error.message : String(error)}); it will run through tsx`);
  }
}
