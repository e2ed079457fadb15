/** The CSV text of what the group list shows: its pairs (the core's pairs CSV) and its groups. */
import { pairsCsv } from '../../core/export/csv.ts';
import { groupsCsv } from '../../core/export/groups-csv.ts';
import type { GroupTable } from '../../core/groups/group-table.ts';
import { pairsInView } from './pairs-in-view.ts';

/** The parts of the core's GroupTable the exports read. */
export type ExportGroups = Pick<GroupTable, 'count' | 'offsets' | 'members' | 'distanceToReference' | 'jaccardToReference'>;

/** Pairs CSV (`group,path_a,path_b,distance,similarity_estimate,jaccard`) of the groups in `order`. */
export function viewPairsCsv(table: ExportGroups, paths: readonly string[], order: Uint32Array): string {
  return pairsCsv(pairsInView(table, order), paths);
}

/** Groups CSV (`group,path,role,distance_to_reference`) of the groups in `order`. */
export function viewGroupsCsv(
  table: ExportGroups,
  paths: readonly string[],
  order: Uint32Array,
  exact?: Uint8Array,
): string {
  return groupsCsv(table, paths, order, exact);
}

/** Number of pairs the view shows (members other than references in the shown groups). */
export function pairCountInView(table: Pick<GroupTable, 'offsets'>, order: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < order.length; i++) n += table.offsets[order[i] + 1] - table.offsets[order[i]] - 1;
  return n;
}
