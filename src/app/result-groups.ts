/**
 * The groups the results view shows: the scan's near-duplicate groups (reference-centred or
 * components, as the scan or its last regroup built them) followed by its exact-duplicate groups,
 * with the components that chain.
 */
import { CHAIN_FOUND } from '../core/groups/components.ts';
import type { Grouping, ScanResult } from '../scan/scan-result.ts';
import { mergeExactGroups, type GroupView } from '../ui/groups/group-view.ts';

/** The view's settings: candidate radius k, Jaccard threshold and grouping. */
export interface GroupingParams {
  k: number;
  similarityThreshold: number;
  grouping: Grouping;
}

export interface ShownGroups {
  /** Near-duplicate groups first, then exact-duplicate groups. */
  table: GroupView;
  /** 1 where a group is an exact-duplicate group. */
  exact: Uint8Array;
  /** 1 where a group chains (components only): members linked through others, not all near-duplicates of each other. */
  chained: Uint8Array;
  chainedCount: number;
  nearGroups: number;
  exactGroups: number;
  /** Verified near-duplicate pairs between distinct texts. */
  pairs: number;
}

/** The grouping parameters a result was built with. */
export function paramsOf(result: Pick<ScanResult, 'k' | 'similarityThreshold' | 'grouping'>): GroupingParams {
  return { k: result.k, similarityThreshold: result.similarityThreshold, grouping: result.grouping };
}

/** Near-duplicate groups, then exact-duplicate groups, as one table for the list and the exports. */
export function shownGroups(result: Pick<ScanResult, 'groups' | 'exactGroups' | 'chained' | 'verified'>): ShownGroups {
  const merged = mergeExactGroups(result.groups, result.exactGroups);
  const chained = new Uint8Array(merged.table.count);
  let chainedCount = 0;
  if (result.chained) {
    for (let g = 0; g < result.chained.length; g++) {
      if (result.chained[g] === CHAIN_FOUND) {
        chained[g] = 1;
        chainedCount++;
      }
    }
  }
  return {
    table: merged.table,
    exact: merged.exact,
    chained,
    chainedCount,
    nearGroups: result.groups.count,
    exactGroups: result.exactGroups.count,
    pairs: result.verified.count,
  };
}
