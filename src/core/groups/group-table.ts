/**
 * The plain-data shapes of near-duplicate pairs and groups (typed arrays only, so they cross a worker
 * boundary as transferred buffers and feed a virtualized list of 100,000 groups directly).
 */

/** Verified near-duplicate pairs (a < b), parallel arrays; only the first `count` entries are meaningful. */
export interface ScoredPairs {
  a: Uint32Array;
  b: Uint32Array;
  /** Hamming distance of the two fingerprints; 255 when one document has no fingerprint. */
  distance: Uint8Array;
  /** Exact Jaccard of the two feature sets. */
  jaccard: Float32Array;
  count: number;
}

/** Distance recorded when it is unknown (a document without a fingerprint). */
export const UNKNOWN_DISTANCE = 255;

/** Sorts pairs by (a, b): two stable counting-sort passes over document ids (b, then a). */
export function sortScoredPairs(pairs: ScoredPairs, n: number): ScoredPairs {
  const count = pairs.count;
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  for (const key of [pairs.b, pairs.a]) {
    const start = new Uint32Array(n + 1);
    for (let i = 0; i < count; i++) start[key[i] + 1]++;
    for (let d = 0; d < n; d++) start[d + 1] += start[d];
    const next = new Uint32Array(count);
    for (let r = 0; r < count; r++) next[start[key[order[r]]]++] = order[r];
    order = next;
  }
  const out: ScoredPairs = {
    a: new Uint32Array(count),
    b: new Uint32Array(count),
    distance: new Uint8Array(count),
    jaccard: new Float32Array(count),
    count,
  };
  for (let r = 0; r < count; r++) {
    const i = order[r];
    out.a[r] = pairs.a[i];
    out.b[r] = pairs.b[i];
    out.distance[r] = pairs.distance[i];
    out.jaccard[r] = pairs.jaccard[i];
  }
  return out;
}

/**
 * Groups of documents. Group g's members are `members[offsets[g] .. offsets[g + 1])`, its reference
 * first; each member slot carries its Jaccard and fingerprint distance to the reference.
 */
export interface GroupTable {
  /** Number of groups. */
  count: number;
  /** Per document: its group, or -1 when it has no near-duplicate. */
  groupOf: Int32Array;
  /** count + 1 offsets into `members`. */
  offsets: Int32Array;
  /** Document ids, group by group, reference first. */
  members: Int32Array;
  /** Per group: the reference document (= members[offsets[g]]). */
  reference: Int32Array;
  /** Per member slot: exact Jaccard to the reference (1 for the reference itself; NaN when not computed). */
  jaccardToReference: Float32Array;
  /** Per member slot: fingerprint distance to the reference (0 for the reference; 255 when unknown). */
  distanceToReference: Uint8Array;
}

/** Adjacency (CSR) of the graph whose edges are the given pairs. */
export interface PairGraph {
  /** n + 1 offsets into `neighbour` / `edge`. */
  offsets: Int32Array;
  neighbour: Int32Array;
  /** Index of the pair that each adjacency slot comes from. */
  edge: Int32Array;
}

/** Builds the undirected adjacency of n documents from pairs (counting sort, no per-edge objects). */
export function buildPairGraph(n: number, pairs: { a: Uint32Array; b: Uint32Array; count: number }): PairGraph {
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < pairs.count; i++) {
    offsets[pairs.a[i] + 1]++;
    offsets[pairs.b[i] + 1]++;
  }
  for (let d = 0; d < n; d++) offsets[d + 1] += offsets[d];
  const fill = offsets.slice(0, n);
  const neighbour = new Int32Array(2 * pairs.count);
  const edge = new Int32Array(2 * pairs.count);
  for (let i = 0; i < pairs.count; i++) {
    const a = pairs.a[i];
    const b = pairs.b[i];
    neighbour[fill[a]] = b;
    edge[fill[a]++] = i;
    neighbour[fill[b]] = a;
    edge[fill[b]++] = i;
  }
  return { offsets, neighbour, edge };
}

/** Accumulates groups (a reference and its members with scores) and packs them into a GroupTable. */
export class GroupTableBuilder {
  private readonly groupOf: Int32Array;
  private members: Int32Array;
  private jaccard: Float32Array;
  private distance: Uint8Array;
  private offsets: number[] = [0];
  private references: number[] = [];
  private size = 0;

  constructor(n: number) {
    this.groupOf = new Int32Array(n).fill(-1);
    const c = Math.max(16, n);
    this.members = new Int32Array(c);
    this.jaccard = new Float32Array(c);
    this.distance = new Uint8Array(c);
  }

  /** Starts a new group with its reference; returns the group index. */
  open(reference: number): number {
    const g = this.references.length;
    this.references.push(reference);
    this.push(g, reference, 1, 0);
    return g;
  }

  /** Adds a member to the group opened last. */
  add(doc: number, jaccard: number, distance: number): void {
    this.push(this.references.length - 1, doc, jaccard, distance);
  }

  /** Ends the group opened last. */
  close(): void {
    this.offsets.push(this.size);
  }

  private push(g: number, doc: number, jaccard: number, distance: number): void {
    if (this.size === this.members.length) {
      const grow = <T extends Int32Array | Float32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.members = grow(this.members, (n) => new Int32Array(n));
      this.jaccard = grow(this.jaccard, (n) => new Float32Array(n));
      this.distance = grow(this.distance, (n) => new Uint8Array(n));
    }
    this.groupOf[doc] = g;
    this.members[this.size] = doc;
    this.jaccard[this.size] = jaccard;
    this.distance[this.size] = distance;
    this.size++;
  }

  /** The packed table (arrays trimmed to size). */
  build(): GroupTable {
    return {
      count: this.references.length,
      groupOf: this.groupOf,
      offsets: Int32Array.from(this.offsets),
      members: this.members.slice(0, this.size),
      reference: Int32Array.from(this.references),
      jaccardToReference: this.jaccard.slice(0, this.size),
      distanceToReference: this.distance.slice(0, this.size),
    };
  }
}
