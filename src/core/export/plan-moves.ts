/**
 * Which rows of a plan `simsift apply` and the app's "Move marked to quarantine" will try to move, and
 * against which kept file: one pass over the rows (linear: a 40,000-row group is planned in one read of
 * each row), before any file is looked at.
 */
import type { PlanRow } from './plan.ts';

/** A removal to try: the row, and the kept file of its group that must still be there unchanged. */
export interface PlannedMove {
  row: PlanRow;
  kept: PlanRow;
}

/**
 * The removals of a plan: one per path (its first `remove` row), never a path the plan keeps anywhere,
 * each with the file that must stay for it: a `keep` row of its group with the same content hash (the
 * kept file, or a protected copy), else a `review` row with it (the copy of a near-duplicate text left to
 * review), else the group's kept file (`match: kept`, else its first `keep` row). `refused` says, per path
 * not tried, why.
 */
export function planMoves(rows: readonly PlanRow[]): { moves: PlannedMove[]; refused: Array<{ path: string; why: string }> } {
  const keptGroup = new Map<string, number>();
  const keptOf = new Map<number, PlanRow>();
  const sameText = new Map<string, PlanRow>();
  const removals = new Map<string, PlanRow>();
  const textKey = (r: PlanRow) => `${r.group}:${r.content_hash}`;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.role === 'keep') {
      if (!keptGroup.has(r.path)) keptGroup.set(r.path, r.group);
      const first = keptOf.get(r.group);
      if (first === undefined || (first.match !== 'kept' && r.match === 'kept')) keptOf.set(r.group, r);
    } else if (r.role === 'remove' && !removals.has(r.path)) removals.set(r.path, r);
    if (r.content_hash !== null && r.role !== 'remove') {
      const held = sameText.get(textKey(r));
      if (held === undefined || (held.role === 'review' && r.role === 'keep')) sameText.set(textKey(r), r);
    }
  }
  const moves: PlannedMove[] = [];
  const refused: Array<{ path: string; why: string }> = [];
  for (const [path, row] of removals) {
    const keptIn = keptGroup.get(path);
    if (keptIn !== undefined) refused.push({ path, why: `kept by the plan (group ${keptIn})` });
    else {
      const kept = (row.content_hash !== null ? sameText.get(textKey(row)) : undefined) ?? keptOf.get(row.group);
      if (!kept) refused.push({ path, why: `group ${row.group} has no kept file in the plan` });
      else moves.push({ row, kept });
    }
  }
  return { moves, refused };
}
