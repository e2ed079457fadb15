/**
 * Owns grouping again only what a change touched. Both groupings decide each connected component of
 * the class graph alone (the reference rule's greedy order and its leftovers never look across
 * components), so after a merge into a saved corpus the groups of every component that no new,
 * changed or removed document touches are the saved ones: only the touched components are grouped,
 * and the two lists are spliced in the groups' one order (largest first, then lower reference).
 */
import type { GroupTable } from './group-table.ts';
import { componentGroups, referenceGroupsOfClasses, type ClassGraph } from './relation-groups.ts';
import type { DocId } from '../ids.ts';

/** The saved relation's groups at a merged corpus's positions, and the documents a change touched. */
export interface PreviousGroups {
  /** The saved groups whose members are all still there, at merged positions (groupOf over the merged documents). */
  groups: GroupTable;
  /** Per member slot of `groups`: 1 when the member's text is identical to its reference's. */
  identical: Uint8Array;
  /** Per merged document: 1 when its component must be grouped again. */
  touched: Uint8Array;
}

/** What the saved corpus knew: its exact classes, verified pairs and groups, at its own positions. */
export interface SavedGrouping {
  representative: Int32Array;
  verified: { a: Uint32Array; b: Uint32Array; count: number };
  groups: GroupTable;
  identical: Uint8Array;
}

/**
 * The saved groups at merged positions (`savedTo[q]`: saved position q's merged position, -1 when it
 * left), with `touched` (merged positions of the new and changed documents, marked by the caller) also
 * marking every kept document whose component may have changed: the class mates and verified partners
 * of a document that left (each piece of a component it held contains one of them), and the members of
 * a saved group that lost one.
 */
export function previousGroupsAt(saved: SavedGrouping, savedTo: Int32Array, touched: Uint8Array): PreviousGroups {
  const { representative, verified, groups } = saved;
  const count = touched.length;
  const gone = (q: number) => savedTo[q]! < 0;
  const classHit = new Uint8Array(representative.length);
  for (let q = 0; q < representative.length; q++) if (gone(q) && representative[q]! >= 0) classHit[representative[q]!] = 1;
  for (let q = 0; q < representative.length; q++) if (!gone(q) && representative[q]! >= 0 && classHit[representative[q]!]) touched[savedTo[q]!] = 1;
  for (let p = 0; p < verified.count; p++) {
    const a = verified.a[p]!;
    const b = verified.b[p]!;
    if (gone(a) && !gone(b)) touched[savedTo[b]!] = 1;
    if (gone(b) && !gone(a)) touched[savedTo[a]!] = 1;
  }
  const kept: number[] = [];
  for (let g = 0; g < groups.count; g++) {
    let whole = true;
    for (let s = groups.offsets[g]!; s < groups.offsets[g + 1]! && whole; s++) whole = !gone(groups.members[s]!);
    if (whole) kept.push(g);
    else for (let s = groups.offsets[g]!; s < groups.offsets[g + 1]!; s++) if (!gone(groups.members[s]!)) touched[savedTo[groups.members[s]!]!] = 1;
  }
  const table = packGroups(count, kept.map((g): GroupPick => [groups, saved.identical, g]), savedTo);
  return { groups: table.groups, identical: table.identical, touched };
}

/** Per class: its connected component in the class graph (components numbered from 0). */
function classComponents(classes: number, g: ClassGraph): Int32Array {
  const comp = new Int32Array(classes).fill(-1);
  const stack = new Int32Array(classes);
  let next = 0;
  for (let start = 0; start < classes; start++) {
    if (comp[start]! >= 0) continue;
    let top = 0;
    stack[top++] = start;
    comp[start] = next;
    while (top > 0) {
      const c = stack[--top]!;
      for (let s = g.graphOffsets[c]!; s < g.graphOffsets[c + 1]!; s++) {
        const o = g.graphNeighbour[s]!;
        if (comp[o]! < 0) {
          comp[o] = next;
          stack[top++] = o;
        }
      }
    }
    next++;
  }
  return comp;
}

/**
 * Which components must be grouped again: those holding a touched document or one the saved groups do
 * not hold, and those whose saved groups do not lie wholly inside them (so a stale caller cannot splice
 * a group that no longer fits). `keep[g]`: previous group g stands.
 */
function touchedComponents(n: number, classes: number, g: ClassGraph, comp: Int32Array, previous: PreviousGroups): { again: Uint8Array; keep: Uint8Array } {
  const again = new Uint8Array(classes);
  const { groups, touched } = previous;
  for (let c = 0; c < classes; c++) {
    for (let i = g.classOffsets[c]!; i < g.classOffsets[c + 1]!; i++) {
      const d = g.classMembers[i]!;
      if (touched[d] || groups.groupOf[d]! < 0) again[comp[c]!] = 1;
    }
  }
  const compOfDoc = (d: number) => (d >= 0 && d < n && g.classOf[d]! >= 0 ? comp[g.classOf[d]!]! : -1);
  for (let pg = 0; pg < groups.count; pg++) {
    const k = compOfDoc(groups.reference[pg]!);
    for (let s = groups.offsets[pg]!; s < groups.offsets[pg + 1]!; s++) {
      const m = compOfDoc(groups.members[s]!);
      if (m === k && k >= 0) continue;
      if (k >= 0) again[k] = 1;
      if (m >= 0) again[m] = 1;
    }
  }
  const keep = new Uint8Array(groups.count);
  for (let pg = 0; pg < groups.count; pg++) {
    const k = compOfDoc(groups.reference[pg]!);
    keep[pg] = k >= 0 && !again[k] ? 1 : 0;
  }
  return { again, keep };
}

