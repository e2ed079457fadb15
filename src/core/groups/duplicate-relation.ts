/**
 * Owns SimSift's one near-duplicate relation and everything a person sees of it. Two documents are
 * near-duplicates when their texts are identical (same normalized text: same exact class) or when
 * their classes' representatives are a verified pair (exact Jaccard >= the threshold). Exact copies
 * carry their class's pairs: A ~ B and B = B' give A ~ B'. The groups, the per-document neighbour
 * lists of the pair view and the pairs CSV are all derived from this relation, so none of them can
 * lose a pair the others show.
 */
import { GroupTableBuilder, UNKNOWN_DISTANCE, type GroupTable, type ScoredPairs } from './group-table.ts';

/** What the relation is built from: the scan's exact classes and its verified pairs of representatives. */
export interface RelationInput {
  /** Number of documents (ids 0..count-1). */
  count: number;
  /**
   * Per document: the document whose text stands for it (itself for a representative), or -1 when the
   * document takes no part (not fingerprinted: binary, empty, unreadable, pending).
   */
  representative: Int32Array;
  /** Verified near-duplicate pairs between representatives, a < b. */
  verified: ScoredPairs;
  /** Per document: its length in words (a longer text is the better reference on a tie). */
  lengths: ArrayLike<number>;
  /** How groups are formed (default 'reference'). */
  grouping?: 'reference' | 'components';
  /** Documents a person marked as references: chosen before any other (in this order). */
  pinned?: readonly number[];
}

/** The relation in typed arrays: exact classes, the class graph of verified pairs, groups. */
export interface DuplicateRelation {
  count: number;
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
  /**
   * Groups over documents: a reference and every document identical or near-identical to it, largest
   * group first. With 'reference' grouping each document's primary group is `groups.groupOf`; a document
   * whose near-duplicates were all taken by other groups becomes the reference of a group of its own
   * (its members then also stand in their primary group), so no pair is left without a group.
   */
  groups: GroupTable;
  /** Per member slot: 1 when the member's text is identical to its reference's. */
  identical: Uint8Array;
  /** Per group: 1 when every member is identical to the reference (an exact-duplicate group). */
  exactGroup: Uint8Array;
  /**
   * Per document: how many of its near-duplicates (identical copies included) are not in its primary
   * group. Zero for a document with none outside.
   */
  outside: Uint32Array;
  /** Number of document pairs in the relation (what the pairs CSV lists, one row each). */
  pairCount: number;
  /** Of those, pairs of identical texts. */
  identicalPairs: number;
}

/** One near-duplicate of a document, for the pair view's list. */
export interface Neighbour {
  doc: number;
  /** Hamming distance of the fingerprints (0 for identical texts; 255 unknown). */
  distance: number;
  /** Exact Jaccard (1 for identical texts; NaN when not measured). */
  jaccard: number;
  identical: boolean;
}

