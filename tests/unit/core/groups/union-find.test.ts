import { describe, expect, it } from 'vitest';
import { createUnionFind, find, union } from '../../../../src/core/groups/union-find.ts';

describe('union-find', () => {
  it('merges sets and reports repeated unions', () => {
    const uf = createUnionFind(6);
    expect(union(uf, 0, 1)).toBe(true);
    expect(union(uf, 2, 3)).toBe(true);
    expect(union(uf, 1, 3)).toBe(true);
    expect(union(uf, 0, 2)).toBe(false);
    expect(find(uf, 0)).toBe(find(uf, 3));
    expect(find(uf, 4)).not.toBe(find(uf, 0));
    expect(uf.size[find(uf, 0)]).toBe(4);
  });

  it('stays correct on a long chain', () => {
    const n = 100_000;
    const uf = createUnionFind(n);
    for (let i = 1; i < n; i++) union(uf, i - 1, i);
    expect(find(uf, 0)).toBe(find(uf, n - 1));
    expect(uf.size[find(uf, 0)]).toBe(n);
  });
});
