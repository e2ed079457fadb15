/**
 * `simsift scan --plan FILE`: the keep rules as options and the plan file the app's "Export plan" writes
 * (same rows, same bytes: core/keep and core/export/plan.ts decide and format both).
 */
import { decideKeep, normalizeFolder, parseKeepOrder, type KeepRules } from '../core/keep/keep-rules.ts';
import { planCsv, planJson, planRows } from '../core/export/plan.ts';
import type { ScanResult } from '../scan/scan-result.ts';
import { UsageError } from './cli-common.ts';
import { outputError, type AtomicFile } from './atomic-file.ts';
import { encodeName, escapeName } from './terminal-names.ts';

/** Where the plan goes and by which rules. */
export interface PlanOptions {
  file: string | undefined;
  rules: KeepRules;
}

export const KEEP_USAGE = '[--plan FILE.csv|FILE.json] [--keep RULE,...] [--protect FOLDER]... [--mark-near]';

export const KEEP_HELP =
  '  --plan FILE      write the keep plan there (JSON when FILE ends in .json, else CSV): every document of\n' +
  '                   every group with role keep/remove/review and the rule that decided (see simsift apply)\n' +
  '  --keep RULES     the keep rules in order, comma-separated: protected, newest, oldest, shortest-path,\n' +
  "                   longest-path, largest, smallest (then the group's reference, then path order)\n" +
  '  --protect DIR    keep everything under DIR (a path as the plan shows it; repeatable; adds "protected"\n' +
  '                   first when --keep does not name it)\n' +
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
  for (const folder of values.protect ?? []) {
    if (folder === '') throw new UsageError('--protect needs a value');
    rules.protectedFolders.push(normalizeFolder(folder));
  }
  if (rules.protectedFolders.length > 0 && !rules.order.includes('protected')) rules.order.unshift('protected');
  return { file: values.plan, rules };
}

/** Decides the plan of `result` and writes it to `output` (opened before the scan, committed when whole); returns a summary line for stderr. */
export async function writePlan(result: ScanResult, options: PlanOptions, output: AtomicFile): Promise<string> {
  const file = output.target;
  const relation = result.relation;
  const decision = decideKeep(relation, result.docs, options.rules);
  const rows = planRows(relation, result.docs, decision);
  try {
    await output.write(encodeName(file.toLowerCase().endsWith('.json') ? planJson(rows) : planCsv(rows)));
    await output.commit();
  } catch (error) {
    throw new UsageError(outputError(JSON.stringify(file), error).message);
  }
  return `simsift scan: plan ${escapeName(file)}: ${rows.length} rows; ${decision.removeFiles} files (${decision.removeBytes} bytes) marked remove\n`;
}
