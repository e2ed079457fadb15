/**
 * `simsift apply PLAN --into QUARANTINE` and `simsift apply --undo LOG`: carries out a keep plan by
 * moving each file marked remove into a quarantine folder outside the cleaned folder (its relative path
 * kept), and puts them back. Nothing is ever deleted. A file moves only when, right then, it is a regular
 * file under the plan's root reached through no symbolic link, its bytes hash to what the plan recorded
 * (and its text to the scan's content hash), and its group's kept file passes the same checks and is not
 * the same file; every planned move is in the undo log before the first one happens (apply-paths.ts does
 * the touching, undo-log.ts the log, apply-undo.ts the way back, core plan-moves.ts the choice of rows).
 */
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { bytesHash, parsePlan, type ParsedPlan, type PlanRow } from '../core/export/plan.ts';
import { contentHashOf } from '../workers/content-hash.ts';
import { errorCode, failure, UsageError, write, type CliIo, processIo } from './cli-common.ts';
import { writeAtomicFile } from './atomic-file.ts';
import { escapeName, nameFromBytes, terminalText } from './terminal-names.ts';
import { planMoves } from '../core/export/plan-moves.ts';
import { exists, moveVerified, readChecked, realPathOf, resolveUnder, unchanged, type CheckedFile } from './apply-paths.ts';
import { BUSY_CODE, checkBelow, lockRoot, LockBusyError } from './apply-lock.ts';
import { places, rootMisfit } from './apply-root.ts';
import { SIGNAL_CODES, watchSignals, type ApplyHooks, type Signals } from './apply-signals.ts';
import { runUndo } from './apply-undo.ts';
import { pathParts } from '../core/export/plan-paths.ts';
import { isLogPlace, undoLogText, UNDO_FORMAT, UNDO_VERSION, type UndoEntry, type UndoLog } from './undo-log.ts';

const USAGE = 'usage: simsift apply PLAN --into QUARANTINE_DIR [--root DIR] [--dry-run]\n       simsift apply --undo LOG [--dry-run]';

const HELP =
  `${USAGE}\n` +
  '  PLAN             the plan of `simsift scan --plan FILE` (CSV or JSON) or the app\'s Export plan\n' +
  '  --into DIR       quarantine folder, outside the cleaned folder: each file marked remove moves to DIR/<its path in the plan>\n' +
  "  --root DIR       the folder the plan's paths are relative to (default: the root the plan records, as simsift scan\n" +
  "                   writes it; needed for the app's plan: the folder that holds the scanned folder)\n" +
  '  --dry-run        print what would happen; change nothing\n' +
  '  --undo LOG       move every file of an undo log (simsift-undo-*.json) back, never over a file that reappeared\n' +
  'exit codes: 0 done; 1 a file not moved (or not put back); 2 bad arguments, plan or log; 75 another apply or undo\n' +
  'is running on this folder (its lock ROOT/.simsift-apply.lock); 130, 143 interrupted by SIGINT, SIGTERM\n';

