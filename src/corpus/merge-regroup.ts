/**
 * What a merge hands the grouping so that only the components its changes touch are grouped again
 * (core/groups/relation-splice.ts): the saved corpus's groups at merged positions, and the documents
 * that are new or changed.
 */
import { previousGroupsAt, type PreviousGroups } from '../core/groups/relation-splice.ts';
import type { GroupingOptions } from './restore-corpus.ts';
import type { ScanResult } from '../scan/scan-result.ts';

/** What of the saved corpus's result the splice reads (merge-corpus.ts SavedResult has it). */
export type SavedGrouped = Pick<ScanResult, 'representative' | 'verified'> & Partial<Pick<ScanResult, 'grouping'>> & { relation?: Pick<ScanResult['relation'], 'groups' | 'identical'> };

/**
 * The saved groups a merge may keep, or undefined when every component must be grouped again: the
 * saved pairs were decided under other settings (`carried` false), the saved corpus was grouped
 * another way or has no groups, or the person's references were chosen anew. `ownTo`: each new
 * document's merged position (-1: left out, the saved one stands for it).
 */
export function savedGroupsAt(before: { result: SavedGrouped }, savedTo: Int32Array, ownTo: Int32Array, count: number, options: GroupingOptions, carried: boolean): PreviousGroups | undefined {
  const { relation, grouping } = before.result;
  if (!carried || !relation || grouping !== options.grouping || options.pinned !== undefined) return undefined;
  const touched = new Uint8Array(count);
  for (let d = 0; d < ownTo.length; d++) if (ownTo[d]! >= 0) touched[ownTo[d]!] = 1;
  const r = before.result;
  return previousGroupsAt({ representative: r.representative, verified: r.verified, groups: relation.groups, identical: relation.identical }, savedTo, touched);
}

/**
 * The saved corpus's exact classes at merged positions (`savedTo`), labelled by their saved
 * representative, -1 for the documents the scan brought: the merge places only those by hash
 * (core/groups/exact-groups.ts groupExactKnown) instead of grouping the whole corpus again.
 */
export function savedClassesAt(before: { result: Pick<ScanResult, 'representative'> }, savedTo: Int32Array, count: number): { label: Int32Array; labels: number } {
  const label = new Int32Array(count).fill(-1);
  const representative = before.result.representative;
  for (let q = 0; q < savedTo.length; q++) if (savedTo[q]! >= 0 && representative[q]! >= 0) label[savedTo[q]!] = representative[q]!;
  return { label, labels: savedTo.length };
}
