/**
 * Owns the order in which candidate pairs are cut into verification chunks: near one another in the
 * candidate graph, so that a chunk's pairs share documents and each document's feature set is sent
 * and decoded in as few chunks as possible (in (a, b) order a document's later neighbours land in
 * other chunks, each of which gets its set again).
 */

/**
 * The pairs `selected` (indexes into `a`/`b`, documents below `n`) reordered: documents are ranked in
 * breadth-first order over the graph of the selected pairs (`breadthFirstRanks`), and pairs sorted
 * (stably) by the lower rank of their two documents, so a document's pairs come together and its
 * neighbours' pairs right after. Deterministic.
 */
export function localityOrder(n: number, a: Uint32Array, b: Uint32Array, selected: Uint32Array): Uint32Array {
  const { rank, ranked } = breadthFirstRanks(n, a, b, selected);
  const key = new Uint32Array(selected.length);
  for (let t = 0; t < selected.length; t++) key[t] = Math.min(rank[a[selected[t]]], rank[b[selected[t]]]);
  return stableOrderByKey(selected, key, ranked);
}

/**
 * Each document's rank in breadth-first order over the graph of the pairs `selected` (indexes into
 * `a`/`b`, documents below `n`), each component from its lowest document, components by that document;
 * -1 for a document in no selected pair. `ranked`: how many documents have a rank.
 */
export function breadthFirstRanks(n: number, a: Uint32Array, b: Uint32Array, selected: ArrayLike<number>): { rank: Int32Array; ranked: number } {
  const m = selected.length;
  // The graph in compressed rows: start[d] .. start[d + 1] are d's neighbours in `next`.
  const start = new Uint32Array(n + 1);
  for (let t = 0; t < m; t++) {
    start[a[selected[t]] + 1]++;
    start[b[selected[t]] + 1]++;
  }
  for (let d = 0; d < n; d++) start[d + 1] += start[d];
  const fill = start.slice(0, n);
  const next = new Uint32Array(2 * m);
  for (let t = 0; t < m; t++) {
    const x = a[selected[t]];
    const y = b[selected[t]];
    next[fill[x]++] = y;
    next[fill[y]++] = x;
  }
  // Breadth-first ranks; the queue is the visit order itself.
  const rank = new Int32Array(n).fill(-1);
  const queue = new Uint32Array(n);
  let ranked = 0;
  for (let root = 0; root < n; root++) {
    if (rank[root] >= 0 || start[root] === start[root + 1]) continue;
    rank[root] = ranked;
    queue[ranked++] = root;
    for (let head = ranked - 1; head < ranked; head++) {
      const d = queue[head];
      for (let e = start[d]; e < start[d + 1]; e++) {
        const w = next[e];
        if (rank[w] < 0) {
          rank[w] = ranked;
          queue[ranked++] = w;
        }
      }
    }
  }
  return { rank, ranked };
}

/** `items` sorted by `key` (parallel, each below `keys`) by a counting sort, stable in `items`' order. */
export function stableOrderByKey(items: ArrayLike<number>, key: Uint32Array, keys: number): Uint32Array {
  const m = items.length;
  const bucket = new Uint32Array(keys + 1);
  for (let t = 0; t < m; t++) bucket[key[t] + 1]++;
  for (let r = 0; r < keys; r++) bucket[r + 1] += bucket[r];
  const order = new Uint32Array(m);
  for (let t = 0; t < m; t++) order[bucket[key[t]]++] = items[t];
  return order;
}
