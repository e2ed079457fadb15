/**
 * The undo log of `simsift apply`: the root and the quarantine (real paths, and the root's inode), and each move as the plan
 * path and the hash of the bytes moved. It names no absolute path per entry, so an entry can only move a
 * file from the quarantine back under the root, and only the bytes that were moved.
 */

/** Identifies an undo log. */
export const UNDO_FORMAT = 'simsift-undo';
export const UNDO_VERSION = 2;

/** One move: the plan path (relative to the root and to the quarantine alike), its size and bytes hash. */
export interface UndoEntry {
  path: string;
  size: number;
  bytes_hash: string;
}

export interface UndoLog {
  format: typeof UNDO_FORMAT;
  version: typeof UNDO_VERSION;
  created: string;
  /** The cleaned folder, real and absolute. */
  root: string;
  /** The cleaned folder's inode when the apply ran (absent in logs made before it was recorded): an edited `root` naming another folder is refused. */
  root_inode?: number;
  /** The quarantine folder, real and absolute: the folder the log lies in. */
  quarantine: string;
  /** False while the moves are under way: the log then lists every planned move, some perhaps never made. */
  complete: boolean;
  moves: UndoEntry[];
}

/** The log's text (JSON, one entry per line). */
export function undoLogText(log: UndoLog): string {
  const { moves, ...head } = log;
  const fields = Object.entries(head).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`);
  return `{\n${fields.join('\n')}\n  "moves": [\n${moves.map((m) => '    ' + JSON.stringify(m)).join(',\n')}\n  ]\n}\n`;
}

/** Reads an undo log; throws an Error saying what is wrong (which entry, when one is). */
export function parseUndoLog(text: string): UndoLog {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a simsift undo log (${error instanceof Error ? error.message : String(error)})`);
  }
  const v = value as Partial<Record<keyof UndoLog, unknown>> | null;
  if (v?.format !== UNDO_FORMAT || !Array.isArray(v.moves)) throw new Error('not a simsift undo log');
  if (v.version !== UNDO_VERSION) throw new Error(`undo log version ${String(v.version)} is not ${UNDO_VERSION} (made by another simsift)`);
  if (typeof v.root !== 'string' || typeof v.quarantine !== 'string' || typeof v.complete !== 'boolean') throw new Error('the undo log names no root and quarantine');
  const moves = v.moves.map((m: unknown, i: number): UndoEntry => {
    const e = m as Record<string, unknown> | null;
    if (e === null || typeof e !== 'object' || typeof e.path !== 'string' || typeof e.size !== 'number' || typeof e.bytes_hash !== 'string' || !/^[0-9a-f]{16}$/.test(e.bytes_hash)) {
      throw new Error(`entry ${i + 1} of the undo log is not a move: ${JSON.stringify(m)}`);
    }
    return { path: e.path, size: e.size, bytes_hash: e.bytes_hash };
  });
  if (v.root_inode !== undefined && typeof v.root_inode !== 'number') throw new Error('the undo log\'s "root_inode" is not a number');
  const log: UndoLog = { format: UNDO_FORMAT, version: UNDO_VERSION, created: String(v.created ?? ''), root: v.root, quarantine: v.quarantine, complete: v.complete, moves };
  if (typeof v.root_inode === 'number') log.root_inode = v.root_inode;
  return log;
}

/**
 * Whether a plan path, taken under the quarantine, is a place of the logs themselves: a top-level
 * `simsift-undo-*.json` (or one of its temporary files). Apply never moves a file there and undo never
 * moves one back from there, so a log cannot be carried into the root.
 */
export function isLogPlace(path: string): boolean {
  return !path.includes('/') && (/^simsift-undo-.*\.json$/i.test(path) || /^\.simsift-undo-.*\.simsift-tmp$/i.test(path));
}
