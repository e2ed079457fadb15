/**
 * The groups the results view shows: the relation's groups (each a reference with its identical and
 * near-identical documents, reference-centred or components as the scan or its last regroup built
 * them), with the exact-duplicate groups and the components that chain marked.
 */
import { CHAIN_FOUND } from '../core/groups/components.ts';
import { groupCounts } from '../core/groups/duplicate-relation.ts';
import { CONTAINMENT_DEFAULT_SETTING } from '../core/groups/contained-pairs.ts';
import type { Grouping, ScanResult } from '../scan/scan-result.ts';
import type { GroupView } from '../ui/groups/group-view.ts';

/** The view's settings: candidate radius k, Jaccard threshold, grouping and the containment threshold (0: off). */
export interface GroupingParams {
  k: number;
  similarityThreshold: number;
  grouping: Grouping;
  containmentThreshold: number;
}

export interface ShownGroups {
  table: GroupView;
  /** 1 where every member of a group is identical to its reference. */
  exact: Uint8Array;
  /** Per member slot: 1 when the member's text is identical to the reference's. */
  identical: Uint8Array;
  /** 1 where a group chains (components only): members linked through others, not all near-duplicates of each other. */
  chained: Uint8Array;
  chainedCount: number;
  /** Groups with at least one near-duplicate (not only identical copies), and groups of identical copies only. */
  nearGroups: number;
  exactGroups: number;
  /** Document pairs in the relation (what Export CSV writes), and how many of them are identical texts. */
  pairs: number;
  identicalPairs: number;
}

/** The grouping parameters a result was built with. */
export function paramsOf(result: Pick<ScanResult, 'k' | 'similarityThreshold' | 'grouping' | 'containmentThreshold'>): GroupingParams {
  return { k: result.k, similarityThreshold: result.similarityThreshold, grouping: result.grouping, containmentThreshold: result.containmentThreshold ?? CONTAINMENT_DEFAULT_SETTING };
}

/** The relation's groups for the list and the exports. */
export function shownGroups(result: Pick<ScanResult, 'relation' | 'chained'>): ShownGroups {
  const { relation } = result;
  const groups = relation.groups;
  const chained = new Uint8Array(groups.count);
  let chainedCount = 0;
  if (result.chained) {
    for (let g = 0; g < result.chained.length; g++) {
      if (result.chained[g] === CHAIN_FOUND) {
        chained[g] = 1;
        chainedCount++;
      }
    }
  }
  const counts = groupCounts(relation);
  return {
    table: groups,
    exact: relation.exactGroup,
    identical: relation.identical,
    chained,
    chainedCount,
    nearGroups: counts.withNear,
    exactGroups: counts.exactOnly,
    pairs: relation.pairCount,
    identicalPairs: relation.identicalPairs,
  };
}
