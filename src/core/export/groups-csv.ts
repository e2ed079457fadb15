/**
 * The groups export: one row per document of each group (group, path, role, distance to the
 * reference), in the order the caller shows the groups. Quoting and escaping are csv.ts's.
 */
import { UNKNOWN_DISTANCE, type GroupTable } from '../groups/group-table.ts';
import { CSV_BOM, toCsv } from './csv.ts';

type GroupsCsvTable = Pick<GroupTable, 'count' | 'offsets' | 'members' | 'distanceToReference'>;

/** Header of the groups CSV. */
export const GROUPS_CSV_HEADER = ['group', 'path', 'role', 'distance_to_reference'] as const;

/** Role of a document in its group. */
export type GroupRole = 'reference' | 'near-duplicate' | 'exact-duplicate';

/**
 * The groups CSV's rows as unquoted cells (header first): for each group in `order` (all groups in
 * table order when absent), its reference then its members. `identical[s] === 1` marks a member slot
 * whose text is identical to the reference's (role `exact-duplicate`; otherwise `near-duplicate`).
 * Groups are numbered g + 1, as the app shows them. An unknown distance is an empty cell.
 */
export function groupsCsvRows(
  table: GroupsCsvTable,
  paths: readonly string[],
  order?: ArrayLike<number>,
  identical?: ArrayLike<number>,
  skip?: ArrayLike<number>,
): string[][] {
  const rows: string[][] = [[...GROUPS_CSV_HEADER]];
  const n = order ? order.length : table.count;
  for (let i = 0; i < n; i++) {
    const g = order ? order[i] : i;
    const first = table.offsets[g];
    for (let s = first; s < table.offsets[g + 1]; s++) {
      if (skip?.[table.members[s]] === 1) continue; // "not a duplicate": left out
      const d = table.distanceToReference[s];
      const memberRole: GroupRole = identical?.[s] === 1 ? 'exact-duplicate' : 'near-duplicate';
      rows.push([
        String(g + 1),
        paths[table.members[s]],
        s === first ? 'reference' : memberRole,
        s === first ? '0' : d === UNKNOWN_DISTANCE ? '' : String(d),
      ]);
    }
  }
  return rows;
}

/** The complete groups CSV file: the UTF-8 BOM, then RFC 4180 records (formula-escaped, CRLF) via csv.ts's `toCsv`. */
export function groupsCsv(
  table: GroupsCsvTable,
  paths: readonly string[],
  order?: ArrayLike<number>,
  identical?: ArrayLike<number>,
  skip?: ArrayLike<number>,
): string {
  return CSV_BOM + toCsv(groupsCsvRows(table, paths, order, identical, skip));
}
