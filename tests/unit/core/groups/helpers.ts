import type { GroupTable, ScoredPairs } from '../../../../src/core/groups/group-table.ts';

/** Verified pairs from [a, b, jaccard] triples (distance = 3 for all). */
export function scored(list: Array<[number, number, number]>): ScoredPairs {
  return {
    a: Uint32Array.from(list, (p) => Math.min(p[0], p[1])),
    b: Uint32Array.from(list, (p) => Math.max(p[0], p[1])),
    distance: new Uint8Array(list.length).fill(3),
    jaccard: Float32Array.from(list, (p) => p[2]),
    count: list.length,
  };
}

/** The groups as arrays of member ids, reference first. */
export function groupsOf(t: GroupTable): number[][] {
  const out: number[][] = [];
  for (let g = 0; g < t.count; g++) out.push([...t.members.subarray(t.offsets[g], t.offsets[g + 1])]);
  return out;
}
