/**
 * `npm run bench -- dask [--n 100000,1000000] [--k 3] [--workers 2]`: the Dask job (`npm run dask`,
 * issue #41) beside `simsift pairs` (in-process search) and `simsift pairs --engine duckdb`, on the
 * planted fingerprint benchmark (bench/planted-fingerprints.ts, text: the form all three read here).
 * For each n the fingerprints are written once (untimed, cached under bench/.data/), then each engine
 * runs once in its own process: wall seconds of the whole command, pairs, peak RSS, and for Dask the
 * job's own phase split (cluster start-up apart from the job; key, shuffle, pair, merge, and the
 * shuffle's share of the job). The three pair files must be identical, or the bench fails.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DASK_PYTHON } from '../dask/run.ts';
import { field, pairs } from './engine.bench.ts';
import { benchOptions, listOption, loadAverage, numberOption } from './harness.ts';
import { plantedFingerprintFile } from './planted-fingerprints.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = join(here, '.data');
/** The job's phases, in the order it runs them (its last stderr line gives each as NAME_seconds). */
const JOB_PHASES = ['key', 'shuffle', 'pair', 'merge'] as const;

interface Row {
  n: number;
  engine: string;
  wallSeconds: number;
  pairs: number;
  rss: string;
  detail: string;
  out: string;
  /** Dask only: the job's seconds (key + shuffle + pair + merge) and the shuffle's. */
  jobSeconds?: number;
  shuffleSeconds?: number;
}

/** `npm run dask -- FILE --k K --workers W --out OUT` in a child process: wall seconds and its last stderr line. */
function daskJob(file: string, k: number, workers: number, out: string): Promise<{ wallSeconds: number; summary: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, '..', 'dask', 'run.ts'), file, '--k', String(k), '--workers', String(workers), '--out', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`npm run dask -- ${file} --k ${k} exited ${code}: ${err}`));
      const summary = err.split('\n').find((l) => l.startsWith('simsift dask: pairs=')) ?? '';
      resolve({ wallSeconds: (performance.now() - started) / 1000, summary });
    });
  });
}

const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
const mb = (kb: string) => (Number(kb) / 1024).toFixed(0);

/** Throws, naming the first line where they part, unless every engine wrote the same pairs file. */
function checkSame(rows: Row[]): void {
  const [first, ...rest] = rows.map((r) => ({ r, text: readFileSync(r.out, 'utf8') }));
  for (const other of rest) {
    if (other.text === first!.text) continue;
    const a = first!.text.split('\n');
    const b = other.text.split('\n');
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    throw new Error(
      `PAIR SETS DIFFER at n=${first!.r.n}: ${first!.r.engine} wrote ${first!.r.pairs} pairs, ${other.r.engine} ${other.r.pairs}; ` +
        `first difference at line ${i + 1}: ${JSON.stringify(a[i] ?? '(end)')} against ${JSON.stringify(b[i] ?? '(end)')} (${first!.r.out}, ${other.r.out})`,
    );
  }
}

