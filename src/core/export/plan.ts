/**
 * The plan: every document of every duplicate group with what the keep rules decided for it, as CSV
 * (quoting and escaping are csv.ts's) and JSON (for scripts and `simsift apply`). Pure, so the app's
 * "Export plan" and `simsift scan --plan` write the same bytes.
 */
import type { DuplicateRelation } from '../groups/duplicate-relation.ts';
import { UNKNOWN_DISTANCE } from '../groups/group-table.ts';
import { roleName, type KeepDecision, type KeepDocs, type KeepReason, type KeepRole } from '../keep/keep-rules.ts';
import { CSV_BOM, formatJaccard, toCsv } from './csv.ts';
import { toHex } from '../simhash/fingerprint64.ts';

/** Columns of the plan, in order (CSV header and JSON keys). */
export const PLAN_COLUMNS = ['group', 'path', 'role', 'reason', 'match', 'size', 'modified', 'content_hash', 'distance', 'jaccard'] as const;

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
  /** Fingerprint distance to the kept file, or null when unknown (not a near-duplicate of it directly). */
  distance: number | null;
  /** Exact Jaccard to the kept file, 4 decimals (never rounded up to 1), or null when unknown. */
  jaccard: number | null;
}

/** The documents the plan reads besides the keep inputs: content hashes as halves. */
export interface PlanDocs extends KeepDocs {
  hashHi: ArrayLike<number>;
  hashLo: ArrayLike<number>;
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


/** The plan's rows: every member slot of every group, in group order (whatever a filter shows). */
export function planRows(relation: RelationGraph, docs: PlanDocs, decision: KeepDecision): PlanRow[] {
  const { groups } = relation;
  const rows: PlanRow[] = [];
  for (let g = 0; g < groups.count; g++) {
    const kept = decision.keeper[g]!;
    for (let s = groups.offsets[g]!; s < groups.offsets[g + 1]!; s++) {
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
    r.distance === null ? '' : String(r.distance),
    r.jaccard === null ? '' : r.jaccard.toFixed(4),
  ];
  return CSV_BOM + toCsv([[...PLAN_COLUMNS], ...rows.map(cells)]);
}

/** Identifies a plan file (JSON) and its version. */
export const PLAN_FORMAT = 'simsift-plan';
export const PLAN_VERSION = 1;

/** The plan as JSON: `{ format, version, columns, rows }`, one row object per line for diffs. */
export function planJson(rows: readonly PlanRow[]): string {
  const lines = rows.map((r) => '    ' + JSON.stringify(Object.fromEntries(PLAN_COLUMNS.map((c) => [c, r[c]]))));
  return (
    `{\n  "format": "${PLAN_FORMAT}",\n  "version": ${PLAN_VERSION},\n  "columns": ${JSON.stringify(PLAN_COLUMNS)},\n` +
    `  "rows": [\n${lines.join(',\n')}\n  ]\n}\n`
  );
}

/** Reads a plan JSON back (what `simsift apply` takes). Throws an Error saying what is wrong. */
export function parsePlanJson(text: string): PlanRow[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a plan: ${error instanceof Error ? error.message : String(error)}`);
  }
  const v = value as { format?: unknown; version?: unknown; rows?: unknown };
  if (v?.format !== PLAN_FORMAT || !Array.isArray(v.rows)) throw new Error(`not a plan (no "format": "${PLAN_FORMAT}" and "rows")`);
  if (v.version !== PLAN_VERSION) throw new Error(`plan version ${String(v.version)} is not ${PLAN_VERSION}`);
  return v.rows.map((row: unknown, i: number) => {
    const r = row as Record<string, unknown>;
    const ok =
      Number.isInteger(r.group) &&
      typeof r.path === 'string' &&
      (r.role === 'keep' || r.role === 'remove' || r.role === 'review') &&
      typeof r.reason === 'string' &&
      (r.match === 'kept' || r.match === 'identical' || r.match === 'near-duplicate') &&
      typeof r.size === 'number' &&
      (r.modified === null || typeof r.modified === 'string') &&
      (r.content_hash === null || (typeof r.content_hash === 'string' && /^[0-9a-f]{16}$/.test(r.content_hash))) &&
      (r.distance === null || typeof r.distance === 'number') &&
      (r.jaccard === null || typeof r.jaccard === 'number');
    if (!ok) throw new Error(`plan row ${i + 1} is not a plan row: ${JSON.stringify(row)}`);
    return r as unknown as PlanRow;
  });
}
