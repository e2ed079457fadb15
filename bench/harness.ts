/**
 * The one bench harness: a bench declares its options as a table (read by the CLI's parseOptions over
 * `node:util` parseArgs, so `--name value`, `--name=value`, `--help` and unknown options behave as in
 * `simsift`), repeats its timed part, and reports min/median/max with the load the machine ran at,
 * as text or, with `--json`, as one JSON line. Each bench is only the part that differs.
 */
import { loadavg } from 'node:os';
import { parseOptions, type OptionTable, type OptionValues } from '../src/cli/cli-options.ts';

/** `--json`, for a bench whose figures `report` prints as one JSON line. */
export const JSON_OPTION = { json: { type: 'boolean' } } as const;

/**
 * Reads a bench's arguments by its table; prints `usage` and returns null for `--help` (the bench then
 * returns before any work). A bad option throws with a one-line message.
 */
export function benchOptions<T extends OptionTable>(args: string[], table: T, usage: string): OptionValues<T> | null {
  const parsed = parseOptions(args, table, usage);
  if (parsed === 'help') {
    console.log(usage);
    return null;
  }
  if (parsed.positionals.length > 0) throw new Error(`unexpected argument ${JSON.stringify(parsed.positionals[0])}. ${usage}`);
  return parsed.values;
}

/** A numeric option's value, or `fallback` when not given; throws when it is not a finite number. */
export function numberOption(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value.replaceAll('_', ''));
  if (value.trim() === '' || !Number.isFinite(n)) throw new Error(`--${name} needs a number (got ${JSON.stringify(value)})`);
  return n;
}

/** A comma-separated option's items, or `fallback` when not given. */
export function listOption(value: string | undefined, fallback: string): string[] {
  return (value ?? fallback).split(',').filter((item) => item !== '');
}

/** The middle value (the upper middle of an even count), as every bench reports it. */
export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/** The sample at quantile q (0..1) of the sorted samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Runs, minimum, median and maximum of a set of timings. */
export type Summary = { runs: number; min: number; median: number; max: number };

export function summarize(samples: readonly number[]): Summary {
  return { runs: samples.length, min: Math.min(...samples), median: median(samples), max: Math.max(...samples) };
}

/** Runs `fn` `runs` times, one after the other; returns what each run measured (e.g. its milliseconds). */
export async function repeat(runs: number, fn: (run: number) => number | Promise<number>): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) samples.push(await fn(run));
  return samples;
}

/** The machine's 1, 5 and 15 minute load averages, rounded: the load a figure was measured at. */
export function loadAverage(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

/** "min 1.2 / median 1.4 / max 1.9 ms (5 runs)". */
export function formatSummary(s: Summary, unit: string, digits = 1): string {
  return `min ${s.min.toFixed(digits)} / median ${s.median.toFixed(digits)} / max ${s.max.toFixed(digits)} ${unit} (${s.runs} run${s.runs === 1 ? '' : 's'})`;
}

/**
 * Prints a bench's figures: with `--json`, one JSON line `{ bench, ...figures, loadAverage }`; otherwise
 * the bench has printed its own lines and this adds the load average it ran at.
 */
export function report(bench: string, figures: Record<string, unknown>, values: { json?: true }): void {
  if (values.json) console.log(JSON.stringify({ bench, ...figures, loadAverage: loadAverage() }));
  else console.log(`load average: ${loadAverage().join(' ')}`);
}
