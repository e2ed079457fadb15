/**
 * What the quality benches share: run `node bin/simsift.js scan DIR --out FILE.csv` as a child process,
 * as a user would, read the CSV file it writes back and score it pair by pair against ground truth
 * (real-text/score-csv.ts), and print the scores in one table layout.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WeightScheme } from '../src/core/simhash/settings.ts';
import { JACCARD_BANDS, readPairsCsv, scorePairs, type CsvPairs, type PairScores } from './real-text/score-csv.ts';

const SIMSIFT = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'simsift.js');

export const f3 = (x: number): string => (Number.isNaN(x) ? '  -  ' : x.toFixed(3));
export const round = (x: number): number | null => (Number.isNaN(x) ? null : Math.round(x * 10000) / 10000);

/** Options passed on to `simsift scan`; left out, the CLI's defaults apply (k = DEFAULT_K). */
export interface ScanOptions {
  k?: number;
  weights?: WeightScheme;
}

/** One `simsift scan` run and its exported CSV, scored. */
export interface ScoredScan {
  /** The k the CLI used (from its stderr summary: DEFAULT_K unless --k is given). */
  k: number;
  /** Wall-clock seconds of the child process. */
  seconds: number;
  /** The CLI's stderr summary, trimmed. */
  stderr: string;
  csv: CsvPairs;
  scores: PairScores;
}

/**
 * Runs `node bin/simsift.js scan dir --out csvPath [--k K] [--weights W]`, reads `csvPath` back (paths
 * resolved to document ids with `ids`: the paths relative to `dir`, '/'-separated) and scores its pairs
 * against `truth` (every pair with Jaccard >= the threshold, keyed pairKey, with its Jaccard).
 */
export function scanAndScore(dir: string, csvPath: string, ids: ReadonlyMap<string, number>, truth: ReadonlyMap<number, number>, options: ScanOptions = {}): ScoredScan {
  const args = [SIMSIFT, 'scan', dir, '--out', csvPath];
  if (options.k !== undefined) args.push('--k', String(options.k));
  if (options.weights !== undefined) args.push('--weights', options.weights);
  const t0 = performance.now();
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  if (child.status !== 0) throw new Error(`simsift scan exited with ${child.status}: ${child.stderr}`);
  const k = Number(/within k=(\d+)/.exec(child.stderr)?.[1] ?? Number.NaN);
  const csv = readPairsCsv(readFileSync(csvPath, 'utf8'), ids);
  return { k, seconds, stderr: child.stderr.trim(), csv, scores: scorePairs(csv.pairs, truth, csv.unknownRows) };
}

/** `--k 12,14,16` (its value, if given): extra k values to run the CLI with, beside its defaults. */
export function parseKList(value: string | undefined): number[] {
  if (value === undefined) return [];
  const list = value.split(',').map(Number);
  if (list.length === 0 || list.some((k) => !Number.isInteger(k) || k < 0 || k > 64)) throw new Error('--k needs integers in 0..64, e.g. --k 12,14,16');
  return list;
}

/** Header of the score columns `scoreCells` fills: rows of the file, distinct pairs, repeats, unknown paths, precision, recall, F1, recall per band. */
export const SCORE_HEADER = 'rows   pairs  dup-rows  unknown  precision  recall  F1     ' + JACCARD_BANDS.map((b) => b.label.padEnd(12)).join('');
/** What the band cells of `scoreCells` hold. */
export const BAND_NOTE = 'band cells: recall (true pairs in the band)';

/** The score columns of one run, under SCORE_HEADER. */
export function scoreCells(run: ScoredScan): string {
  const s = run.scores;
  return (
    `${String(run.csv.rows).padStart(5)}  ${String(run.csv.pairs.size).padStart(6)}  ${String(run.csv.duplicateRows).padStart(8)}  ` +
    `${String(run.csv.unknownRows).padStart(7)}  ${f3(s.precision).padStart(9)}  ${f3(s.recall)}   ${f3(s.f1)}  ` +
    s.bands.map((b) => `${f3(b.recall)} ${`(${b.total})`.padEnd(6)} `).join('')
  );
}

/** Lines about what is wrong in a run's file (cells naming no file, pairs below the threshold), then its stderr summary's last line. */
export function runNotes(label: string, run: ScoredScan, truth: ReadonlyMap<number, number>, paths: readonly string[]): string[] {
  const n = paths.length;
  const out: string[] = [];
  if (run.csv.unknownPaths.length > 0) out.push(`  ${label}: ${run.csv.unknownPaths.length} cells name no file, e.g. ${JSON.stringify(run.csv.unknownPaths.slice(0, 3))}`);
  const falsePositives = [...run.csv.pairs].filter((key) => !truth.has(key));
  if (falsePositives.length > 0) {
    const show = falsePositives.slice(0, 3).map((key) => `${paths[Math.floor(key / n)]} ~ ${paths[key % n]}`);
    out.push(`  ${label}: ${falsePositives.length} exported pairs below the threshold, e.g. ${show.join('; ')}`);
  }
  out.push(`  ${label}: ${run.stderr.split('\n').at(-1)}`);
  return out;
}

/** The fields of a run the benches' JSON line reports. */
export function runJson(run: ScoredScan): Record<string, unknown> {
  return {
    k: run.k,
    rows: run.csv.rows,
    distinctPairs: run.csv.pairs.size,
    duplicateRows: run.csv.duplicateRows,
    selfRows: run.csv.selfRows,
    unknownRows: run.csv.unknownRows,
    precision: round(run.scores.precision),
    recall: round(run.scores.recall),
    f1: round(run.scores.f1),
    bandRecall: Object.fromEntries(run.scores.bands.map((b) => [b.label, round(b.recall)])),
    cliSeconds: Math.round(run.seconds * 10) / 10,
  };
}