/** Builds the relation, its groups and the per-document counts. */
export function buildDuplicateRelation(input: RelationInput): DuplicateRelation {
  const { count: n, representative, verified } = input;
  // Exact classes: every representative with a copy or a verified pair gets one.
  const inPair = new Uint8Array(n);
  for (let p = 0; p < verified.count; p++) {
    inPair[verified.a[p]] = 1;
    inPair[verified.b[p]] = 1;
  }
  const copies = new Int32Array(n);
  for (let d = 0; d < n; d++) {
    const r = representative[d];
    if (r >= 0 && r !== d) copies[r]++;
  }
  // Classes are numbered, and their members listed, by ascending id: the head of a class is its lowest
  // id, whichever copy happened to be fingerprinted, so the same folder always gives the same groups.
  const classOf = new Int32Array(n).fill(-1);
  let classes = 0;
  for (let d = 0; d < n; d++) {
    const r = representative[d];
    if (r >= 0 && classOf[r] < 0 && (copies[r] > 0 || inPair[r])) classOf[r] = classes++;
  }
  const classOffsets = new Int32Array(classes + 1);
  for (let d = 0; d < n; d++) {
    const r = representative[d];
    if (r >= 0 && classOf[r] >= 0) classOffsets[classOf[r] + 1]++;
  }
  for (let c = 0; c < classes; c++) classOffsets[c + 1] += classOffsets[c];
  const classMembers = new Int32Array(classOffsets[classes]);
  const fill = classOffsets.slice(0, classes);
  for (let d = 0; d < n; d++) {
    const r = representative[d];
    if (r < 0 || classOf[r] < 0) continue;
    classMembers[fill[classOf[r]]++] = d;
  }
  for (let d = 0; d < n; d++) {
    const r = representative[d];
    if (r >= 0 && r !== d && classOf[r] >= 0) classOf[d] = classOf[r];
  }
  const classRep = (c: number) => classMembers[classOffsets[c]];
  const classSize = (c: number) => classOffsets[c + 1] - classOffsets[c];

  // The class graph (CSR) of the verified pairs.
  const graphOffsets = new Int32Array(classes + 1);
  for (let p = 0; p < verified.count; p++) {
    graphOffsets[classOf[verified.a[p]] + 1]++;
    graphOffsets[classOf[verified.b[p]] + 1]++;
  }
  for (let c = 0; c < classes; c++) graphOffsets[c + 1] += graphOffsets[c];
  const graphNeighbour = new Int32Array(2 * verified.count);
  const graphEdge = new Int32Array(2 * verified.count);
  const gfill = graphOffsets.slice(0, classes);
  for (let p = 0; p < verified.count; p++) {
    const ca = classOf[verified.a[p]];
    const cb = classOf[verified.b[p]];
    graphNeighbour[gfill[ca]] = cb;
    graphEdge[gfill[ca]++] = p;
    graphNeighbour[gfill[cb]] = ca;
    graphEdge[gfill[cb]++] = p;
  }

  let pairCount = 0;
  let identicalPairs = 0;
  for (let c = 0; c < classes; c++) identicalPairs += (classSize(c) * (classSize(c) - 1)) / 2;
  pairCount = identicalPairs;
  for (let p = 0; p < verified.count; p++) pairCount += classSize(classOf[verified.a[p]]) * classSize(classOf[verified.b[p]]);

  const relation = { classOf, classOffsets, classMembers, graphOffsets, graphNeighbour, graphEdge, verified };
  const built =
    input.grouping === 'components'
      ? componentGroups(n, classes, relation, input.lengths)
      : referenceGroupsOfClasses(n, classes, relation, input.lengths, input.pinned ?? []);
  const { groups, identical } = built;

  const exactGroup = new Uint8Array(groups.count);
  for (let g = 0; g < groups.count; g++) {
    let all = 1;
    for (let s = groups.offsets[g] + 1; s < groups.offsets[g + 1]; s++) if (!identical[s]) all = 0;
    exactGroup[g] = all;
  }

  // Near-duplicates outside the primary group: all relation neighbours minus those sharing the group.
  const outside = new Uint32Array(n);
  const groupOfClass = (c: number) => groups.groupOf[classRep(c)];
  for (let c = 0; c < classes; c++) {
    let out = 0;
    for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) {
      const other = graphNeighbour[s];
      if (groupOfClass(other) !== groupOfClass(c)) out += classSize(other);
    }
    // Copies share their class's group in both groupings, so only class neighbours can lie outside.
    for (let i = classOffsets[c]; i < classOffsets[c + 1]; i++) outside[classMembers[i]] = out;
  }

  return {
    count: n,
    ...relation,
    groups,
    identical,
    exactGroup,
    outside,
    pairCount,
    identicalPairs,
  };
}

/**
 * The reference rule as one number (larger wins): documents identical or near to the class first,
 * then the class's own number of copies (the text most copies share), then the text's length.
 * Degrees up to 2^20 keep the key exact in a double.
 */
function referenceKey(degree: number, copies: number, length: number): number {
  return Math.min(degree, 2 ** 20 - 1) * 2 ** 33 + Math.min(copies, 127) * 2 ** 26 + Math.min(length, 2 ** 26 - 1);
}

type ClassGraph = Pick<
  DuplicateRelation,
  'classOf' | 'classOffsets' | 'classMembers' | 'graphOffsets' | 'graphNeighbour' | 'graphEdge' | 'verified'
