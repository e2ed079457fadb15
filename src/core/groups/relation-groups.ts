/** Turns the relation's class graph into the groups a person sees: the reference rule, then largest first. */
import { GroupTableBuilder, UNKNOWN_DISTANCE, type GroupTable, type ScoredPairs } from './group-table.ts';
import type { DocId } from '../ids.ts';


/**
 * The reference rule as one number (larger wins): documents identical or near to the class first,
 * then the class's own number of copies (the text most copies share), then the text's length.
 * Degrees up to 2^20 keep the key exact in a double.
 */
function referenceKey(degree: number, copies: number, length: number): number {
  return Math.min(degree, 2 ** 20 - 1) * 2 ** 33 + Math.min(copies, 127) * 2 ** 26 + Math.min(length, 2 ** 26 - 1);
}

/** The exact classes and the class graph of verified pairs that groups are made of (a DuplicateRelation is one). */
export interface ClassGraph {
  /** Per document: its exact class, or -1 when it is in no pair at all. */
  classOf: Int32Array;
  /** Class c's documents are `classMembers[classOffsets[c] .. classOffsets[c + 1])`, ascending ids (the head is the lowest). */
  classOffsets: Int32Array;
  classMembers: Int32Array;
  /** The verified pairs of representatives the class graph's edges point into. */
  verified: ScoredPairs;
  /** Class adjacency (CSR over classes): neighbour classes and the verified pair of each edge. */
  graphOffsets: Int32Array;
  graphNeighbour: Int32Array;
  graphEdge: Int32Array;
}

/** Sorts a finished builder's groups largest first (ties: lower reference id first). */
function largestFirst(table: GroupTable, identical: Uint8Array, n: number): { groups: GroupTable; identical: Uint8Array } {
  const order = Array.from({ length: table.count }, (_, g) => g);
  const size = (g: number) => table.offsets[g + 1] - table.offsets[g];
  order.sort((x, y) => size(y) - size(x) || table.reference[x] - table.reference[y]);
  const offsets = new Int32Array(table.count + 1);
  const members = new Int32Array(table.members.length);
  const jac = new Float32Array(table.members.length);
  const dist = new Uint8Array(table.members.length);
  const ident = new Uint8Array(table.members.length);
  const reference = new Int32Array(table.count);
  const newIndex = new Int32Array(table.count);
  let w = 0;
  order.forEach((g, i) => {
    newIndex[g] = i;
    reference[i] = table.reference[g];
    for (let s = table.offsets[g]; s < table.offsets[g + 1]; s++) {
      members[w] = table.members[s];
      jac[w] = table.jaccardToReference[s];
      dist[w] = table.distanceToReference[s];
      ident[w++] = identical[s];
    }
    offsets[i + 1] = w;
  });
  const groupOf = new Int32Array(n).fill(-1);
  for (let d = 0; d < n; d++) if (table.groupOf[d] >= 0) groupOf[d] = newIndex[table.groupOf[d]];
  return {
    groups: { count: table.count, groupOf, offsets, members, reference, jaccardToReference: jac, distanceToReference: dist },
    identical: ident,
  };
}

/** Adds class `c`'s documents to the open group with the given relation to its reference. */
function addClass(builder: GroupTableBuilder, identical: number[], g: ClassGraph, c: number, jaccard: number, distance: number, skipFirst: boolean) {
  for (let i = g.classOffsets[c] + (skipFirst ? 1 : 0); i < g.classOffsets[c + 1]; i++) {
    builder.add(g.classMembers[i], jaccard, distance);
    identical.push(jaccard === 1 && distance === 0 && skipFirst ? 1 : 0);
  }
}

/**
 * Reference-centred groups over exact classes. The reference rule, meant to pick the document a person
 * would keep: pinned documents first; then the class that most other documents are identical or near
 * to (its ungrouped near-duplicates and copies, counted as documents); then the text with the most
 * copies; then the longest text; then the lowest id. Its group takes the reference's copies and every still-ungrouped neighbour class whole.
 * A class left over with neighbours (all taken by other groups) becomes the reference of a group of
 * its neighbours, so every pair of the relation lies in some group or between two.
 */
