/**
 * The plan: every document of every duplicate group with what the keep rules decided for it, as CSV
 * (quoting and escaping are csv.ts's) and JSON (for scripts and `simsift apply`). Pure, so the app's
 * "Export plan" and `simsift scan --plan` write the same bytes.
 */
import type { DuplicateRelation } from '../groups/duplicate-relation.ts';
import { UNKNOWN_DISTANCE } from '../groups/group-table.ts';
import { roleName, type KeepDecision, type KeepDocs, type KeepReason, type KeepRole } from '../keep/keep-rules.ts';
import Papa from 'papaparse';
import { xxh64Bytes } from '../simhash/fingerprint-kernel.ts';
import { CSV_BOM, formatJaccard, toCsv, unescapeCsvCell } from './csv.ts';
import { toHex } from '../simhash/fingerprint64.ts';

/** Columns of the plan, in order (CSV header and JSON keys). */
export const PLAN_COLUMNS = ['group', 'path', 'role', 'reason', 'match', 'size', 'modified', 'content_hash', 'bytes_hash', 'distance', 'jaccard'] as const;

/**
 * How a document relates to its group's kept file: the kept file itself, the same text (an identical
 * copy), or a different text (a near-duplicate, even at distance 0).
 */
export type PlanMatch = 'kept' | 'identical' | 'near-duplicate';

/** One row of the plan. */
export interface PlanRow {
  /** 1-based group number, as the app shows it. */
  group: number;
  path: string;
  role: KeepRole;
  reason: KeepReason;
  match: PlanMatch;
  size: number;
  /** Modification time as ISO 8601 UTC, or null when unknown. */
  modified: string | null;
  /** XXH64 of the normalized text, 16 lowercase hex digits (what `simsift apply` checks), or null. */
  content_hash: string | null;
  /** XXH64 of the file's bytes as the plan was made (`bytesHash`), or null when not read: what `simsift apply` re-hashes. */
  bytes_hash: string | null;
  /** Fingerprint distance to the kept file, or null when unknown (not a near-duplicate of it directly). */
  distance: number | null;
  /** Exact Jaccard to the kept file, 4 decimals (never rounded up to 1), or null when unknown. */
  jaccard: number | null;
}

/** The documents the plan reads besides the keep inputs: content hashes as halves, and the hash of each file's bytes when read. */
export interface PlanDocs extends KeepDocs {
  hashHi: ArrayLike<number>;
  hashLo: ArrayLike<number>;
  /** By document: `bytesHash` of its file's bytes, read when the plan was made (absent: null in the plan). */
  bytesHashes?: ReadonlyMap<number, string>;
}

/**
 * The hash of a file's bytes that the plan records and `simsift apply` (and the app's move) re-computes
 * before it acts: XXH64 (seed 0, the fingerprint kernel's) of the raw bytes, 16 lowercase hex digits. The content
 * hash is of the normalized text, blind to a case-only edit; this one sees any changed byte.
 */
export function bytesHash(bytes: Uint8Array): string {
  const [hi, lo] = xxh64Bytes(bytes);
  return toHex(hi, lo);
}

/** The parts of the relation a plan reads. */
export type PlanRelation = Pick<DuplicateRelation, 'groups' | 'classOf' | 'graphOffsets' | 'graphNeighbour' | 'graphEdge' | 'verified'>;

/** Distance and Jaccard between two documents of the relation: 0 and 1 for the same text, the verified pair's otherwise, null when not a pair. */
export function pairMeasures(relation: PlanRelation, a: number, b: number): { distance: number | null; jaccard: number | null } {
  const ca = relation.classOf[a]!;
  const cb = relation.classOf[b]!;
  if (a === b || (ca >= 0 && ca === cb)) return { distance: 0, jaccard: 1 };
  if (ca < 0 || cb < 0) return { distance: null, jaccard: null };
  for (let s = relation.graphOffsets[ca]!; s < relation.graphOffsets[ca + 1]!; s++) {
    if (relation.graphNeighbour[s] !== cb) continue;
    const e = relation.graphEdge[s]!;
    const d = relation.verified.distance[e]!;
    return { distance: d === UNKNOWN_DISTANCE ? null : d, jaccard: Number(formatJaccard(relation.verified.jaccard[e]!)) };
  }
  return { distance: null, jaccard: null };
}


/**
 * The plan's rows: every member slot of every group, in group order (whatever a filter shows), except the
 * documents the person said are not duplicates (reason `ignored`): they are not in the plan.
 */
