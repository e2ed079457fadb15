/**
 * Which rows of a plan `simsift apply` and the app's "Move marked to quarantine" will try to move, and
 * against which kept file: one pass over the rows (linear: a 40,000-row group is planned in one read of
 * each row), before any file is looked at.
 */
import type { PlanRow } from './plan.ts';

/** A removal to try: the row, and the kept file of each group that removes it, which must all still be there unchanged. */
export interface PlannedMove {
  row: PlanRow;
  /** One per group the path is marked remove in (each path once), the first for the row's own group. */
  kept: PlanRow[];
}

/**
 * The removals of a plan: one per path (its first `remove` row), never a path the plan keeps anywhere,
 * each with the file that must stay for it in every group that marks it remove: a `keep` row of that group
 * with the same content hash (the kept file, or a protected copy), else a `review` row with it (the copy of
 * a near-duplicate text left to review), else the group's kept file (`match: kept`, else its first `keep`
 * row). A group without one refuses the path, whatever another group says; so is a path another removal
 * counts on as its kept file. `refused` says, per path not tried, why.
 */
export function planMoves(rows: readonly PlanRow[]): { moves: PlannedMove[]; refused: Array<{ path: string; why: string }> } {
  const keptGroup = new Map<string, number>();
  const keptOf = new Map<number, PlanRow>();
  const sameText = new Map<string, PlanRow>();
  const removals = new Map<string, PlanRow[]>();
  const textKey = (r: PlanRow) => `${r.group}:${r.content_hash}`;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.role === 'keep') {
      if (!keptGroup.has(r.path)) keptGroup.set(r.path, r.group);
      const first = keptOf.get(r.group);
      if (first === undefined || (first.match !== 'kept' && r.match === 'kept')) keptOf.set(r.group, r);
    } else if (r.role === 'remove') {
      const list = removals.get(r.path);
      if (list === undefined) removals.set(r.path, [r]);
      else list.push(r);
    }
    if (r.content_hash !== null && r.role !== 'remove') {
      const held = sameText.get(textKey(r));
      if (held === undefined || (held.role === 'review' && r.role === 'keep')) sameText.set(textKey(r), r);
    }
  }
  const tried: PlannedMove[] = [];
  const refused: Array<{ path: string; why: string }> = [];
  for (const [path, list] of removals) {
    const keptIn = keptGroup.get(path);
    if (keptIn !== undefined) {
      refused.push({ path, why: `kept by the plan (group ${keptIn})` });
      continue;
    }
    const kept = new Map<string, PlanRow>();
    const without = list.find((row) => {
      const k = (row.content_hash !== null ? sameText.get(textKey(row)) : undefined) ?? keptOf.get(row.group);
      if (k && !kept.has(k.path)) kept.set(k.path, k);
      return k === undefined;
    });
    if (without) refused.push({ path, why: `group ${without.group} has no kept file in the plan` });
    else tried.push({ row: list[0]!, kept: [...kept.values()] });
  }
  // A file another removal counts on (a review row can also be marked remove in another group) stays:
  // else two rows naming each other would both leave. Refusing one only keeps more, so one pass is enough.
  const countedOn = new Map(tried.flatMap((m) => m.kept.map((k) => [k.path, m.row] as const)));
  const moves: PlannedMove[] = [];
  for (const m of tried) {
    const other = countedOn.get(m.row.path);
    if (other) refused.push({ path: m.row.path, why: `the kept file of ${other.path} in group ${other.group}; it stays for it` });
    else moves.push(m);
  }
  return { moves, refused };
}