export function referenceGroupsOfClasses(
  n: number,
  classes: number,
  g: ClassGraph,
  lengths: ArrayLike<number>,
  pinned: readonly DocId[],
): { groups: GroupTable; identical: Uint8Array } {
  const { classOffsets, classMembers, graphOffsets, graphNeighbour, graphEdge, verified } = g;
  const size = (c: number) => classOffsets[c + 1] - classOffsets[c];
  const assigned = new Uint8Array(classes);
  const builder = new GroupTableBuilder(n);
  const identical: number[] = [];
  const open = (c: number) => {
    const ref = classMembers[classOffsets[c]];
    builder.open(ref);
    identical.push(0);
    addClass(builder, identical, g, c, 1, 0, true);
  };
  const takeGroup = (c: number, onlyUngrouped: boolean) => {
    assigned[c] = 1;
    open(c);
    const slots: number[] = [];
    for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) if (!onlyUngrouped || !assigned[graphNeighbour[s]]) slots.push(s);
    // Members by decreasing Jaccard to the reference, then by id.
    slots.sort((x, y) => verified.jaccard[graphEdge[y]] - verified.jaccard[graphEdge[x]] || graphNeighbour[x] - graphNeighbour[y]);
    for (const s of slots) {
      const other = graphNeighbour[s];
      if (onlyUngrouped) assigned[other] = 1;
      const e = graphEdge[s];
      addClass(builder, identical, g, other, verified.jaccard[e], verified.distance[e], false);
    }
    builder.close();
  };
  const ungroupedDegree = (c: number) => {
    let degree = size(c) - 1;
    for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) if (!assigned[graphNeighbour[s]]) degree += size(graphNeighbour[s]);
    return degree;
  };

  const classOfDoc = g.classOf;
  for (const doc of pinned) {
    const c = doc >= 0 && doc < n ? classOfDoc[doc] : -1;
    if (c < 0 || assigned[c]) continue;
    takeGroup(c, true);
  }

  // Greedy by (ungrouped degree, copies, length, -id) with a lazy max-heap: degrees only fall.
  const priority = (c: number, degree: number) => referenceKey(degree, size(c), lengths[classMembers[classOffsets[c]]] ?? 0);
  const heap = new ClassHeap(classes);
  for (let c = 0; c < classes; c++) if (!assigned[c]) heap.push(priority(c, ungroupedDegree(c)), c);
  while (heap.size > 0) {
    const key = heap.topKey();
    const c = heap.pop();
    if (assigned[c]) continue;
    const degree = ungroupedDegree(c);
    if (degree === 0) continue;
    const current = priority(c, degree);
    if (current !== key) {
      heap.push(current, c);
      continue;
    }
    takeGroup(c, true);
  }
  // Leftovers: classes with near-duplicates that all went to other groups (never neighbours of each other).
  for (let c = 0; c < classes; c++) if (!assigned[c]) takeGroup(c, false);
  // Leftover groups' members already have a primary group: restore it (the builder overwrote it).
  const table = builder.build();
  const firstGroup = new Int32Array(n).fill(-1);
  for (let grp = 0; grp < table.count; grp++) {
    for (let s = table.offsets[grp]; s < table.offsets[grp + 1]; s++) if (firstGroup[table.members[s]] < 0) firstGroup[table.members[s]] = grp;
  }
  table.groupOf.set(firstGroup);
  return largestFirst(table, Uint8Array.from(identical), n);
}

/** Connected components of the class graph, each expanded to its documents; reference by the same rule. */
export function componentGroups(n: number, classes: number, g: ClassGraph, lengths: ArrayLike<number>): { groups: GroupTable; identical: Uint8Array } {
  const { classOffsets, classMembers, graphOffsets, graphNeighbour, graphEdge, verified } = g;
  const size = (c: number) => classOffsets[c + 1] - classOffsets[c];
  const seen = new Uint8Array(classes);
  const builder = new GroupTableBuilder(n);
  const identical: number[] = [];
  const stack: number[] = [];
  const toRef = new Int32Array(classes).fill(-1);
  for (let start = 0; start < classes; start++) {
    if (seen[start]) continue;
    const component: number[] = [];
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const c = stack.pop()!;
      component.push(c);
      for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) {
        const o = graphNeighbour[s];
        if (!seen[o]) {
          seen[o] = 1;
          stack.push(o);
        }
      }
    }
    component.sort((x, y) => x - y);
    let ref = component[0];
    let best = -1;
    for (const c of component) {
      let degree = size(c) - 1;
      for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) degree += size(graphNeighbour[s]);
      const key = referenceKey(degree, size(c), lengths[classMembers[classOffsets[c]]] ?? 0);
      if (key > best) {
        best = key;
        ref = c;
      }
    }
    for (let s = graphOffsets[ref]; s < graphOffsets[ref + 1]; s++) toRef[graphNeighbour[s]] = graphEdge[s];
    builder.open(classMembers[classOffsets[ref]]);
    identical.push(0);
    addClass(builder, identical, g, ref, 1, 0, true);
    for (const c of component) {
      if (c === ref) continue;
      const e = toRef[c];
      // Not a near-duplicate of the reference itself: linked through others (chaining is checked later).
      if (e >= 0) addClass(builder, identical, g, c, verified.jaccard[e], verified.distance[e], false);
      else addClass(builder, identical, g, c, Number.NaN, UNKNOWN_DISTANCE, false);
    }
    for (let s = graphOffsets[ref]; s < graphOffsets[ref + 1]; s++) toRef[graphNeighbour[s]] = -1;
    builder.close();
  }
  return largestFirst(builder.build(), Uint8Array.from(identical), n);
}

/** A binary max-heap of (key, class) on typed arrays; equal keys pop the lower class first. */
class ClassHeap {
  private keys: Float64Array;
  private ids: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.ids = new Int32Array(Math.max(16, capacity));
  }

  private before(i: number, j: number): boolean {
    return this.keys[i] > this.keys[j] || (this.keys[i] === this.keys[j] && this.ids[i] < this.ids[j]);
  }

  private swap(i: number, j: number): void {
    const k = this.keys[i];
    this.keys[i] = this.keys[j];
    this.keys[j] = k;
    const d = this.ids[i];
    this.ids[i] = this.ids[j];
    this.ids[j] = d;
  }

  push(key: number, id: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const ids = new Int32Array(this.size * 2);
      ids.set(this.ids);
      this.ids = ids;
    }
    let i = this.size++;
    this.keys[i] = key;
    this.ids[i] = id;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  topKey(): number {
    return this.keys[0];
  }

  pop(): number {
    const top = this.ids[0];
    this.size--;
    if (this.size > 0) {
      this.keys[0] = this.keys[this.size];
      this.ids[0] = this.ids[this.size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < this.size && this.before(l, best)) best = l;
        if (r < this.size && this.before(r, best)) best = r;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top;
  }
}
