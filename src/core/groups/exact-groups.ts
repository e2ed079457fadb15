/**
 * Exact-duplicate grouping over typed arrays: documents with the same 64-bit content hash form a
 * group, and one representative per distinct text is picked. No objects per document.
 */

/** Groups in compressed form: group g's members are `members[start[g] .. start[g + 1])`. */
export interface GroupList {
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
  groups: GroupList;
}

/** Orders groups largest first (ties: lowest first member first) and packs them. */
function packGroups(lists: Uint32Array[], total: number): GroupList {
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
 * Sorts ascending `ids` by (hash, id) in place: four stable counting passes over 16-bit digits, low
 * first. A comparison sort through a callback cost most of a cached rescan's exact grouping of
 * 100,000 documents, done twice per scan.
 */
function sortByHash(ids: Uint32Array, hashHi: Uint32Array, hashLo: Uint32Array): void {
  const m = ids.length;
  if (m < 2) return;
  // Each counting pass walks 65,536 buckets: a small scan (or a merge of a few files) sorts faster by comparison.
  if (m < 1024) {
    ids.sort((a, b) => hashHi[a] - hashHi[b] || hashLo[a] - hashLo[b] || a - b);
    return;
  }
  const count = new Uint32Array(65537);
  let from: Uint32Array = ids;
  let to: Uint32Array = new Uint32Array(m);
  for (const [half, shift] of [[hashLo, 0], [hashLo, 16], [hashHi, 0], [hashHi, 16]] as const) {
    count.fill(0);
    for (let i = 0; i < m; i++) count[((half[from[i]] >>> shift) & 0xffff) + 1]++;
    for (let b = 0; b < 65536; b++) count[b + 1] += count[b];
    for (let i = 0; i < m; i++) to[count[(half[from[i]] >>> shift) & 0xffff]++] = from[i];
    [from, to] = [to, from];
  }
  // Four passes: the sorted order is back in `ids`.
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
  sortByHash(ids, hashHi, hashLo);
  // Representatives marked, then listed by one pass in id order (not sorted out of hash order).
  const isRep = new Uint8Array(n);
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
    isRep[rep] = 1;
    distinctCount++;
    for (let t = s; t < e; t++) representative[ids[t]] = rep;
    if (e - s > 1) {
      lists.push(ids.slice(s, e));
      grouped += e - s;
    }
    s = e;
  }
  const reps = new Uint32Array(distinctCount);
  for (let i = 0, r = 0; r < distinctCount; i++) if (isRep[i]) reps[r++] = i;
  return { representative, distinct: reps, groups: packGroups(lists, grouped) };
}

/**
 * `groupExact` when most documents' classes are known already (a saved corpus's, in a merge), without
 * sorting the whole corpus by hash: `known[i]` >= 0 labels document i's class (documents of one label
 * share one hash; labels below `labels`), -1 a document to place by its hash (new or changed), which is
 * compared with every included document, so it suits a few. Every included document is preferred (2).
 * Gives what `groupExact` gives for the same hashes and `include`.
 */
export function groupExactKnown(hashHi: Uint32Array, hashLo: Uint32Array, include: Uint8Array, known: Int32Array, labels: number): ExactGrouping {
  const n = include.length;
  // Each label's class stands for its lowest member, unless a placed document with its hash comes first.
  const classRep = new Int32Array(labels).fill(-1);
  for (let i = 0; i < n; i++) if (include[i] && known[i]! >= 0 && classRep[known[i]!]! < 0) classRep[known[i]!] = i;
  const representative = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (!include[i] || known[i]! >= 0) continue;
    let first = -1;
    let label = -1;
    for (let j = 0; j < n && (first < 0 || label < 0); j++) {
      if (!include[j] || hashHi[j] !== hashHi[i] || hashLo[j] !== hashLo[i]) continue;
      if (first < 0) first = j;
      if (known[j]! >= 0) label = known[j]!;
    }
    representative[i] = first;
    if (label >= 0 && first < classRep[label]!) classRep[label] = first;
  }
  for (let i = 0; i < n; i++) if (include[i] && known[i]! >= 0) representative[i] = classRep[known[i]!]!;
  // Members per representative, then each class of two or more as one list (members ascending).
  const size = new Uint32Array(n);
  for (let i = 0; i < n; i++) if (representative[i]! >= 0) size[representative[i]!]++;
  let distinctCount = 0;
  for (let i = 0; i < n; i++) if (size[i]! > 0) distinctCount++;
  const reps = new Uint32Array(distinctCount);
  const listOf = new Int32Array(n).fill(-1);
  const lists: Uint32Array[] = [];
  let grouped = 0;
  for (let i = 0, r = 0; i < n; i++) {
    if (size[i] === 0) continue;
    reps[r++] = i;
    if (size[i]! < 2) continue;
    listOf[i] = lists.length;
    lists.push(new Uint32Array(size[i]!));
    grouped += size[i]!;
  }
  const filled = new Uint32Array(lists.length);
  for (let i = 0; i < n; i++) {
    const l = representative[i]! >= 0 ? listOf[representative[i]!]! : -1;
    if (l >= 0) lists[l]![filled[l]!++] = i;
  }
  return { representative, distinct: reps, groups: packGroups(lists, grouped) };
}
