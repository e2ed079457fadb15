/**
 * `simsift scan --plan FILE`: the keep rules as options and the plan file the app's "Export plan" writes
 * (same rows, same bytes: core/keep and core/export/plan.ts decide and format both).
 */
import { readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decideKeep, normalizeFolder, parseKeepOrder, unmatchedFolders, type KeepRules } from '../core/keep/keep-rules.ts';
import { bytesHash, planCsv, planJson, planRows } from '../core/export/plan.ts';
import type { ScanResult } from '../scan/scan-result.ts';
import { UsageError } from './cli-common.ts';
import { outputError, type AtomicFile } from './atomic-file.ts';
import { encodeName, escapeName, fsPath } from './terminal-names.ts';

/** Where the plan goes and by which rules. */
export interface PlanOptions {
  file: string | undefined;
  rules: KeepRules;
  /** Each --protect as given, by its normalized folder (for the error naming one that matches nothing). */
  protectGiven?: Map<string, string>;
}

export const KEEP_USAGE = '[--plan FILE.csv|FILE.json] [--keep RULE,...] [--protect FOLDER]... [--mark-near]';

export const KEEP_HELP =
  '  --plan FILE      write the keep plan there (JSON when FILE ends in .json, else CSV): every document of\n' +
  '                   every group with role keep/remove/review, the rule that decided and the hash of its bytes;\n' +
  '                   both record DIR as their root (the JSON in "root", the CSV in a root column; see simsift apply).\n' +
  '                   Never over a scanned file or --out\n' +
  '  --keep RULES     the keep rules in order, comma-separated: protected, newest, oldest, shortest-path,\n' +
  "                   longest-path, largest, smallest (then the group's reference, then path order)\n" +
  '  --protect DIR    keep everything under DIR (a path as the plan shows it, relative to DIR; repeatable; adds\n' +
  '                   "protected" first when --keep does not name it; one that matches no scanned file is an error)\n' +
  '  --mark-near      also mark near-duplicates (different texts) for removal, not only identical copies\n';

/** The keep options of `simsift scan` (a part of its options table, cli-options.ts). */
export const KEEP_OPTIONS = {
  plan: { type: 'string' },
  keep: { type: 'string' },
  protect: { type: 'string', multiple: true },
  'mark-near': { type: 'boolean' },
} as const;

/**
 * The plan options the parsed keep options give. `--protect` puts "protected" first in the order unless
 * `--keep` names it (then its own place wins); the last `--keep` counts.
 */
export function planFromOptions(values: { plan?: string; keep?: string; protect?: string[]; 'mark-near'?: true }): PlanOptions {
  if (values.plan === '') throw new UsageError('--plan needs a value');
  const rules: KeepRules = { order: [], protectedFolders: [], markNear: values['mark-near'] === true };
  if (values.keep !== undefined) {
    if (values.keep === '') throw new UsageError('--keep needs a value');
    try {
      rules.order = parseKeepOrder(values.keep);
    } catch (error) {
      throw new UsageError(`--keep: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const protectGiven = new Map<string, string>();
  for (const folder of values.protect ?? []) {
    if (folder === '') throw new UsageError('--protect needs a value');
    rules.protectedFolders.push(normalizeFolder(folder));
    protectGiven.set(normalizeFolder(folder), folder);
  }
  if (rules.protectedFolders.length > 0 && !rules.order.includes('protected')) rules.order.unshift('protected');
  return { file: values.plan, rules, protectGiven };
}

/** Throws a UsageError naming each --protect folder under which no scanned file lies. */
export function checkProtected(result: ScanResult, options: PlanOptions): void {
  const unmatched = unmatchedFolders(result.docs.paths, options.rules.protectedFolders);
  if (unmatched.length === 0) return;
  const named = unmatched.map((f) => JSON.stringify(options.protectGiven?.get(f) ?? f)).join(', ');
  throw new UsageError(`--protect ${named} matches no scanned file (give a folder as the paths show it, relative to DIR, e.g. docs/old); no plan written`);
}

/**
 * Decides the plan of `result` (scanned from `dir`) and writes it to `output` (opened before the scan,
 * committed when whole); returns a summary line for stderr. The plan records `dir` as its root (real,
 * absolute) and the hash of each listed file's bytes, read now: what `simsift apply` checks again. A
 * --protect folder that matches no scanned file is an error naming it (a typo would protect nothing).
 */
export async function writePlan(result: ScanResult, options: PlanOptions, output: AtomicFile, dir: string): Promise<string> {
  const file = output.target;
  const relation = result.relation;
  checkProtected(result, options);
  const decision = decideKeep(relation, result.docs, options.rules);
  const bytesHashes = new Map<number, string>();
  const { members } = relation.groups;
  for (let s = 0; s < members.length; s++) {
    const d = members[s]!;
    if (bytesHashes.has(d)) continue;
    // A file gone or unreadable since the scan gets no hash: apply will not move it.
    const bytes = await readFile(fsPath(join(dir, result.docs.paths[d]!))).catch(() => null);
    if (bytes) bytesHashes.set(d, bytesHash(bytes));
  }
  const rows = planRows(relation, { ...result.docs, bytesHashes }, decision);
  const root = await realpath(resolve(dir));
  try {
    await output.write(encodeName(file.toLowerCase().endsWith('.json') ? planJson(rows, root) : planCsv(rows, root)));
    await output.commit();
  } catch (error) {
    throw new UsageError(outputError(JSON.stringify(file), error).message);
  }
  return `simsift scan: plan ${escapeName(file)}: ${rows.length} rows; ${decision.removeFiles} files (${decision.removeBytes} bytes) marked remove\n`;
}