/** The class graph cut down to the classes `take` marks, renumbered in their order (edges still index `g.verified`). */
function subGraph(n: number, classes: number, g: ClassGraph, take: (c: number) => boolean): { graph: ClassGraph; classes: number } {
  const index = new Int32Array(classes).fill(-1);
  let m = 0;
  let memberCount = 0;
  let slotCount = 0;
  for (let c = 0; c < classes; c++) {
    if (!take(c)) continue;
    index[c] = m++;
    memberCount += g.classOffsets[c + 1]! - g.classOffsets[c]!;
    slotCount += g.graphOffsets[c + 1]! - g.graphOffsets[c]!;
  }
  const classOf = new Int32Array(n).fill(-1);
  const classOffsets = new Int32Array(m + 1);
  const classMembers = new Int32Array(memberCount);
  const graphOffsets = new Int32Array(m + 1);
  const graphNeighbour = new Int32Array(slotCount);
  const graphEdge = new Int32Array(slotCount);
  let w = 0;
  let e = 0;
  for (let c = 0; c < classes; c++) {
    const i = index[c]!;
    if (i < 0) continue;
    for (let s = g.classOffsets[c]!; s < g.classOffsets[c + 1]!; s++) {
      classOf[g.classMembers[s]!] = i;
      classMembers[w++] = g.classMembers[s]!;
    }
    classOffsets[i + 1] = w;
    for (let s = g.graphOffsets[c]!; s < g.graphOffsets[c + 1]!; s++) {
      graphNeighbour[e] = index[g.graphNeighbour[s]!]!;
      graphEdge[e++] = g.graphEdge[s]!;
    }
    graphOffsets[i + 1] = e;
  }
  return { graph: { classOf, classOffsets, classMembers, graphOffsets, graphNeighbour, graphEdge, verified: g.verified }, classes: m };
}

/**
 * The groups `referenceGroupsOfClasses` or `componentGroups` would make of the whole class graph, made
 * by grouping only the components `previous` does not stand for and splicing in the saved groups of
 * the others.
 */
export function spliceGroups(
  n: number,
  classes: number,
  g: ClassGraph,
  lengths: ArrayLike<number>,
  grouping: 'reference' | 'components',
  pinned: readonly DocId[],
  previous: PreviousGroups,
): { groups: GroupTable; identical: Uint8Array } {
  const comp = classComponents(classes, g);
  const { again, keep } = touchedComponents(n, classes, g, comp, previous);
  const sub = subGraph(n, classes, g, (c) => again[comp[c]!] === 1);
  const fresh = grouping === 'components' ? componentGroups(n, sub.classes, sub.graph, lengths) : referenceGroupsOfClasses(n, sub.classes, sub.graph, lengths, pinned);
  // One list in the groups' order: larger first, then the lower reference (references are distinct).
  const old = previous.groups;
  const size = (t: GroupTable, i: number) => t.offsets[i + 1]! - t.offsets[i]!;
  const entries: number[] = [];
  for (let pg = 0; pg < old.count; pg++) if (keep[pg]) entries.push(-1 - pg);
  for (let fg = 0; fg < fresh.groups.count; fg++) entries.push(fg);
  const sizeOf = (e: number) => (e < 0 ? size(old, -1 - e) : size(fresh.groups, e));
  const refOf = (e: number) => (e < 0 ? old.reference[-1 - e]! : fresh.groups.reference[e]!);
  entries.sort((x, y) => sizeOf(y) - sizeOf(x) || refOf(x) - refOf(y));
  return packGroups(n, entries.map((e): GroupPick => (e < 0 ? [old, previous.identical, -1 - e] : [fresh.groups, fresh.identical, e])));
}

/** One group of a table: the table, its identical flags, the group. */
type GroupPick = [GroupTable, Uint8Array, number];

/**
 * The picked groups, in order, as one table over `n` documents, members mapped through `at` (none: as
 * they are); each document keeps the primary group its own table gave it (the reference rule's leftover
 * groups hold members whose primary group is another).
 */
function packGroups(n: number, picks: readonly GroupPick[], at?: ArrayLike<number>): { groups: GroupTable; identical: Uint8Array } {
  let slots = 0;
  for (const [t, , g] of picks) slots += t.offsets[g + 1]! - t.offsets[g]!;
  const offsets = new Int32Array(picks.length + 1);
  const members = new Int32Array(slots);
  const jaccard = new Float32Array(slots);
  const distance = new Uint8Array(slots);
  const identical = new Uint8Array(slots);
  const reference = new Int32Array(picks.length);
  const groupOf = new Int32Array(n).fill(-1);
  const to = (d: number) => (at ? at[d]! : d);
  let w = 0;
  picks.forEach(([t, ident, g], i) => {
    reference[i] = to(t.reference[g]!);
    for (let s = t.offsets[g]!; s < t.offsets[g + 1]!; s++) {
      const d = t.members[s]!;
      members[w] = to(d);
      jaccard[w] = t.jaccardToReference[s]!;
      distance[w] = t.distanceToReference[s]!;
      identical[w++] = ident[s]!;
      if (t.groupOf[d] === g) groupOf[to(d)] = i;
    }
    offsets[i + 1] = w;
  });
  return { groups: { count: picks.length, groupOf, offsets, members, reference, jaccardToReference: jaccard, distanceToReference: distance }, identical };
}