export function planRows(relation: PlanRelation, docs: PlanDocs, decision: KeepDecision): PlanRow[] {
  const { groups } = relation;
  const rows: PlanRow[] = [];
  for (let g = 0; g < groups.count; g++) {
    const kept = decision.keeper[g]!;
    for (let s = groups.offsets[g]!; s < groups.offsets[g + 1]!; s++) {
      if (decision.reason[s] === 'ignored') continue;
      const d = groups.members[s]!;
      const time = docs.modified?.[d] ?? 0;
      const hashed = docs.hashHi[d] !== 0 || docs.hashLo[d] !== 0;
      const m = pairMeasures(relation, kept, d);
      rows.push({
        group: g + 1,
        path: docs.paths[d]!,
        role: roleName(decision.role[s]!),
        reason: decision.reason[s]!,
        match: d === kept ? 'kept' : decision.identical[s] ? 'identical' : 'near-duplicate',
        size: docs.sizes[d]!,
        modified: time > 0 ? new Date(time).toISOString() : null,
        content_hash: hashed ? toHex(docs.hashHi[d]!, docs.hashLo[d]!) : null,
        bytes_hash: docs.bytesHashes?.get(d) ?? null,
        distance: m.distance,
        jaccard: m.jaccard,
      });
    }
  }
  return rows;
}

/**
 * The root the plan records for documents at `paths`: the one kept for their folder (the paths' first
 * part, in `roots` by name) when every path lies in that one folder; null otherwise (the browser does not
 * know where a folder it was given lies).
 */
export function planRootOf(roots: Readonly<Record<string, string>>, paths: readonly string[]): string | null {
  const folder = paths[0]?.split('/')[0];
  if (folder === undefined || !Object.hasOwn(roots, folder)) return null;
  const prefix = `${folder}/`;
  return paths.every((p) => p.startsWith(prefix)) ? roots[folder]! : null;
}

/**
 * The CSV's last column: the absolute folder the paths are relative to, repeated on every row (empty in the
 * app's plan, whose browser does not know it). A cell on each row survives what a spreadsheet does to a
 * file (sorting, reordering columns, deleting rows), which a first line or a comment would not.
 */
export const PLAN_ROOT_COLUMN = 'root';

/** The plan CSV: UTF-8 BOM, header, one RFC 4180 record per row (csv.ts's quoting and formula escape), `root` on each. */
export function planCsv(rows: readonly PlanRow[], root: string | null = null): string {
  const cells = (r: PlanRow): string[] => [
    String(r.group),
    r.path,
    r.role,
    r.reason,
    r.match,
    String(r.size),
    r.modified ?? '',
    r.content_hash ?? '',
    r.bytes_hash ?? '',
    r.distance === null ? '' : String(r.distance),
    r.jaccard === null ? '' : r.jaccard.toFixed(4),
    root ?? '',
  ];
  return CSV_BOM + toCsv([[...PLAN_COLUMNS, PLAN_ROOT_COLUMN], ...rows.map(cells)]);
}

/** Identifies a plan file (JSON) and its version. */
export const PLAN_FORMAT = 'simsift-plan';
export const PLAN_VERSION = 2;

/**
 * The plan as JSON: `{ format, version, root, columns, rows }`, one row object per line for diffs. `root`
 * is the absolute folder the paths are relative to (the CLI knows it; the app does not: null).
 */
export function planJson(rows: readonly PlanRow[], root: string | null = null): string {
  const lines = rows.map((r) => '    ' + JSON.stringify(Object.fromEntries(PLAN_COLUMNS.map((c) => [c, r[c]]))));
  return (
    `{\n  "format": "${PLAN_FORMAT}",\n  "version": ${PLAN_VERSION},\n  "root": ${JSON.stringify(root)},\n  "columns": ${JSON.stringify(PLAN_COLUMNS)},\n` +
    `  "rows": [\n${lines.join(',\n')}\n  ]\n}\n`
  );
}

/** A plan read back: its recorded root (null when it records none, as the CSV and the app's plan) and rows. */
export interface ParsedPlan {
  root: string | null;
  rows: PlanRow[];
}

/** Reads a plan JSON back. Throws an Error saying what is wrong. */
export function parsePlanJson(text: string): PlanRow[] {
  return parsePlan(text).rows;
}

/**
 * Reads either form of the plan (what `simsift apply` takes): the JSON, or the CSV with its BOM, RFC 4180
 * quoting (papaparse) and formula escape (`unescapeCsvCell`). Version 1 plans read with no bytes hash.
 * Throws an Error saying what is wrong.
 */
export function parsePlan(text: string): ParsedPlan {
  const body = text.startsWith(CSV_BOM) ? text.slice(CSV_BOM.length) : text;
  if (!body.trimStart().startsWith('{')) return parsePlanCsv(body);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new Error(`not a plan: ${error instanceof Error ? error.message : String(error)}`);
  }
  const v = value as { format?: unknown; version?: unknown; rows?: unknown; root?: unknown };
  if (v?.format !== PLAN_FORMAT || !Array.isArray(v.rows)) throw new Error(`not a plan (no "format": "${PLAN_FORMAT}" and "rows")`);
  if (v.version !== PLAN_VERSION && v.version !== 1) throw new Error(`plan version ${String(v.version)} is not ${PLAN_VERSION}`);
  if (v.root !== undefined && v.root !== null && typeof v.root !== 'string') throw new Error('the plan\'s "root" is not a path');
  return { root: typeof v.root === 'string' ? v.root : null, rows: v.rows.map((row: unknown, i: number) => checkRow(row, `plan row ${i + 1}`)) };
}

