/** The CSV files the export buttons save: every pair of the relation, and the groups the list shows. */
import { relationCsvChunks } from '../../core/export/csv.ts';
import { groupsCsv } from '../../core/export/groups-csv.ts';
import type { DuplicateRelation } from '../../core/groups/duplicate-relation.ts';
import type { GroupTable } from '../../core/groups/group-table.ts';

/** The parts of the core's GroupTable the groups export reads. */
export type ExportGroups = Pick<GroupTable, 'count' | 'offsets' | 'members' | 'distanceToReference'>;

/** Slice of main-thread time the pairs export may take before it lets the page paint and respond. */
const SLICE_MS = 12;

/**
 * The pairs CSV (`group,path_a,path_b,distance,similarity_estimate,jaccard`) of the whole relation,
 * as chunks for a Blob: the same bytes as `simsift scan`. Built in time slices so a relation of
 * millions of pairs never freezes the tab.
 */
export async function relationCsvParts(relation: DuplicateRelation, paths: readonly string[]): Promise<string[]> {
  const parts: string[] = [];
  let sliceStart = performance.now();
  for (const chunk of relationCsvChunks(relation, paths)) {
    parts.push(chunk);
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
  return parts;
}

/** Groups CSV (`group,path,role,distance_to_reference`) of the groups in `order`. */
export function viewGroupsCsv(table: ExportGroups, paths: readonly string[], order: Uint32Array, identical?: Uint8Array): string {
  return groupsCsv(table, paths, order, identical);
}