const OPTIONS = {
  into: { type: 'string' },
  root: { type: 'string' },
  undo: { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

type ApplyArgs =
  | { kind: 'apply'; plan: string; into: string; root: string | undefined; dryRun: boolean }
  | { kind: 'undo'; log: string; dryRun: boolean }
  | { kind: 'help' };

function parseApplyArgs(argv: string[]): ApplyArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  for (const name of ['into', 'root', 'undo'] as const) if (values[name] === '') throw new UsageError(`--${name} needs a path`);
  const dryRun = values['dry-run'] === true;
  if (values.undo !== undefined) {
    if (positionals.length > 0 || values.into !== undefined || values.root !== undefined) throw new UsageError(`--undo takes only the log\n${USAGE}`);
    return { kind: 'undo', log: values.undo, dryRun };
  }
  if (positionals.length === 0) throw new UsageError(`missing PLAN\n${USAGE}`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}\n${USAGE}`);
  if (values.into === undefined) throw new UsageError(`missing --into QUARANTINE_DIR\n${USAGE}`);
  return { kind: 'apply', plan: positionals[0]!, into: values.into, root: values.root, dryRun };
}

/** The file of `row` under `root` as it is now, against what the plan says it was. */
async function checkRow(root: string, row: PlanRow): Promise<{ ok: true; file: CheckedFile } | { ok: false; why: string }> {
  if (isLogPlace(row.path)) return { ok: false, why: 'named like an undo log: in the quarantine it would be taken for one; move it by hand' };
  const where = await resolveUnder(root, row.path);
  if (!where.ok) return where;
  const read = await readChecked(where.full);
  if (!read.ok) return read;
  const { bytes } = read.file;
  if (bytes.length !== row.size) return { ok: false, why: `changed since the scan (size ${bytes.length}, plan ${row.size})` };
  if (row.bytes_hash === null) return { ok: false, why: 'the plan records no hash of its bytes (make the plan again with this simsift)' };
  if (bytesHash(bytes) !== row.bytes_hash) return { ok: false, why: 'changed since the scan (its bytes differ)' };
  if (row.content_hash === null || (await contentHashOf(row.path, bytes)) !== row.content_hash) return { ok: false, why: 'changed since the scan (content hash differs)' };
  return read;
}

/**
 * A new undo log's path in `into`, claimed by creating it empty and exclusively (the log is then written
 * over it): two applies in the same millisecond get `...Z.json` and `...Z-2.json`, never one file.
 */
async function claimLogName(into: string): Promise<string> {
  const base = `simsift-undo-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  for (let n = 1; ; n++) {
    const path = join(into, n === 1 ? `${base}.json` : `${base}-${n}.json`);
    try {
      await (await open(path, 'wx', 0o644)).close();
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw new UsageError(`cannot make an undo log in ${escapeName(into)} (${errorCode(error)}); nothing moved`);
    }
  }
}

/** Runs `simsift apply`; returns the exit code (2: bad arguments or plan; 1: a file not moved; 75: the root is locked by another; 128 + n: stopped by a signal). */
export async function runApply(argv: string[], io: CliIo = processIo, hooks: ApplyHooks = {}): Promise<number> {
  try {
    const args = parseApplyArgs(argv);
    if (args.kind === 'help') {
      await write(io.stdout, HELP);
      return 0;
    }
    return args.kind === 'undo' ? await runUndo(args.log, args.dryRun, io, hooks) : await apply(args, io, hooks);
  } catch (error) {
    if (error instanceof LockBusyError) {
      io.stderr.write(`simsift apply: ${terminalText(error.message)}\n`);
      return BUSY_CODE;
    }
    const { code, line } = failure('apply', error);
    if (line) io.stderr.write(line);
    return code;
  }
}

/** Reads a plan file of either form; a name that is not UTF-8 comes back as the CLI holds names (terminal-names.ts). */
async function readPlan(file: string): Promise<ParsedPlan> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(file)} (${errorCode(error)})`);
  }
  try {
    return parsePlan(nameFromBytes(bytes));
  } catch (error) {
    throw new UsageError(`${escapeName(file)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function apply(args: Extract<ApplyArgs, { kind: 'apply' }>, io: CliIo, hooks: ApplyHooks): Promise<number> {
  const plan = await readPlan(args.plan);
  const rootDir = args.root ?? plan.root;
  if (rootDir === null) {
    throw new UsageError(
      `${escapeName(args.plan)} records no root (the app's plan, whose browser does not know where the folder is, or a CSV plan from before simsift recorded it): give --root DIR, the folder its paths are relative to (for the app's plan, the folder that holds the scanned folder)`,
    );
  }
  // A recorded root is the scanned folder's real path; a relative one would be taken from wherever apply runs.
  if (args.root === undefined && !isAbsolute(rootDir)) {
    throw new UsageError(`${escapeName(args.plan)}: its root ${JSON.stringify(rootDir)} must be an absolute path (the scanned folder's, as simsift scan records it); give --root DIR to name the folder`);
  }
  const { root, into } = await places(rootDir, args.into);
  if (args.root !== undefined && plan.root !== null && (await realPathOf(resolve(plan.root)).catch(() => plan.root)) !== root) {
    await write(io.stderr, `simsift apply: --root ${escapeName(root)} overrides the root the plan records (${escapeName(plan.root)})\n`);
  }
  const misfit = await rootMisfit(root, plan.rows);
  if (misfit) throw new UsageError(`${args.root === undefined ? 'the root the plan records' : '--root'}: ${misfit}; nothing moved`);
  // Taken before the checks: what they find stays true, as no other apply or undo moves files here meanwhile.
  const lock = args.dryRun ? null : await lockRoot(root, 'simsift apply');
  // Watched from the lock on, so that a signal ends the command through its `finally`, which releases the lock.
  const signals = watchSignals();
  try {
    if (lock?.tookOver) await write(io.stderr, `simsift apply: ${lock.tookOver}\n`);
    return await applyLocked(args, root, into, plan, io, hooks, signals);
  } finally {
    signals.stop();
    await lock?.release();
  }
}

async function applyLocked(args: Extract<ApplyArgs, { kind: 'apply' }>, root: string, into: string, plan: ParsedPlan, io: CliIo, hooks: ApplyHooks, signals: Signals): Promise<number> {
  const { moves: planned, refused } = planMoves(plan.rows);
  const notMoved = refused.map((r) => `${escapeName(r.path)}: ${r.why}`);
  const moves: Array<{ row: PlanRow; file: CheckedFile; kept: CheckedFile[] }> = [];
  const keptState = new Map<string, { ok: true; file: CheckedFile } | { ok: false; why: string }>();
  for (const { row, kept } of planned) {
    if (signals.caught) {
      await write(io.stderr, `simsift apply: interrupted by ${signals.caught} while checking; nothing moved\n`);
      return SIGNAL_CODES[signals.caught];
    }
    const keptFiles: CheckedFile[] = [];
    for (const k of kept) {
      let keptCheck = keptState.get(k.path);
      if (!keptCheck) {
        keptCheck = await checkRow(root, k);
        keptState.set(k.path, keptCheck);
      }
      if (!keptCheck.ok) {
        notMoved.push(`${escapeName(row.path)}: its kept file ${escapeName(k.path)} is ${keptCheck.why}`);
        break;
      }
      keptFiles.push(keptCheck.file);
    }
    if (keptFiles.length < kept.length) continue;
    const check = await checkRow(root, row);
    const same = check.ok ? keptFiles.findIndex((k) => k.dev === check.file.dev && k.ino === check.file.ino) : -1;
    if (!check.ok) notMoved.push(`${escapeName(row.path)}: ${check.why}`);
    else if (same >= 0) {
      notMoved.push(`${escapeName(row.path)}: the same file as its kept file ${escapeName(kept[same]!.path)} (a hard link); removing it would free nothing`);
    } else moves.push({ row, file: check.file, kept: keptFiles });
  }

  const sum = (list: ReadonlyArray<{ row: PlanRow }>) => list.reduce((n, m) => n + m.row.size, 0);
  const target = (path: string) => escapeName(join(into, path));
  if (args.dryRun) {
    for (const m of moves) await write(io.stdout, `would move ${escapeName(m.row.path)} -> ${target(m.row.path)}\n`);
    for (const line of notMoved) await write(io.stdout, `would not move ${line}\n`);
    await write(io.stderr, `simsift apply: dry run: ${moves.length} files (${sum(moves)} bytes) would move to ${escapeName(into)}, ${notMoved.length} would not; nothing changed\n`);
    return 0;
  }

  await mkdir(into, { recursive: true });
  const logPath = await claimLogName(into);
  const entry = (m: { row: PlanRow; file: CheckedFile }): UndoEntry => ({ path: m.row.path, size: m.row.size, bytes_hash: bytesHash(m.file.bytes) });
  const rootInode = (await stat(root)).ino;
  const log = (list: UndoEntry[], complete: boolean): UndoLog => ({ format: UNDO_FORMAT, version: UNDO_VERSION, created: new Date().toISOString(), root, root_inode: rootInode, quarantine: into, complete, moves: list });
  // Every planned move is in the log before any happens: a crash midway leaves nothing unrecorded.
  await writeAtomicFile(logPath, [undoLogText(log(moves.map(entry), false))]);

  const done: UndoEntry[] = [];
  try {
    for (const m of moves) {
      await hooks.beforeMove?.(m.row.path);
      if (signals.caught) break;
      try {
        const to = await resolveUnder(into, m.row.path, true);
        if (!to.ok) throw new Error(`its place in the quarantine folder is ${to.why}`);
        if (await exists(to.full)) throw new Error(`${target(m.row.path)} already exists in the quarantine folder`);
        // Checked again right before the move: a kept file gone since the first check would leave no copy.
        for (const k of m.kept) if (!(await unchanged(k))) throw new Error('its kept file changed or vanished since the check; left where it was');
        await checkBelow(root, pathParts(m.row.path) ?? []);
        const warning = await moveVerified(m.file, to.full);
        done.push(entry(m));
        await write(io.stdout, `moved ${escapeName(m.row.path)} -> ${target(m.row.path)}${warning ? ` (but ${warning})` : ''}\n`);
      } catch (error) {
        notMoved.push(`${escapeName(m.row.path)}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    // The log now lists exactly the moves made.
    await writeAtomicFile(logPath, [undoLogText(log(done, true))]);
  }
  for (const line of notMoved) await write(io.stdout, `not moved ${line}\n`);
  const moved = done.reduce((n, m) => n + m.size, 0);
  if (signals.caught) {
    await write(io.stderr, `simsift apply: interrupted by ${signals.caught} after ${done.length} of ${moves.length} moves (${moved} bytes); undo log: ${escapeName(logPath)}\n`);
    return SIGNAL_CODES[signals.caught];
  }
  await write(io.stderr, `simsift apply: moved ${done.length} files (${moved} bytes) to ${escapeName(into)}; ${notMoved.length} not moved; undo log: ${escapeName(logPath)}\n`);
  await write(io.stdout, `undo log: ${escapeName(logPath)}\n`);
  // A refused row counts as much as a failed move: the file marked remove is still there.
  return notMoved.length > 0 ? 1 : 0;
}
