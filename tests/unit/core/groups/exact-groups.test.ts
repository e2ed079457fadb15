import { describe, expect, it } from 'vitest';
import { groupExact, groupExactKnown, type GroupList } from '../../../../src/core/groups/exact-groups.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

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

  it('orders by (hash, id) as a comparison sort does, on random hashes with many repeats (radix passes over every digit)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const next = mulberry32(seed);
      const n = 1 + (next() % 3000);
      // Few distinct hashes whose 16-bit digits come from three values: hashes equal in some digits and
      // not in others, so a pass that is missing or wrong splits a group.
      const digit = () => [0, 1, 0xffff][next() % 3]!;
      const pool = Array.from({ length: 1 + (next() % 50) }, () => [((digit() << 16) | digit()) >>> 0, ((digit() << 16) | digit()) >>> 0] as const);
      const pick = Array.from({ length: n }, () => pool[next() % pool.length]!);
      const hashHi = Uint32Array.from(pick, (h) => h[0]);
      const hashLo = Uint32Array.from(pick, (h) => h[1]);
      const include = Uint8Array.from({ length: n }, () => next() % 4);
      const ids = Array.from({ length: n }, (_, i) => i).filter((i) => include[i]);
      ids.sort((x, y) => hashHi[x]! - hashHi[y]! || hashLo[x]! - hashLo[y]! || x - y);
      const lists: number[][] = [];
      const reps: number[] = [];
      for (let s = 0; s < ids.length; ) {
        let e = s + 1;
        while (e < ids.length && hashHi[ids[e]!] === hashHi[ids[s]!] && hashLo[ids[e]!] === hashLo[ids[s]!]) e++;
        if (e - s > 1) lists.push(ids.slice(s, e));
        reps.push(ids.slice(s, e).find((d) => include[d] === 2) ?? ids[s]!);
        s = e;
      }
      lists.sort((x, y) => y.length - x.length || x[0]! - y[0]!);
      const g = groupExact(hashHi, hashLo, include);
      expect(unpack(g.groups), `seed ${seed}`).toEqual(lists);
      // One representative per distinct text, in ascending ids.
      expect(Array.from(g.distinct), `seed ${seed}`).toEqual(reps.sort((x, y) => x - y));
    }
  });
});

describe('groupExactKnown', () => {
  it('gives what groupExact gives when most classes are known (labels) and a few documents are placed by hash', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = mulberry32(seed);
      const n = 1 + (next() % 400);
      const pool = Array.from({ length: 1 + (next() % 30) }, () => [next() >>> 0, next() >>> 0] as const);
      const hashOf = Array.from({ length: n }, () => next() % pool.length);
      const hashHi = Uint32Array.from(hashOf, (h) => pool[h]![0]);
      const hashLo = Uint32Array.from(hashOf, (h) => pool[h]![1]);
      const include = Uint8Array.from({ length: n }, () => (next() % 5 === 0 ? 0 : 2));
      // Known classes labelled by a rotated hash index (labels say nothing of order); some documents placed by hash.
      const label = Array.from({ length: pool.length }, (_, i) => (i + seed) % pool.length);
      const known = Int32Array.from(hashOf, (h) => (next() % 6 === 0 ? -1 : label[h]!));
      const expected = groupExact(hashHi, hashLo, include);
      const got = groupExactKnown(hashHi, hashLo, include, known, pool.length);
      expect(Array.from(got.representative), `seed ${seed}`).toEqual(Array.from(expected.representative));
      expect(Array.from(got.distinct), `seed ${seed}`).toEqual(Array.from(expected.distinct));
      expect(unpack(got.groups), `seed ${seed}`).toEqual(unpack(expected.groups));
    }
  });
});
