/** Which pairs "Export CSV" writes: each shown group's members paired with its reference, in view order. */
import type { GroupTable } from '../../core/groups/group-table.ts';

/** Pairs as parallel typed arrays (a = reference document, b = member), with their group number. */
export interface ViewPairs {
  /** 1-based group number, as the list shows it ("Group 3"). */
  group: Uint32Array;
  a: Uint32Array;
  b: Uint32Array;
  /** Hamming distance (255 = unknown). */
  distance: Uint8Array;
  /** Exact Jaccard (NaN = not computed). */
  jaccard: Float32Array;
  count: number;
}

/**
 * The pairs the view shows: for each group in `order` (the list's sort and filter), one pair per
 * non-reference member, (reference, member), with the member's distance and Jaccard to the reference.
 */
export function pairsInView(
  table: Pick<GroupTable, 'offsets' | 'members' | 'distanceToReference' | 'jaccardToReference'>,
  order: Uint32Array,
): ViewPairs {
  const { offsets, members } = table;
  let count = 0;
  for (let i = 0; i < order.length; i++) count += offsets[order[i] + 1] - offsets[order[i]] - 1;
  const out: ViewPairs = {
    group: new Uint32Array(count),
    a: new Uint32Array(count),
    b: new Uint32Array(count),
    distance: new Uint8Array(count),
    jaccard: new Float32Array(count),
    count,
  };
  let p = 0;
  for (let i = 0; i < order.length; i++) {
    const g = order[i];
    const ref = members[offsets[g]];
    for (let s = offsets[g] + 1; s < offsets[g + 1]; s++) {
      out.group[p] = g + 1;
      out.a[p] = ref;
      out.b[p] = members[s];
      out.distance[p] = table.distanceToReference[s];
      out.jaccard[p] = table.jaccardToReference[s];
      p++;
    }
  }
  return out;
}
