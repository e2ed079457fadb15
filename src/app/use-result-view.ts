/** The results workspace's view state: the grouping the person asked for last, and the open pair. */
import { useMemo, useState } from 'react';
import type { ScanResult } from '../scan/scan-result.ts';
import { paramsOf, type GroupingParams, type ShownGroups } from './result-groups.ts';
import type { DocId } from '../core/ids.ts';

/**
 * What the user asked for last: the controls follow it at once, the groups when the regroup lands (a
 * new result resets it to that result's parameters). `regroup` records it and asks `onRegroup`.
 */
export function useRequestedParams(result: ScanResult, onRegroup: (params: GroupingParams) => void) {
  const [requested, setRequested] = useState<GroupingParams>(() => paramsOf(result));
  const [requestedFor, setRequestedFor] = useState(result);
  if (requestedFor !== result) {
    setRequestedFor(result);
    setRequested(paramsOf(result));
  }
  const regroup = (next: GroupingParams) => {
    setRequested(next);
    onRegroup(next);
  };
  return { requested, regroup };
}

/** The list row of member `b` in the group whose reference is `a` (the open pair's row), or null. */
function slotOf(table: ShownGroups['table'], a: number, b: number): number | null {
  for (let g = 0; g < table.count; g++) {
    if (table.members[table.offsets[g]] !== a) continue;
    for (let s = table.offsets[g] + 1; s < table.offsets[g + 1]; s++) if (table.members[s] === b) return s;
  }
  return null;
}

/**
 * The open pair, as two documents: from a group row (reference, member) or from a document's list of
 * near-duplicates. It stays open through regroups and saves (the documents are the same); a scan of
 * other documents closes it. `selectedSlot` is its row in `table`, if it is a group's row.
 */
/** The open pair's documents: a (the one opened from) and b (whose neighbours are listed). */
export interface OpenPairIds {
  a: DocId;
  b: DocId;
}

export function useOpenPair(docs: ScanResult['docs'], table: ShownGroups['table']) {
  const [selected, setSelected] = useState<OpenPairIds | null>(null);
  const [selectionDocs, setSelectionDocs] = useState(docs);
  if (selectionDocs !== docs && selectionDocs.paths !== docs.paths) {
    setSelectionDocs(docs);
    setSelected(null);
  }
  const selectedSlot = useMemo(() => (selected === null ? null : slotOf(table, selected.a, selected.b)), [table, selected]);
  return { selected, setSelected, selectedSlot };
}