/**
 * The CSV plan's rows and root. Columns are found by their header names, in any order (a spreadsheet may
 * move them; unknown ones are left alone); `bytes_hash` may be missing (version 1) and `root` too (a plan
 * made before it was recorded). Every non-empty root cell must name the same folder. Errors name the row
 * as a spreadsheet numbers it (the header is row 1).
 */
function parsePlanCsv(text: string): ParsedPlan {
  // Greedy: a spreadsheet may save rows of empty cells after the last one.
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  if (parsed.errors.length > 0) throw new Error(`not a plan: CSV row ${(parsed.errors[0]!.row ?? 0) + 1}: ${parsed.errors[0]!.message}`);
  const [header, ...records] = parsed.data;
  const columns = (header ?? []).map((c) => c.trim());
  const required = PLAN_COLUMNS.filter((c) => c !== 'bytes_hash');
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new Error(`not a plan (the CSV has no column ${missing.map((c) => JSON.stringify(c)).join(', ')}; a plan's header names ${[...PLAN_COLUMNS, PLAN_ROOT_COLUMN].join(',')})`);
  const twice = columns.find((c, j) => c !== '' && columns.indexOf(c) !== j);
  if (twice !== undefined) throw new Error(`not a plan (the CSV has two columns named ${JSON.stringify(twice)})`);
  const num = (cell: string): number | string | null => (cell === '' ? null : /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell);
  let root = null as { value: string; row: number } | null;
  const rows = records.map((record, i) => {
    const where = `plan row ${i + 1} (spreadsheet row ${i + 2})`;
    if (record.length !== columns.length) throw new Error(`${where} has ${record.length} cells, not ${columns.length}`);
    const cells = new Map(columns.map((c, j) => [c, unescapeCsvCell(record[j] ?? '')]));
    const cell = (c: string): string => cells.get(c) ?? '';
    const rowRoot = cell(PLAN_ROOT_COLUMN);
    if (rowRoot !== '') {
      if (root && root.value !== rowRoot) {
        throw new Error(`${where} records the root ${JSON.stringify(rowRoot)}, but spreadsheet row ${root.row} records ${JSON.stringify(root.value)}: a plan has one root`);
      }
      root ??= { value: rowRoot, row: i + 2 };
    }
    const row = {
      group: num(cell('group')),
      path: cell('path'),
      role: cell('role'),
      reason: cell('reason'),
      match: cell('match'),
      size: num(cell('size')),
      modified: cell('modified') || null,
      content_hash: cell('content_hash') || null,
      bytes_hash: cell('bytes_hash') || null,
      distance: num(cell('distance')),
      jaccard: num(cell('jaccard')),
    };
    return checkRow(row, where);
  });
  return { root: root?.value ?? null, rows };
}

const HASH = /^[0-9a-f]{16}$/;

/** One row read back, checked cell by cell; throws naming the row (`where`). */
function checkRow(row: unknown, where: string): PlanRow {
  if (row === null || typeof row !== 'object') throw new Error(`${where} is not a plan row: ${JSON.stringify(row)}`);
  const r = { ...(row as Record<string, unknown>) };
  if (r.bytes_hash === undefined) r.bytes_hash = null;
  const checks: Array<[keyof PlanRow, boolean]> = [
    ['group', Number.isInteger(r.group)],
    ['path', typeof r.path === 'string'],
    ['role', r.role === 'keep' || r.role === 'remove' || r.role === 'review'],
    ['reason', typeof r.reason === 'string'],
    ['match', r.match === 'kept' || r.match === 'identical' || r.match === 'near-duplicate'],
    ['size', typeof r.size === 'number'],
    ['modified', r.modified === null || typeof r.modified === 'string'],
    ['content_hash', r.content_hash === null || (typeof r.content_hash === 'string' && HASH.test(r.content_hash))],
    ['bytes_hash', r.bytes_hash === null || (typeof r.bytes_hash === 'string' && HASH.test(r.bytes_hash))],
    ['distance', r.distance === null || typeof r.distance === 'number'],
    ['jaccard', r.jaccard === null || typeof r.jaccard === 'number'],
  ];
  const bad = checks.find(([, ok]) => !ok)?.[0];
  if (bad !== undefined) throw new Error(`${where} is not a plan row: its ${bad} ${JSON.stringify(r[bad] ?? null)} is not valid (${JSON.stringify(row)})`);
  return r as unknown as PlanRow;
}