function printTable(rows: Row[]): void {
  console.log('| n | engine | wall s | pairs | peak RSS MB | phases (s) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.n.toLocaleString('en')} | ${r.engine} | ${r.wallSeconds.toFixed(2)} | ${r.pairs.toLocaleString('en')} | ${r.rss} | ${r.detail} |`);
}

export async function main(args: string[]): Promise<void> {
  const v = benchOptions(args, { n: { type: 'string' }, k: { type: 'string' }, workers: { type: 'string' } }, 'usage: npm run bench -- dask [--n 100000,1000000] [--k 3] [--workers 2]');
  if (!v) return;
  const ns = listOption(v.n, '100000,1000000').map((x) => numberOption(x, 0, 'n'));
  const k = numberOption(v.k, 3, 'k');
  const workers = numberOption(v.workers, 2, 'workers');
  try {
    execFileSync(DASK_PYTHON, ['-c', 'import dask.dataframe, distributed, pandas'], { stdio: 'pipe' });
  } catch {
    throw new Error(`${DASK_PYTHON} cannot load Dask: apt-get install python3-distributed python3-dask python3-pandas`);
  }
  console.log(`dask bench: k=${k}, planted fingerprints (text), each engine once in its own process; Dask on a local cluster of ${workers} workers`);
  console.log('note: wall-clock on a shared 2-core machine; the Dask job runs its phases one after another (persist + wait) to time them\n');

  const rows: Row[] = [];
  for (const n of ns) {
    const started = performance.now();
    const file = plantedFingerprintFile(n);
    console.log(`n=${n.toLocaleString('en')}: ${file} ready in ${((performance.now() - started) / 1000).toFixed(1)} s (untimed); load average ${loadAverage().join(' ')}`);
    const these: Row[] = [];
    for (const engine of ['index', 'duckdb'] as const) {
      const run = await pairs([file, '--k', String(k), '--engine', engine], join(DATA, `dask-bench-${n}-${engine}.txt`));
      these.push({
        n,
        engine: engine === 'index' ? 'simsift pairs (in-process)' : 'simsift pairs --engine duckdb',
        wallSeconds: run.wallSeconds,
        pairs: Number(field(run.summary, 'pairs')),
        rss: run.maxRssMb.toFixed(0),
        detail: `read ${field(run.summary, 'read_seconds')}, search ${field(run.summary, 'search_seconds')} (${field(run.summary, 'blocks')} blocks)`,
        out: run.out,
      });
    }
    const out = join(DATA, `dask-bench-${n}-dask.txt`);
    const job = await daskJob(file, k, workers, out);
    const s = (name: string) => Number(field(job.summary, `${name}_seconds`));
    const jobSeconds = JOB_PHASES.reduce((sum, phase) => sum + s(phase), 0);
    const workerRss = field(job.summary, 'worker_maxrss_kb').split(',').map(mb).join(' + ');
    these.push({
      n,
      engine: `Dask, local cluster of ${workers}`,
      wallSeconds: job.wallSeconds,
      pairs: Number(field(job.summary, 'pairs')),
      rss: `client ${mb(field(job.summary, 'client_maxrss_kb'))}, workers ${workerRss}`,
      detail:
        `read ${s('read').toFixed(2)}, cluster start ${s('cluster').toFixed(2)}; job ${jobSeconds.toFixed(2)} = ` +
        JOB_PHASES.map((phase) => `${phase} ${s(phase).toFixed(2)}`).join(' + ') +
        ` (shuffle ${((100 * s('shuffle')) / jobSeconds).toFixed(0)}%); close ${s('close').toFixed(2)}, write ${s('write').toFixed(2)}`,
      out,
      jobSeconds,
      shuffleSeconds: s('shuffle'),
    });
    for (const r of these) if (r.pairs !== lineCount(readFileSync(r.out, 'utf8'))) throw new Error(`${r.engine} at n=${n}: its summary says ${r.pairs} pairs, its file holds another count (${r.out})`);
    checkSame(these);
    console.log(`  identical pair sets from all three engines: ${these[0]!.pairs} pairs\n`);
    rows.push(...these);
  }
  printTable(rows);
  if (ns.length > 1) {
    // How each engine's time grows with n (the issue asks how the Dask job's grows, and the shuffle's).
    const first = rows.filter((r) => r.n === ns[0]);
    const last = rows.filter((r) => r.n === ns[ns.length - 1]);
    console.log(`\ngrowth from n=${ns[0]} to n=${ns[ns.length - 1]} (${(ns[ns.length - 1]! / ns[0]!).toFixed(0)}x the fingerprints):`);
    first.forEach((r, i) => {
      const l = last[i]!;
      let line = `  ${r.engine}: wall ${(l.wallSeconds / r.wallSeconds).toFixed(1)}x`;
      if (r.jobSeconds !== undefined) line += `; job ${(l.jobSeconds! / r.jobSeconds).toFixed(1)}x, shuffle ${(l.shuffleSeconds! / r.shuffleSeconds!).toFixed(1)}x`;
      console.log(line);
    });
  }
  console.log(`load average: ${loadAverage().join(' ')}`);
}
