/**
 * A stable sort of positions by several integer keys, most significant first (LSD counting sort: one
 * pass per key, least significant first). It orders exactly as a stable comparison sort comparing the
 * keys in turn would, in O(keys * (n + range)) with typed arrays and no comparator calls.
 */

/**
 * The positions 0..n-1 ordered by `keys[0]`, then `keys[1]`, ... (each a non-negative integer per
 * position, below `bounds[k]`); ties keep position order.
 */
export function sortByKeys(n: number, keys: readonly ArrayLike<number>[], bounds: readonly number[]): Uint32Array {
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let next = new Uint32Array(n);
  for (let k = keys.length - 1; k >= 0; k--) {
    const key = keys[k];
    const count = new Uint32Array(bounds[k] + 1);
    for (let i = 0; i < n; i++) count[key[i] + 1]++;
    for (let v = 1; v < count.length; v++) count[v] += count[v - 1];
    for (let i = 0; i < n; i++) {
      const p = order[i];
      next[count[key[p]]++] = p;
    }
    [order, next] = [next, order];
  }
  return order;
}
