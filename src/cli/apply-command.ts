/**
 * `simsift apply PLAN --into QUARANTINE` and `simsift apply --undo LOG`: carries out a keep plan by
 * moving each file marked remove into a quarantine folder (its relative path kept), and puts them back.
 * Nothing is ever deleted: a file is moved only while its content hash (computed by the scan's own
 * ingest pipeline) and size still match the plan, and its group's kept file is still there unchanged;
 * every move is written to an undo log in the quarantine folder before it happens.
 */
import { constants } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { parsePlanJson, type PlanRow } from '../core/export/plan.ts';
import { DEFAULT_SETTINGS } from '../core/simhash/settings.ts';
import { ingestApi } from '../workers/ingest-api.ts';
import { errorCode, UsageError, write, type CliIo, processIo } from './cli-common.ts';
import { writeAtomicFile } from './atomic-file.ts';
import { escapeName, terminalText } from './terminal-names.ts';

const USAGE = 'usage: simsift apply PLAN.json --into QUARANTINE_DIR [--root DIR] [--dry-run]\n       simsift apply --undo LOG [--dry-run]';

const HELP =
  `${USAGE}\n` +
  '  PLAN             the JSON plan of `simsift scan --plan FILE.json` or the app\'s Export plan (JSON)\n' +
  '  --into DIR       quarantine folder: each file marked remove moves to DIR/<its path in the plan>\n' +
  "  --root DIR       the folder the plan's paths are relative to (default: the current directory; for the\n" +
  "                   app's plan, the folder that holds the scanned folder)\n" +
  '  --dry-run        print what would happen; change nothing\n' +
  '  --undo LOG       move every file of an undo log (simsift-undo-*.json) back, never over a file that reappeared\n';

/** Identifies an undo log. */
const UNDO_FORMAT = 'simsift-undo';

/** One move of an undo log: absolute paths. */
interface UndoMove {
  path: string;
  from: string;
  to: string;
  size: number;
  content_hash: string;
}

interface UndoLog {
  format: typeof UNDO_FORMAT;
  version: 1;
  created: string;
  moves: UndoMove[];
}

type ApplyArgs =
  | { kind: 'apply'; plan: string; into: string; root: string; dryRun: boolean }
  | { kind: 'undo'; log: string; dryRun: boolean }
  | { kind: 'help' };

function parseArgs(argv: string[]): ApplyArgs {
  let plan: string | undefined;
  let into: string | undefined;
  let root = '.';
  let undo: string | undefined;
  let dryRun = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--dry-run') dryRun = true;
    else if (arg === '--into' || arg === '--root' || arg === '--undo') {
      const value = argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${arg} needs a path`);
      if (arg === '--into') into = value;
      else if (arg === '--root') root = value;
      else undo = value;
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${JSON.stringify(arg)}\n${USAGE}`);
    else if (plan === undefined) plan = arg;
    else throw new UsageError(`unexpected argument ${JSON.stringify(arg)}\n${USAGE}`);
  }
  if (undo !== undefined) {
    if (plan !== undefined || into !== undefined) throw new UsageError(`--undo takes only the log\n${USAGE}`);
    return { kind: 'undo', log: undo, dryRun };
  }
  if (plan === undefined) throw new UsageError(`missing PLAN\n${USAGE}`);
  if (into === undefined) throw new UsageError(`missing --into QUARANTINE_DIR\n${USAGE}`);
  return { kind: 'apply', plan, into, root, dryRun };
}

/**
 * The content hash the scan gives a file's bytes: the ingest worker API itself (decode, HTML rule,
 * normalization, XXH64), in this process. Null when the scan would give none (binary, empty, too large).
 */
export async function contentHashOf(name: string, bytes: Uint8Array): Promise<string | null> {
  const r = await ingestApi.ingestBatch([{ name, bytes }], DEFAULT_SETTINGS);
  if (r.hashHi[0] === 0 && r.hashLo[0] === 0) return null;
  return r.hashHi[0]!.toString(16).padStart(8, '0') + r.hashLo[0]!.toString(16).padStart(8, '0');
}

/** A plan path as a path under `root`, or null when it would leave it (absolute, `..`, empty segments). */
function under(root: string, path: string): string | null {
  if (path === '' || isAbsolute(path) || path.includes('\\') || path.includes('\0')) return null;
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return null;
  return join(root, ...parts);
}

