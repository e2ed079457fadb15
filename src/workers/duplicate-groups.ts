/**
 * Pure grouping over typed arrays, run inside the index worker: exact-duplicate groups from content
 * hashes (picking one representative per distinct text) and connected components of near pairs
 * (union-find with path halving). No objects per document or per pair.
 */
import type { PairList } from '../core/index/pair-list.ts';

/** Groups in compressed form: group g's members are `members[start[g] .. start[g + 1])`. */
export interface GroupArrays {
  start: Uint32Array;
  members: Uint32Array;
  count: number;
}

/** Exact-duplicate grouping of the docs where `include[i]` is non-zero. */
export interface ExactGrouping {
  /** Per doc: the lowest doc id with the same hash, or -1 when not included. */
  representative: Int32Array;
  /** Representatives in ascending doc id order (the distinct texts). */
  distinct: Uint32Array;
  /** Groups of 2+ docs with the same hash, largest first. */
  groups: GroupArrays;
}

/** Orders groups largest first (ties: lowest first member first) and packs them. */
function packGroups(lists: Uint32Array[], total: number): GroupArrays {
  const order = lists.map((_, i) => i).sort((x, y) => lists[y].length - lists[x].length || lists[x][0] - lists[y][0]);
  const start = new Uint32Array(lists.length + 1);
  const members = new Uint32Array(total);
  let at = 0;
  order.forEach((g, rank) => {
    start[rank] = at;
    members.set(lists[g], at);
    at += lists[g].length;
  });
  start[lists.length] = at;
  return { start, members, count: lists.length };
}

/**
 * Groups docs by their 64-bit content hash (given as halves). `include[i]`: 0 leaves doc i out,
 * 1 includes it, 2 includes it as a preferred representative (the lowest preferred doc id of a
 * group stands for it; the lowest doc id when none is preferred).
 */
export function groupExact(hashHi: Uint32Array, hashLo: Uint32Array, include: Uint8Array): ExactGrouping {
  const n = include.length;
  const representative = new Int32Array(n).fill(-1);
  let m = 0;
  for (let i = 0; i < n; i++) if (include[i]) m++;
  const ids = new Uint32Array(m);
  for (let i = 0, j = 0; i < n; i++) if (include[i]) ids[j++] = i;
  ids.sort((x, y) => hashHi[x] - hashHi[y] || hashLo[x] - hashLo[y] || x - y);
  const distinct = new Uint32Array(m);
  let distinctCount = 0;
  const lists: Uint32Array[] = [];
  let grouped = 0;
  for (let s = 0; s < m; ) {
    let e = s + 1;
    while (e < m && hashHi[ids[e]] === hashHi[ids[s]] && hashLo[ids[e]] === hashLo[ids[s]]) e++;
    let rep = ids[s];
    for (let t = s; t < e; t++) {
      if (include[ids[t]] === 2) {
        rep = ids[t];
        break;
      }
    }
    distinct[distinctCount++] = rep;
    for (let t = s; t < e; t++) representative[ids[t]] = rep;
    if (e - s > 1) {
      lists.push(ids.slice(s, e));
      grouped += e - s;
    }
    s = e;
  }
  const reps = distinct.slice(0, distinctCount).sort();
  return { representative, distinct: reps, groups: packGroups(lists, grouped) };
}

/**
 * Connected components of `pairs` over nodes 0..n-1 (only nodes in some pair appear), members
 * ascending, largest first; also each pair's group index.
 */
export function groupPairs(n: number, pairs: PairList): { groups: GroupArrays; pairGroup: Uint32Array } {
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  for (let p = 0; p < pairs.count; p++) {
    const ra = find(pairs.a[p]);
    const rb = find(pairs.b[p]);
    if (ra !== rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
  }
  // Count members per root among nodes that are in at least one pair.
  const inPair = new Uint8Array(n);
  for (let p = 0; p < pairs.count; p++) {
    inPair[pairs.a[p]] = 1;
    inPair[pairs.b[p]] = 1;
  }
  const size = new Uint32Array(n);
  for (let i = 0; i < n; i++) if (inPair[i]) size[find(i)]++;
  const roots: number[] = [];
  for (let i = 0; i < n; i++) if (size[i] > 0) roots.push(i);
  roots.sort((x, y) => size[y] - size[x] || x - y);
  const groupOfRoot = new Int32Array(n).fill(-1);
  const start = new Uint32Array(roots.length + 1);
  let total = 0;
  roots.forEach((root, g) => {
    groupOfRoot[root] = g;
    start[g] = total;
    total += size[root];
  });
  start[roots.length] = total;
  const members = new Uint32Array(total);
  const fill = start.slice(0, roots.length);
  for (let i = 0; i < n; i++) if (inPair[i]) members[fill[groupOfRoot[find(i)]]++] = i;
  const pairGroup = new Uint32Array(pairs.count);
  for (let p = 0; p < pairs.count; p++) pairGroup[p] = groupOfRoot[find(pairs.a[p])];
  return { groups: { start, members, count: roots.length }, pairGroup };
}
