/**
 * `npm run bench -- engine [--big N] [--mid N] [--k13 N] [--limits 512MB,256MB] [--skip-big] [--skip-k13] [--only-k13] [--k13-blocks M]`: the fingerprint
 * search beyond one process. Writes fingerprints (90% random, 10% copies with 1-3 flipped bits) as
 * the Parquet export, then runs `simsift pairs FILE --k K` in a child process per engine and
 * reports wall seconds, the command's own search seconds and peak RSS:
 * - N = 10,000,000 (--big) at k = 3 through DuckDB, with DuckDB's default memory limit and with each
 *   of --limits (it spills to its temporary directory), and the in-process index for comparison;
 *   identical output, every planted pair found;
 * - N = 1,000,000 (--mid) at k = 3, the in-process index and DuckDB side by side: identical output;
 * - N = 100,000 (--k13) at k = 13, the default k, both engines: identical output (--only-k13: this
 *   case alone, for work on the SQL at high k; --k13-blocks M: DuckDB's block count, else its cost model's).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFingerprintParquetWriter, type FingerprintStatus } from '../src/core/export/fingerprints-parquet.ts';
import { DEFAULT_SETTINGS } from '../src/core/simhash/settings.ts';
import { SIMSIFT_VERSION } from '../src/core/version.ts';
import { mulberry32 } from '../tests/fixtures/mulberry32.ts';
import { benchOptions, listOption, numberOption } from './harness.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = join(here, '.data', 'engine');

interface Corpus {
  file: string;
  n: number;
  random: number;
  /** Source row of each planted copy (copy p is row random + p). */
  plantedFrom: Uint32Array;
  writeSeconds: number;
}

/** Writes n fingerprints as the Parquet export, a row group of 131,072 rows at a time. */
function writeCorpus(n: number, seed: number): Corpus {
  mkdirSync(DATA, { recursive: true });
  const file = join(DATA, `fps-${n}.parquet`);
  const rnd = mulberry32(seed);
  const random = n - Math.floor(n / 10);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let i = 0; i < random; i++) {
    hi[i] = rnd();
    lo[i] = rnd();
  }
  const plantedFrom = new Uint32Array(n - random);
  for (let p = 0; p < plantedFrom.length; p++) {
    const src = rnd() % random;
    plantedFrom[p] = src;
    let h = hi[src];
    let l = lo[src];
    const flips = 1 + (rnd() % 3);
    const used = new Set<number>();
    while (used.size < flips) used.add(rnd() & 63);
    for (const bit of used) {
      if (bit < 32) h ^= 1 << bit;
      else l ^= 1 << (bit - 32);
    }
    hi[random + p] = h >>> 0;
    lo[random + p] = l >>> 0;
  }
  const started = performance.now();
  const fd = openSync(file, 'w');
  const writer = createFingerprintParquetWriter({ settings: DEFAULT_SETTINGS, version: SIMSIFT_VERSION }, (chunk) => {
    for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
  });
  const GROUP = 131_072;
  const words = new Uint32Array(GROUP).fill(100);
  for (let start = 0; start < n; start += GROUP) {
    const end = Math.min(n, start + GROUP);
    const paths: string[] = [];
    const status: FingerprintStatus[] = [];
    for (let i = start; i < end; i++) {
      paths.push(`doc/${i}.txt`);
      status.push('ok');
    }
    writer.write({ paths, status, hi: hi.subarray(start, end), lo: lo.subarray(start, end), hashHi: lo.subarray(start, end), hashLo: hi.subarray(start, end), words: words.subarray(0, end - start) });
  }
  writer.finish();
  closeSync(fd);
  return { file, n, random, plantedFrom, writeSeconds: (performance.now() - started) / 1000 };
}

export interface Run {
  wallSeconds: number;
  summary: string;
  maxRssMb: number;
  out: string;
}

/** `simsift pairs ARGS --out OUT` in a child process (bench/engine-child.ts): wall seconds, its summary line, its peak RSS. */
export function pairs(args: string[], out: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'engine-child.ts'), ...args, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`simsift pairs ${args.join(' ')} exited ${code}: ${err}`));
      const rss = /maxrss_kb=(\d+)/.exec(err);
      resolve({
        wallSeconds: (performance.now() - started) / 1000,
        summary: err.split('\n').find((l) => l.startsWith('simsift pairs:')) ?? '',
        maxRssMb: rss ? Number(rss[1]) / 1024 : NaN,
        out,
      });
    });
  });
}

export const field = (summary: string, name: string) => new RegExp(`${name}=(\\S+)`).exec(summary)?.[1] ?? '?';

function report(label: string, run: Run): void {
  console.log(
    `  ${label.padEnd(28)} wall ${run.wallSeconds.toFixed(1).padStart(6)} s   search ${field(run.summary, 'search_seconds').padStart(8)} s   ` +
      `read ${field(run.summary, 'read_seconds').padStart(7)} s   estimate ${field(run.summary, 'estimate_seconds').padStart(6)} s   peak RSS ${run.maxRssMb.toFixed(0).padStart(5)} MB   pairs ${field(run.summary, 'pairs')}` +
      `   ${field(run.summary, 'blocks')} blocks`,
  );
}