/** What the file at `full` is now, against what the plan says it was. */
async function checkFile(full: string, row: PlanRow): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; why: string }> {
  let info;
  try {
    info = await lstat(full);
  } catch (error) {
    return { ok: false, why: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `unreadable (${errorCode(error)})` };
  }
  if (!info.isFile()) return { ok: false, why: 'not a regular file' };
  if (info.size !== row.size) return { ok: false, why: `changed since the scan (size ${info.size}, plan ${row.size})` };
  if (row.content_hash === null) return { ok: false, why: 'the plan has no content hash for it' };
  let bytes: Uint8Array;
  try {
    bytes = await readFile(full);
  } catch (error) {
    return { ok: false, why: `unreadable (${errorCode(error)})` };
  }
  const hash = await contentHashOf(row.path, bytes);
  if (hash !== row.content_hash) return { ok: false, why: 'changed since the scan (content hash differs)' };
  return { ok: true, bytes };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves `from` to `to` (which must not exist; its folder is made). Across devices (rename fails with
 * EXDEV): copy beside the target, fsync, compare the bytes, rename into place, then unlink the source.
 */
export async function moveFile(from: string, to: string, expected?: Uint8Array): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  if (await exists(to)) throw new Error(`${to} exists`);
  try {
    // link + unlink never replaces a target that appeared since the check (rename would).
    await link(from, to);
    await unlink(from);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Error(`${to} exists`);
    if (code !== 'EXDEV') {
      // A filesystem without hard links: a rename within it.
      try {
        await rename(from, to);
        return;
      } catch (inner) {
        if ((inner as NodeJS.ErrnoException).code !== 'EXDEV') throw inner;
      }
    }
  }
  await copyAcross(from, to, expected);
}

