import { describe, expect, it } from 'vitest';
import { groupExact, type GroupList } from '../../../../src/core/groups/exact-groups.ts';

function unpack(g: GroupList): number[][] {
  return Array.from({ length: g.count }, (_, i) => Array.from(g.members.subarray(g.start[i], g.start[i + 1])));
}

describe('groupExact', () => {
  it('groups equal 64-bit hashes (both halves), picks the lowest doc id, ignores excluded docs', () => {
    const hashHi = Uint32Array.from([7, 7, 9, 7, 9, 7, 1]);
    const hashLo = Uint32Array.from([5, 5, 2, 6, 2, 5, 1]);
    const include = Uint8Array.from([1, 1, 1, 1, 1, 1, 0]);
    const g = groupExact(hashHi, hashLo, include);
    expect(unpack(g.groups)).toEqual([
      [0, 1, 5],
      [2, 4],
    ]);
    expect(Array.from(g.representative)).toEqual([0, 0, 2, 3, 2, 0, -1]);
    expect(Array.from(g.distinct)).toEqual([0, 2, 3]);
  });

  it('prefers docs marked 2 as representatives', () => {
    const g = groupExact(Uint32Array.from([1, 1, 1]), Uint32Array.from([1, 1, 1]), Uint8Array.from([1, 1, 2]));
    expect(Array.from(g.representative)).toEqual([2, 2, 2]);
    expect(Array.from(g.distinct)).toEqual([2]);
  });

  it('handles hashes above 2^31 (unsigned comparison)', () => {
    const g = groupExact(Uint32Array.from([0xffffffff, 1, 0xffffffff]), Uint32Array.from([0x80000000, 0, 0x80000000]), Uint8Array.from([1, 1, 1]));
    expect(unpack(g.groups)).toEqual([[0, 2]]);
  });
});