/** How many planted (source, copy) pairs are among the `i j d` lines. */
function plantedFound(text: string, corpus: Corpus): number {
  const found = new Set<number>();
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const line = text.slice(pos, nl < 0 ? text.length : nl);
    pos = nl < 0 ? text.length : nl + 1;
    const sp = line.indexOf(' ');
    const j = Number(line.slice(sp + 1, line.indexOf(' ', sp + 1)));
    if (j >= corpus.random && corpus.plantedFrom[j - corpus.random] === Number(line.slice(0, sp))) found.add(j);
  }
  return found.size;
}

function same(a: Run, b: Run): boolean {
  return readFileSync(a.out).equals(readFileSync(b.out));
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(
    args,
    {
      big: { type: 'string' }, mid: { type: 'string' }, k13: { type: 'string' }, 'k13-blocks': { type: 'string' }, limits: { type: 'string' },
      'skip-big': { type: 'boolean' }, 'skip-k13': { type: 'boolean' }, 'only-k13': { type: 'boolean' },
    },
    'usage: npm run bench -- engine [--big N] [--mid N] [--k13 N] [--k13-blocks M] [--limits 512MB,256MB] [--skip-big] [--skip-k13] [--only-k13]',
  );
  if (!o) return;
  let big = numberOption(o.big, 10_000_000, 'big');
  let mid = numberOption(o.mid, 1_000_000, 'mid');
  const k13 = numberOption(o.k13, 100_000, 'k13');
  let skipBig = o['skip-big'] === true;
  const skipK13 = o['skip-k13'] === true;
  const onlyK13 = o['only-k13'] === true;
  const k13Blocks: string[] = o['k13-blocks'] === undefined ? [] : ['--blocks', String(numberOption(o['k13-blocks'], 0, 'k13-blocks'))];
  const limits = listOption(o.limits, '512MB,256MB');
  console.log('engine bench: `simsift pairs FILE.parquet --k K --engine index|duckdb`, each run in its own process');
  console.log('note: wall-clock on a shared 2-core machine; peak RSS is the child process (DuckDB included)\n');

  if (onlyK13) {
    skipBig = true;
    mid = 0;
  }
  if (mid > 0) {
    const midCorpus = writeCorpus(mid, 1);
    console.log(`${mid.toLocaleString('en')} fingerprints (10% planted), k = 3: Parquet written in ${midCorpus.writeSeconds.toFixed(1)} s (${(statSync(midCorpus.file).size / 1e6).toFixed(0)} MB)`);
    const index = await pairs([midCorpus.file, '--k', '3', '--engine', 'index'], join(DATA, 'mid-index.txt'));
    report('in-process index', index);
    const duck = await pairs([midCorpus.file, '--k', '3', '--engine', 'duckdb'], join(DATA, 'mid-duckdb.txt'));
    report('DuckDB', duck);
    console.log(`  identical pair sets: ${same(index, duck)}; planted pairs found: ${plantedFound(readFileSync(duck.out, 'utf8'), midCorpus)} / ${midCorpus.plantedFrom.length}\n`);
  }

  if (!skipK13) {
    const c = writeCorpus(k13, 2);
    console.log(`${k13.toLocaleString('en')} fingerprints (10% planted), k = 13 (the default k up to 200,000 documents):`);
    const i13 = await pairs([c.file, '--k', '13', '--engine', 'index'], join(DATA, 'k13-index.txt'));
    report('in-process index', i13);
    const d13 = await pairs([c.file, '--k', '13', '--engine', 'duckdb', ...k13Blocks], join(DATA, 'k13-duckdb.txt'));
    report('DuckDB', d13);
    console.log(`  identical pair sets: ${same(i13, d13)}\n`);
  }

  if (!skipBig) {
    const c = writeCorpus(big, 3);
    console.log(`${big.toLocaleString('en')} fingerprints (10% planted), k = 3, DuckDB: Parquet written in ${c.writeSeconds.toFixed(1)} s (${(statSync(c.file).size / 1e6).toFixed(0)} MB)`);
    const d = await pairs([c.file, '--k', '3', '--engine', 'duckdb'], join(DATA, 'big-duckdb.txt'));
    report('DuckDB (default limit)', d);
    let allSame = true;
    for (const limit of limits) {
      const limited = await pairs([c.file, '--k', '3', '--engine', 'duckdb', '--memory-limit', limit], join(DATA, `big-duckdb-${limit}.txt`));
      report(`DuckDB --memory-limit ${limit}`, limited);
      allSame &&= same(d, limited);
    }
    const index = await pairs([c.file, '--k', '3', '--engine', 'index'], join(DATA, 'big-index.txt'));
    report('in-process index', index);
    allSame &&= same(d, index);
    console.log(`  identical pair sets: ${allSame}; planted pairs found: ${plantedFound(readFileSync(d.out, 'utf8'), c)} / ${c.plantedFrom.length}`);
  }
}