/** The cross-device move: copy beside the target, fsync, compare bytes, rename into place, unlink the source. */
export async function copyAcross(from: string, to: string, expected?: Uint8Array): Promise<void> {
  const temp = `${to}.simsift-${process.pid}.tmp`;
  await copyFile(from, temp, constants.COPYFILE_EXCL);
  try {
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    const source = expected ?? (await readFile(from));
    const copy = await readFile(temp);
    if (Buffer.compare(Buffer.from(source.buffer, source.byteOffset, source.byteLength), copy) !== 0) throw new Error(`the copy of ${from} differs from it`);
    if (await exists(to)) throw new Error(`${to} exists`);
    await rename(temp, to);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await unlink(from);
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** Runs `simsift apply`; returns the exit code (2: bad arguments or plan; 1: a failure). */
export async function runApply(argv: string[], io: CliIo = processIo): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.kind === 'help') {
      await write(io.stdout, HELP);
      return 0;
    }
    return args.kind === 'undo' ? await undo(args.log, args.dryRun, io) : await apply(args.plan, args.into, args.root, args.dryRun, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`simsift apply: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`simsift apply: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function apply(planFile: string, intoDir: string, rootDir: string, dryRun: boolean, io: CliIo): Promise<number> {
  let rows: PlanRow[];
  try {
    rows = parsePlanJson(await readFile(planFile, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code ? `cannot read ${JSON.stringify(planFile)} (${code})` : `${planFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const root = resolve(rootDir);
  const into = resolve(intoDir);
  if (into === root || root.startsWith(into + sep)) throw new UsageError('the quarantine folder cannot hold the folder being cleaned');

  // One decision per path: a path the plan keeps anywhere is never moved.
  const keptPaths = new Set(rows.filter((r) => r.role === 'keep').map((r) => r.path));
  const keptOf = new Map<number, PlanRow[]>();
  for (const r of rows) if (r.role === 'keep') keptOf.set(r.group, [...(keptOf.get(r.group) ?? []), r]);
  const removals = new Map<string, PlanRow>();
  for (const r of rows) if (r.role === 'remove' && !removals.has(r.path)) removals.set(r.path, r);

  const notMoved: string[] = [];
  const moves: Array<UndoMove & { bytes: Uint8Array }> = [];
  const keptState = new Map<string, string | null>(); // path -> why it cannot stand as the kept file, or null when it can
  for (const [path, row] of removals) {
    if (keptPaths.has(path)) {
      notMoved.push(`${path}: kept by the plan (group ${rows.find((r) => r.path === path && r.role === 'keep')!.group})`);
      continue;
    }
    const from = under(root, path);
    const to = under(into, path);
    if (!from || !to) {
      notMoved.push(`${path}: not a relative path under the root`);
      continue;
    }
    // Its group's kept file must still be there, unchanged: otherwise removing the copy could lose the text.
    const kept = (keptOf.get(row.group) ?? []).find((k) => k.match === 'kept') ?? keptOf.get(row.group)?.[0];
    if (!kept) {
      notMoved.push(`${path}: group ${row.group} has no kept file in the plan`);
      continue;
    }
    if (!keptState.has(kept.path)) {
      const keptFull = under(root, kept.path);
      const check = keptFull ? await checkFile(keptFull, kept) : { ok: false as const, why: 'not a relative path' };
      keptState.set(kept.path, check.ok ? null : check.why);
    }
    const keptWhy = keptState.get(kept.path);
    if (keptWhy) {
      notMoved.push(`${path}: its kept file ${kept.path} is ${keptWhy}`);
      continue;
    }
    const check = await checkFile(from, row);
    if (!check.ok) {
      notMoved.push(`${path}: ${check.why}`);
      continue;
    }
    if (await exists(to)) {
      notMoved.push(`${path}: ${to} already exists in the quarantine folder`);
      continue;
    }
    moves.push({ path, from, to, size: row.size, content_hash: row.content_hash!, bytes: check.bytes });
  }

  let bytes = 0;
  for (const m of moves) bytes += m.size;
  if (dryRun) {
    for (const m of moves) await write(io.stdout, `would move ${escapeName(m.path)} -> ${escapeName(m.to)}\n`);
    for (const line of notMoved) await write(io.stdout, `would not move ${terminalText(line)}\n`);
    await write(io.stderr, `simsift apply: dry run: ${moves.length} files (${bytes} bytes) would move to ${escapeName(into)}, ${notMoved.length} would not; nothing changed\n`);
    return 0;
  }

  await mkdir(into, { recursive: true });
  const logPath = join(into, `simsift-undo-${stamp()}.json`);
  const log = (done: UndoMove[]): string =>
    JSON.stringify({ format: UNDO_FORMAT, version: 1, created: new Date().toISOString(), moves: done } satisfies UndoLog, null, 2) + '\n';
  // The log lists every move before any happens, so a crash midway leaves nothing unrecorded.
  const planned = moves.map(({ bytes: _, ...m }) => m);
  await writeAtomicFile(logPath, [log(planned)]);
  const done: UndoMove[] = [];
  let failed = 0;
  for (const [i, m] of moves.entries()) {
    try {
      await moveFile(m.from, m.to, m.bytes);
      done.push(planned[i]!);
      await write(io.stdout, `moved ${escapeName(m.path)} -> ${escapeName(m.to)}\n`);
    } catch (error) {
      failed++;
      notMoved.push(`${escapeName(m.path)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await writeAtomicFile(logPath, [log(done)]);
  for (const line of notMoved) await write(io.stdout, `not moved ${terminalText(line)}\n`);
  let moved = 0;
  for (const m of done) moved += m.size;
  await write(io.stderr, `simsift apply: moved ${done.length} files (${moved} bytes) to ${escapeName(into)}; ${notMoved.length} not moved; undo log: ${escapeName(logPath)}\n`);
  await write(io.stdout, `undo log: ${escapeName(logPath)}\n`);
  return failed > 0 ? 1 : 0;
}

async function undo(logFile: string, dryRun: boolean, io: CliIo): Promise<number> {
  let log: UndoLog;
  try {
    log = JSON.parse(await readFile(logFile, 'utf8')) as UndoLog;
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(logFile)} (${errorCode(error)})`);
  }
  if (log?.format !== UNDO_FORMAT || !Array.isArray(log.moves)) throw new UsageError(`${logFile} is not a simsift undo log`);
  let back = 0;
  const refused: string[] = [];
  for (const m of log.moves) {
    if (!(await exists(m.to))) {
      refused.push(`${escapeName(m.path)}: not in the quarantine folder (${escapeName(m.to)})`);
      continue;
    }
    if (await exists(m.from)) {
      refused.push(`${escapeName(m.path)}: a file reappeared at ${escapeName(m.from)}; not overwritten`);
      continue;
    }
    if (dryRun) {
      await write(io.stdout, `would put back ${escapeName(m.path)} -> ${escapeName(m.from)}\n`);
      back++;
      continue;
    }
    try {
      await moveFile(m.to, m.from);
      back++;
      await write(io.stdout, `put back ${escapeName(m.path)} -> ${escapeName(m.from)}\n`);
    } catch (error) {
      refused.push(`${escapeName(m.path)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const line of refused) await write(io.stdout, `${dryRun ? 'would not put back' : 'not put back'} ${terminalText(line)}\n`);
  await write(io.stderr, `simsift apply --undo: ${dryRun ? 'dry run: would put back' : 'put back'} ${back} of ${log.moves.length} files; ${refused.length} not\n`);
  return refused.length > 0 && !dryRun ? 1 : 0;
}
