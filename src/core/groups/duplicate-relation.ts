/**
 * Owns SimSift's one near-duplicate relation and everything a person sees of it. Two documents are
 * near-duplicates when their texts are identical (same normalized text: same exact class) or when
 * their classes' representatives are a verified pair (exact Jaccard >= the threshold). Exact copies
 * carry their class's pairs: A ~ B and B = B' give A ~ B'. The groups, the per-document neighbour
 * lists of the pair view and the pairs CSV are all derived from this relation, so none of them can
 * lose a pair the others show.
 */
import type { GroupTable, ScoredPairs } from './group-table.ts';
import { componentGroups, referenceGroupsOfClasses, type ClassGraph } from './relation-groups.ts';
import { spliceGroups, type PreviousGroups } from './relation-splice.ts';
import type { DocId } from '../ids.ts';

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
  pinned?: readonly DocId[];
  /**
   * The groups a saved corpus had, at these positions, and the documents a change touched: only the
   * touched components are grouped again (relation-splice.ts); the groups are the same either way.
   */
  previous?: PreviousGroups;
}

/** The relation in typed arrays: exact classes, the class graph of verified pairs, groups. */
export interface DuplicateRelation extends ClassGraph {
  count: number;
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
  doc: DocId;
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
  const grouping = input.grouping ?? 'reference';
  const built = input.previous
    ? spliceGroups(n, classes, relation, input.lengths, grouping, input.pinned ?? [], input.previous)
    : grouping === 'components'
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
    if (classMembers[i] !== doc) out.push({ doc: classMembers[i] as DocId, distance: 0, jaccard: 1, identical: true });
  }
  const near: Neighbour[] = [];
  for (let s = graphOffsets[c]; s < graphOffsets[c + 1]; s++) {
    const o = graphNeighbour[s];
    const e = graphEdge[s];
    for (let i = classOffsets[o]; i < classOffsets[o + 1]; i++) {
      near.push({ doc: classMembers[i] as DocId, distance: verified.distance[e], jaccard: verified.jaccard[e], identical: false });
    }
  }
  near.sort((x, y) => y.jaccard - x.jaccard || x.distance - y.distance || x.doc - y.doc);
  return out.concat(near);
}
