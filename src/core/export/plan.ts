/**
 * The plan: every document of every duplicate group with what the keep rules decided for it, as CSV
 * (quoting and escaping are csv.ts's) and JSON (for scripts and `simsift apply`). Pure, so the app's
 * "Export plan" and `simsift scan --plan` write the same bytes.
 */
import type { DuplicateRelation } from '../groups/duplicate-relation.ts';
import { UNKNOWN_DISTANCE } from '../groups/group-table.ts';
import { roleName, type KeepDecision, type KeepDocs, type KeepReason, type KeepRole } from '../keep/keep-rules.ts';
import Papa from 'papaparse';
import { xxh64Bytes } from '../simhash/xxh64.ts';
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
 * before it acts: XXH64 (seed 0, core's xxh64.ts) of the raw bytes, 16 lowercase hex digits. The content
 * hash is of the normalized text, blind to a case-only edit; this one sees any changed byte.
 */
export function bytesHash(bytes: Uint8Array): string {
  const [hi, lo] = xxh64Bytes(bytes);
  return toHex(hi, lo);
}

type RelationGraph = Pick<DuplicateRelation, 'groups' | 'classOf' | 'graphOffsets' | 'graphNeighbour' | 'graphEdge' | 'verified'>;

/** Distance and Jaccard between two documents of the relation: 0 and 1 for the same text, the verified pair's otherwise, null when not a pair. */
export function pairMeasures(relation: RelationGraph, a: number, b: number): { distance: number | null; jaccard: number | null } {
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
export function planRows(relation: RelationGraph, docs: PlanDocs, decision: KeepDecision): PlanRow[] {
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

/** The plan CSV: UTF-8 BOM, header, one RFC 4180 record per row (csv.ts's quoting and formula escape). */
export function planCsv(rows: readonly PlanRow[]): string {
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
  ];
  return CSV_BOM + toCsv([[...PLAN_COLUMNS], ...rows.map(cells)]);
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
  if (!body.trimStart().startsWith('{')) return { root: null, rows: parsePlanCsv(body) };
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
  return { root: typeof v.root === 'string' ? v.root : null, rows: v.rows.map((row: unknown, i: number) => checkRow(row, i)) };
}

/** The CSV plan's rows: header as PLAN_COLUMNS (or version 1's, without bytes_hash), cells typed back. */
function parsePlanCsv(text: string): PlanRow[] {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
  if (parsed.errors.length > 0) throw new Error(`not a plan: CSV row ${(parsed.errors[0]!.row ?? 0) + 1}: ${parsed.errors[0]!.message}`);
  const [header, ...records] = parsed.data;
  const columns = header ?? [];
  const v1 = PLAN_COLUMNS.filter((c) => c !== 'bytes_hash');
  if (columns.join(',') !== PLAN_COLUMNS.join(',') && columns.join(',') !== v1.join(',')) {
    throw new Error(`not a plan (the CSV header is not ${PLAN_COLUMNS.join(',')})`);
  }
  const num = (cell: string): number | string | null => (cell === '' ? null : /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell);
  return records.map((record, i) => {
    const cells = new Map(columns.map((c, j) => [c, unescapeCsvCell(record[j] ?? '')]));
    const row = {
      group: num(cells.get('group')!),
      path: cells.get('path'),
      role: cells.get('role'),
      reason: cells.get('reason'),
      match: cells.get('match'),
      size: num(cells.get('size')!),
      modified: cells.get('modified') || null,
      content_hash: cells.get('content_hash') || null,
      bytes_hash: cells.get('bytes_hash') || null,
      distance: num(cells.get('distance')!),
      jaccard: num(cells.get('jaccard')!),
    };
    if (record.length !== columns.length) throw new Error(`plan row ${i + 1} has ${record.length} cells, not ${columns.length}`);
    return checkRow(row, i);
  });
}

const HASH = /^[0-9a-f]{16}$/;

/** One row read back, checked cell by cell; throws naming the row. */
function checkRow(row: unknown, i: number): PlanRow {
  if (row === null || typeof row !== 'object') throw new Error(`plan row ${i + 1} is not a plan row: ${JSON.stringify(row)}`);
  const r = { ...(row as Record<string, unknown>) };
  if (r.bytes_hash === undefined) r.bytes_hash = null;
  const ok =
    Number.isInteger(r.group) &&
    typeof r.path === 'string' &&
    (r.role === 'keep' || r.role === 'remove' || r.role === 'review') &&
    typeof r.reason === 'string' &&
    (r.match === 'kept' || r.match === 'identical' || r.match === 'near-duplicate') &&
    typeof r.size === 'number' &&
    (r.modified === null || typeof r.modified === 'string') &&
    (r.content_hash === null || (typeof r.content_hash === 'string' && HASH.test(r.content_hash))) &&
    (r.bytes_hash === null || (typeof r.bytes_hash === 'string' && HASH.test(r.bytes_hash))) &&
    (r.distance === null || typeof r.distance === 'number') &&
    (r.jaccard === null || typeof r.jaccard === 'number');
  if (!ok) throw new Error(`plan row ${i + 1} is not a plan row: ${JSON.stringify(row)}`);
  return r as unknown as PlanRow;
}
