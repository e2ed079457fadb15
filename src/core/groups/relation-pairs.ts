/** Walks the one near-duplicate relation pair by pair, in export order, for the pairs CSV and the CLI. */
import type { DuplicateRelation } from './duplicate-relation.ts';
import { sortByKeys } from '../sort/key-sort.ts';

/**
 * The relation's pairs in export order, one callback per pair (each pair exactly once): the pairs a
 * group holds, group by group (largest first), the group's reference class first; then each pair
 * between two groups, listed with the group of the lower number. `group` is 1-based. Runs in
 * O(pairs); no per-pair allocation, so 499,500 pairs of 1,000 identical files stream in one pass.
 */
export function forEachRelationPair(relation: DuplicateRelation, each: RelationPairSink): void {
  for (const _ of walkRelationPairs(relation, each, Infinity));
}

/** Receives one pair of the relation (group 1-based). */
export type RelationPairSink = (group: number, a: number, b: number, distance: number, jaccard: number) => void;

/**
 * `forEachRelationPair` as a generator that pauses after every `pauseEvery` pairs, so a consumer can
 * hand out a chunk (or yield to the event loop) in the middle of a large exact class.
 */
export function* walkRelationPairs(relation: DuplicateRelation, each: RelationPairSink, pauseEvery: number): Generator<void> {
  let sinceYield = 0;
  const { classOffsets, classMembers, verified } = relation;
  const { order, blockGroup, blockA, blockB, blockEdge } = exportBlocks(relation);
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const group = blockGroup[i] + 1;
    const ca = blockA[i];
    const cb = blockB[i];
    const e = blockEdge[i];
    if (e < 0) {
      for (let x = classOffsets[ca]; x < classOffsets[ca + 1]; x++) {
        for (let y = x + 1; y < classOffsets[ca + 1]; y++) {
          each(group, classMembers[x], classMembers[y], 0, 1);
          if (++sinceYield >= pauseEvery) {
            sinceYield = 0;
            yield;
          }
        }
      }
    } else {
      const distance = verified.distance[e];
      const jaccard = verified.jaccard[e];
      for (let x = classOffsets[ca]; x < classOffsets[ca + 1]; x++) {
        for (let y = classOffsets[cb]; y < classOffsets[cb + 1]; y++) {
          each(group, classMembers[x], classMembers[y], distance, jaccard);
          if (++sinceYield >= pauseEvery) {
            sinceYield = 0;
            yield;
          }
        }
      }
    }
  }
}

/** The relation's class-level blocks (a class with itself: edge -1, or a verified edge between two classes) and their export order. */
interface ExportBlocks {
  order: Uint32Array;
  blockGroup: Int32Array;
  blockA: Uint32Array;
  blockB: Uint32Array;
  blockEdge: Int32Array;
}

/**
 * The blocks the walk emits, each given to one group, in export order. A plain function, not part of
 * the generator: it runs once per export over every class and edge, and V8 optimizes a plain loop
 * sooner; the swaps are written out (a destructuring swap builds an array until then).
 */
function exportBlocks(relation: DuplicateRelation): ExportBlocks {
  const { classOffsets, classMembers, graphOffsets, graphNeighbour, graphEdge, groups } = relation;
  const classes = classOffsets.length - 1;
  // Each class's group (that of its first document), looked up once: the walk below asks it about four times per pair.
  const primaryOf = new Int32Array(classes);
  for (let c = 0; c < classes; c++) primaryOf[c] = groups.groupOf[classMembers[classOffsets[c]]];
  const primary = (c: number) => primaryOf[c];
  // Class-level blocks: within-class (edge -1) and verified edges; each goes to one group. Typed
  // columns of the most there can be (number arrays grown block by block cost a tenth of a second at 200,000).
  const cap = classes + graphOffsets[classes];
  const blockGroup = new Int32Array(cap);
  const blockA = new Uint32Array(cap);
  const blockB = new Uint32Array(cap);
  const blockEdge = new Int32Array(cap);
  let blocks = 0;
  const push = (group: number, a: number, b: number, edge: number) => {
    blockGroup[blocks] = group;
    blockA[blocks] = a;
    blockB[blocks] = b;
    blockEdge[blocks++] = edge;
  };
  const rank = new Int32Array(classes); // position of a class in its primary group (slot of its first document)
  const leftoverRef = new Uint8Array(classes); // reference of a group that is not its members' primary group
  for (let grp = 0; grp < groups.count; grp++) {
    for (let s = groups.offsets[grp]; s < groups.offsets[grp + 1]; s++) {
      const d = groups.members[s];
      const c = relation.classOf[d];
      if (classMembers[classOffsets[c]] === d && groups.groupOf[d] === grp) rank[c] = s - groups.offsets[grp];
    }
    const ref = groups.reference[grp];
    const rc = relation.classOf[ref];
    const s1 = groups.offsets[grp] + 1;
    if (s1 < groups.offsets[grp + 1] && groups.groupOf[groups.members[s1]] !== grp) leftoverRef[rc] = 1;
  }
  for (let c = 0; c < classes; c++) {
    if (classOffsets[c + 1] - classOffsets[c] > 1) push(primary(c), c, c, -1);
    for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) {
      const o = graphNeighbour[s];
      if (o < c) continue;
      const pc = primary(c);
      const po = primary(o);
      // The owner group, and whether the pair is listed the other way round (o first).
      let owner: number;
      let swap = false;
      if (pc === po) {
        owner = pc;
        swap = rank[o] < rank[c];
      } else if (leftoverRef[c]) owner = pc;
      else if (leftoverRef[o]) {
        owner = po;
        swap = true;
      } else if (pc < po) owner = pc;
      else {
        owner = po;
        swap = true;
      }
      push(owner, swap ? o : c, swap ? c : o, graphEdge[s]);
    }
  }
  // Which blocks lie outside their owner's own members, and each side's rank, once per block.
  const outside = new Uint8Array(blocks);
  const rankA = new Uint32Array(blocks);
  const rankB = new Uint32Array(blocks);
  const groupKey = new Uint32Array(blocks);
  for (let i = 0; i < blocks; i++) {
    groupKey[i] = blockGroup[i] + 1; // a block outside every group (-1) sorts first, as it did by subtraction
    outside[i] = (primary(blockA[i]) === blockGroup[i] && primary(blockB[i]) === blockGroup[i]) || leftoverRef[blockA[i]] ? 0 : 1;
    rankA[i] = rank[blockA[i]];
    rankB[i] = rank[blockB[i]];
  }
  // Group by a counting sort; then, within each group's few blocks, outside, the two ranks and the two
  // classes (a pair of classes is one block, so the order is total). Six counting passes over every
  // block cost more than the small sorts.
  const order = sortByKeys(blocks, [groupKey], [groups.count + 1]);
  const byRest = (x: number, y: number) => outside[x] - outside[y] || rankA[x] - rankA[y] || rankB[x] - rankB[y] || blockA[x] - blockA[y] || blockB[x] - blockB[y];
  for (let start = 0; start < blocks; ) {
    let end = start + 1;
    while (end < blocks && groupKey[order[end]] === groupKey[order[start]]) end++;
    if (end - start > 1) order.subarray(start, end).sort(byRest);
    start = end;
  }
  return { order, blockGroup, blockA, blockB, blockEdge };
}
