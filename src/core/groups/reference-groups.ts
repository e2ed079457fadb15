/**
 * Reference-centred groups (SimSift's default grouping): each group is one reference document and the
 * documents verified as near-duplicates of that reference itself, so a group never chains A~B~C.
 */
import { GroupTableBuilder, buildPairGraph, type GroupTable, type ScoredPairs } from './group-table.ts';

export interface ReferenceGroupOptions {
  /**
   * Per document, a length (words or features) that breaks ties between equally connected candidate
   * references: the longer document becomes the reference. Ties after that go to the lower id.
   */
  lengths?: ArrayLike<number>;
}

/**
 * Greedy reference selection over the verified pairs: repeatedly take the ungrouped document with the
 * most ungrouped verified neighbours (then the longest, then the lowest id) as a reference, and put it
 * with those neighbours into a group. Every member is a verified near-duplicate of its reference;
 * each document is in at most one group. Members follow the reference by decreasing Jaccard.
 */
export function referenceGroups(n: number, pairs: ScoredPairs, options: ReferenceGroupOptions = {}): GroupTable {
  const graph = buildPairGraph(n, pairs);
  const { offsets, neighbour, edge } = graph;
  const lengths = options.lengths;
  const assigned = new Uint8Array(n);
  const heap = new MaxHeap(n);
  // Priority = (ungrouped degree, length); degrees only fall, so stale heap entries are re-pushed lazily.
  const priority = (doc: number, degree: number): number =>
    degree * 2 ** 26 + (lengths ? Math.min(lengths[doc], 2 ** 26 - 1) : 0);
  for (let d = 0; d < n; d++) {
    const degree = offsets[d + 1] - offsets[d];
    if (degree > 0) heap.push(priority(d, degree), d);
  }

  const builder = new GroupTableBuilder(n);
  let memberSlots: number[] = [];
  while (heap.size > 0) {
    const key = heap.topKey();
    const doc = heap.pop();
    if (assigned[doc]) continue;
    let degree = 0;
    for (let s = offsets[doc]; s < offsets[doc + 1]; s++) if (!assigned[neighbour[s]]) degree++;
    if (degree === 0) continue;
    const current = priority(doc, degree);
    if (current !== key) {
      heap.push(current, doc);
      continue;
    }
    assigned[doc] = 1;
    memberSlots = [];
    for (let s = offsets[doc]; s < offsets[doc + 1]; s++) {
      const other = neighbour[s];
      if (assigned[other]) continue;
      assigned[other] = 1;
      memberSlots.push(s);
    }
    memberSlots.sort((x, y) => pairs.jaccard[edge[y]] - pairs.jaccard[edge[x]] || neighbour[x] - neighbour[y]);
    builder.open(doc);
    for (const s of memberSlots) builder.add(neighbour[s], pairs.jaccard[edge[s]], pairs.distance[edge[s]]);
    builder.close();
  }
  return builder.build();
}

/** A binary max-heap of (key, doc) on typed arrays; equal keys pop the lower doc first. */
class MaxHeap {
  private keys: Float64Array;
  private docs: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(16, capacity));
    this.docs = new Int32Array(Math.max(16, capacity));
  }

  private before(i: number, j: number): boolean {
    const ki = this.keys[i];
    const kj = this.keys[j];
    return ki > kj || (ki === kj && this.docs[i] < this.docs[j]);
  }

  private swap(i: number, j: number): void {
    const k = this.keys[i];
    this.keys[i] = this.keys[j];
    this.keys[j] = k;
    const d = this.docs[i];
    this.docs[i] = this.docs[j];
    this.docs[j] = d;
  }

  push(key: number, doc: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      this.keys = keys;
      const docs = new Int32Array(this.size * 2);
      docs.set(this.docs);
      this.docs = docs;
    }
    let i = this.size++;
    this.keys[i] = key;
    this.docs[i] = doc;
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
    const top = this.docs[0];
    this.size--;
    if (this.size > 0) {
      this.keys[0] = this.keys[this.size];
      this.docs[0] = this.docs[this.size];
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
