/** Disjoint sets over document indexes (union by size, path halving) on typed arrays. */

/** A union-find structure over 0..n-1. */
export interface UnionFind {
  parent: Int32Array;
  size: Int32Array;
}

/** n singleton sets. */
export function createUnionFind(n: number): UnionFind {
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  return { parent, size: new Int32Array(n).fill(1) };
}

/** The representative of x's set. */
export function find(uf: UnionFind, x: number): number {
  const p = uf.parent;
  while (p[x] !== x) {
    p[x] = p[p[x]]; // path halving keeps trees flat without recursion
    x = p[x];
  }
  return x;
}

/** Merges the sets of x and y; returns false when they were already one set. */
export function union(uf: UnionFind, x: number, y: number): boolean {
  let rx = find(uf, x);
  let ry = find(uf, y);
  if (rx === ry) return false;
  if (uf.size[rx] < uf.size[ry]) {
    const t = rx;
    rx = ry;
    ry = t;
  }
  uf.parent[ry] = rx;
  uf.size[rx] += uf.size[ry];
  return true;
}