>;

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
function referenceGroupsOfClasses(
  n: number,
  classes: number,
  g: ClassGraph,
  lengths: ArrayLike<number>,
  pinned: readonly number[],
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
function componentGroups(n: number, classes: number, g: ClassGraph, lengths: ArrayLike<number>): { groups: GroupTable; identical: Uint8Array } {
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

/** The groups counted as the page's summary and `simsift scan` both say them. */
export interface GroupCounts {
  /** Every group (each a reference and its exact copies and near-duplicates). */
  groups: number;
  /** Groups whose members are all identical copies of the reference ("exact-duplicate groups"). */
  exactOnly: number;
  /** Groups with at least one near-duplicate that is not an identical copy ("near-duplicate groups"). */
  withNear: number;
}

/** Counts the relation's groups one way for every surface: exactOnly + withNear = groups. */
export function groupCounts(relation: Pick<DuplicateRelation, 'groups' | 'exactGroup'>): GroupCounts {
  let exactOnly = 0;
  for (let g = 0; g < relation.groups.count; g++) exactOnly += relation.exactGroup[g]!;
  return { groups: relation.groups.count, exactOnly, withNear: relation.groups.count - exactOnly };
}

/**
 * Every near-duplicate of `doc` in the relation (identical copies first, then by decreasing Jaccard),
 * for the pair view. Empty when the document is in no pair.
 */
export function neighboursOf(relation: DuplicateRelation, doc: number): Neighbour[] {
  const c = relation.classOf[doc];
  if (c < 0) return [];
  const out: Neighbour[] = [];
  const { classOffsets, classMembers, graphOffsets, graphNeighbour, graphEdge, verified } = relation;
  for (let i = classOffsets[c]; i < classOffsets[c + 1]; i++) {
    if (classMembers[i] !== doc) out.push({ doc: classMembers[i], distance: 0, jaccard: 1, identical: true });
  }
  const near: Neighbour[] = [];
  for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) {
    const o = graphNeighbour[s];
    const e = graphEdge[s];
    for (let i = classOffsets[o]; i < classOffsets[o + 1]; i++) {
      near.push({ doc: classMembers[i], distance: verified.distance[e], jaccard: verified.jaccard[e], identical: false });
    }
  }
  near.sort((x, y) => y.jaccard - x.jaccard || x.distance - y.distance || x.doc - y.doc);
  return out.concat(near);
}

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
  const { classOffsets, classMembers, graphOffsets, graphNeighbour, graphEdge, verified, groups } = relation;
  const classes = classOffsets.length - 1;
  const primary = (c: number) => groups.groupOf[classMembers[classOffsets[c]]];
  // Class-level blocks: within-class (edge -1) and verified edges; each goes to one group.
  const blockGroup: number[] = [];
  const blockA: number[] = [];
  const blockB: number[] = [];
  const blockEdge: number[] = [];
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
    if (classOffsets[c + 1] - classOffsets[c] > 1) {
      blockGroup.push(primary(c));
      blockA.push(c);
      blockB.push(c);
      blockEdge.push(-1);
    }
    for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) {
      const o = graphNeighbour[s];
      if (o < c) continue;
      const pc = primary(c);
      const po = primary(o);
      let owner: number;
      let first = c;
      let second = o;
      if (pc === po) {
        owner = pc;
        if (rank[o] < rank[c]) [first, second] = [o, c];
      } else if (leftoverRef[c]) owner = pc;
      else if (leftoverRef[o]) {
        owner = po;
        [first, second] = [o, c];
      } else if (pc < po) owner = pc;
      else {
        owner = po;
        [first, second] = [o, c];
      }
      blockGroup.push(owner);
      blockA.push(first);
      blockB.push(second);
      blockEdge.push(graphEdge[s]);
    }
  }
  const order = Array.from({ length: blockGroup.length }, (_, i) => i);
  // Computed once per block, not in every comparison of the sort (215,000 blocks: most of the walk's time).
  const outside = new Uint8Array(blockGroup.length);
  for (let i = 0; i < outside.length; i++) {
    outside[i] = (primary(blockA[i]) === blockGroup[i] && primary(blockB[i]) === blockGroup[i]) || leftoverRef[blockA[i]] ? 0 : 1;
  }
  order.sort(
    (x, y) =>
      blockGroup[x] - blockGroup[y] ||
      outside[x] - outside[y] ||
      rank[blockA[x]] - rank[blockA[y]] ||
      rank[blockB[x]] - rank[blockB[y]] ||
      blockA[x] - blockA[y] ||
      blockB[x] - blockB[y],
  );
  for (const i of order) {
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
