import { describe, expect, it } from 'vitest';
import { allPairs, allPairsForTables, splitTables } from '../../../../src/core/index/all-pairs.ts';
import { allPairsBruteForce } from '../../../../src/core/index/brute-force-pairs.ts';
import { blockLayout } from '../../../../src/core/index/block-layout.ts';
import { PairLimitError, concatPairLists, sortPairs } from '../../../../src/core/index/pair-list.ts';
import { bruteForcePairs, flipBits, pairStrings, plantedSet, type Fingerprints } from './test-fingerprints.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';
import { createPairScanArena } from '../../../../src/core/index/pair-scan.ts';

const cases: Array<[k: number, blocks: number]> = [
  [0, 1], [0, 2], [0, 4],
  [1, 2], [1, 3], [1, 5],
  [2, 3], [2, 4], [2, 6],
  [3, 4], [3, 5], [3, 6], [3, 7], [3, 8],
  [4, 6], [6, 8], [8, 9], [8, 10], [8, 12],
  [12, 13], [12, 14], [12, 16],
  [16, 17], [16, 18], [16, 19], [16, 20],
];

describe('allPairs is exact (against brute force)', () => {
  const fp = plantedSet(1500, 1500, 14, 7);
  const expected = new Map<number, string[]>();
  const reference = (k: number) => {
    if (!expected.has(k)) expected.set(k, bruteForcePairs(fp, k));
    return expected.get(k)!;
  };

  it.each(cases)('k=%i, blocks=%i on random and planted fingerprints', (k, blocks) => {
    const want = reference(k);
    expect(want.length).toBeGreaterThan(50); // the data really has pairs at this distance
    expect(pairStrings(allPairs(fp.hi, fp.lo, k, { blocks }))).toEqual(want);
  }, 30_000);

  it('stops past a pair limit (counted across table ranges that share it) and finishes at it', () => {
    const count = reference(6).length;
    expect(allPairs(fp.hi, fp.lo, 6, { pairLimit: { limit: count } }).count).toBe(count);
    expect(() => allPairs(fp.hi, fp.lo, 6, { pairLimit: { limit: count - 1 } })).toThrow(PairLimitError);
    // Two ranges of one layout share a counter: each alone stays under the limit, together they pass it.
    const layout = blockLayout(6, 8);
    const half = splitTables(layout.tables.length, 2);
    const shared = new Int32Array(new SharedArrayBuffer(4));
    const first = allPairsForTables(fp.hi, fp.lo, layout, half[0], half[1], { limit: count - 1, shared });
    expect(first.count).toBeLessThan(count);
    expect(() => allPairsForTables(fp.hi, fp.lo, layout, half[1], half[2], { limit: count - 1, shared })).toThrow(PairLimitError);
    // Beyond k = 31 the brute force keeps the limit too.
    expect(() => allPairs(fp.hi, fp.lo, 40, { pairLimit: { limit: 1000 } })).toThrow(PairLimitError);
  });

  it('chooses the block count itself when none is given', () => {
    for (const k of [0, 1, 3, 5, 8, 12]) expect(pairStrings(allPairs(fp.hi, fp.lo, k))).toEqual(reference(k));
  });

  it('finds pairs that differ only inside one block, once each', () => {
    for (const [k, blocks] of [[3, 4], [3, 5], [3, 8], [1, 3], [8, 10], [12, 14]] as const) {
      const layout = blockLayout(k, blocks);
      const rnd = mulberry32(blocks * 100 + k);
      const n = 400;
      const set: Fingerprints = { hi: new Uint32Array(n), lo: new Uint32Array(n) };
      const baseHi = rnd();
      const baseLo = rnd();
      for (let i = 0; i < n; i++) {
        // Flip 1..k+1 random bits, all inside one block (wrapping the block's mask bits).
        const j = rnd() % blocks;
        let h = baseHi;
        let l = baseLo;
        const flips = 1 + (rnd() % (k + 1));
        for (let f = 0; f < flips; f++) {
          const bit = layout.start[j] + (rnd() % layout.size[j]);
          if (bit < 32) h ^= 1 << (31 - bit);
          else l ^= 1 << (63 - bit);
        }
        set.hi[i] = h >>> 0;
        set.lo[i] = l >>> 0;
      }
      expect(pairStrings(allPairs(set.hi, set.lo, k, { blocks }))).toEqual(bruteForcePairs(set, k));
    }
  });

  it('groups on a key prefix without losing pairs when keys are wider than the group digit', () => {
    // All fingerprints share their top 24 bits, so every wide key starts with the same 16 bits.
    const rnd = mulberry32(99);
    const n = 1200;
    const set: Fingerprints = { hi: new Uint32Array(n), lo: new Uint32Array(n) };
    for (let i = 0; i < n; i++) {
      set.hi[i] = (0xabcdef00 | (rnd() & 0xff)) >>> 0;
      set.lo[i] = rnd() & 0x0f0f0f0f;
      if (i >= 600) {
        // Near copies of the first half, so there are pairs at every small distance.
        set.hi[i] = set.hi[i - 600];
        set.lo[i] = set.lo[i - 600];
        flipBits(set, i, rnd() % 4, rnd);
      }
    }
    for (const [k, blocks] of [[1, 3], [3, 5], [3, 8], [6, 8], [2, 3]] as const) {
      expect(pairStrings(allPairs(set.hi, set.lo, k, { blocks }))).toEqual(bruteForcePairs(set, k));
    }
  });

  it('reports identical fingerprints as distance-0 pairs', () => {
    const n = 40;
    const set = { hi: new Uint32Array(n).fill(0xdeadbeef), lo: new Uint32Array(n).fill(7) };
    const pairs = allPairs(set.hi, set.lo, 3, { blocks: 4 });
    expect(pairs.count).toBe((n * (n - 1)) / 2);
    expect(pairStrings(pairs)).toEqual(bruteForcePairs(set, 3));
    expect(pairStrings(allPairs(set.hi, set.lo, 0, { blocks: 1 }))).toEqual(bruteForcePairs(set, 0));
  });

  it('handles n = 0, 1 and 2', () => {
    const empty = new Uint32Array(0);
    expect(allPairs(empty, empty, 3).count).toBe(0);
    expect(allPairs(Uint32Array.of(1), Uint32Array.of(2), 3).count).toBe(0);
    const near = { hi: Uint32Array.of(0xffffffff, 0xfffffffe), lo: Uint32Array.of(0, 1) };
    expect(pairStrings(allPairs(near.hi, near.lo, 2, { blocks: 3 }))).toEqual(['0 1 2']);
    expect(allPairs(near.hi, near.lo, 1, { blocks: 3 }).count).toBe(0);
  });

  it('uses brute force beyond k = 31 and still agrees', () => {
    const small = plantedSet(60, 60, 40, 3);
    expect(pairStrings(allPairs(small.hi, small.lo, 40))).toEqual(bruteForcePairs(small, 40));
    expect(pairStrings(allPairsBruteForce(small.hi, small.lo, 5))).toEqual(bruteForcePairs(small, 5));
  });

  it('rejects bad arguments', () => {
    const a = new Uint32Array(3);
    expect(() => allPairs(a, new Uint32Array(2), 3)).toThrow(/length/);
    expect(() => allPairs(a, a, 3, { blocks: 3 })).toThrow(/greater than k/);
    expect(() => allPairs(a, a, -1)).toThrow(/k must be/);
    expect(() => allPairs(a, a, 1.5)).toThrow(/k must be/);
  });
});

describe('the order allPairs reports pairs in', () => {
  /** FNV-1a over the pairs in the order reported: a, b (4 bytes each, little-endian) and the distance. */
  function orderHash(list: { a: Uint32Array; b: Uint32Array; distance: Uint8Array; count: number }): string {
    let h = 0x811c9dc5;
    const mix = (x: number) => {
      for (let s = 0; s < 32; s += 8) h = Math.imul(h ^ ((x >>> s) & 0xff), 16777619);
    };
    for (let i = 0; i < list.count; i++) {
      mix(list.a[i]);
      mix(list.b[i]);
      mix(list.distance[i]);
    }
    return `${list.count}:${(h >>> 0).toString(16)}`;
  }

  // Layouts whose prefix groups are large (re-sorted on the last key block by the kernel's splitGroup):
  // the hashes are those of the JavaScript counting sort it replaced, so the order is the same pair for pair.
  it.each([
    [16, 18, '2322:455142f1'],
    [12, 14, '1385:6d7b58bc'],
    [8, 10, '925:1f8ec3b7'],
    [6, 8, '715:657bf349'],
  ])('k=%i, blocks=%i: the same order as before the split moved into the kernel', (k, blocks, hash) => {
    const fp = plantedSet(3000, 1500, 16, 1638);
    expect(orderHash(allPairs(fp.hi, fp.lo, k, { blocks }))).toBe(hash);
  });
});

describe('splitting tables across workers', () => {
  const fp = plantedSet(2000, 2000, 8, 11);

  it.each([[3, 4], [3, 6], [6, 8], [1, 3]])('k=%i, blocks=%i: consecutive table ranges concatenate to the single-thread result', (k, blocks) => {
    const layout = blockLayout(k, blocks);
    const single = allPairs(fp.hi, fp.lo, k, { blocks });
    for (const parts of [2, 3, 5]) {
      const bounds = splitTables(layout.tables.length, parts);
      expect(bounds[0]).toBe(0);
      expect(bounds[bounds.length - 1]).toBe(layout.tables.length);
      const pieces = [];
      for (let p = 0; p + 1 < bounds.length; p++) {
        pieces.push(allPairsForTables(fp.hi, fp.lo, layout, bounds[p], bounds[p + 1]));
      }
      const joined = concatPairLists(pieces);
      expect(joined.count).toBe(single.count);
      expect(joined.a.subarray(0, joined.count)).toEqual(single.a.subarray(0, single.count));
      expect(joined.b.subarray(0, joined.count)).toEqual(single.b.subarray(0, single.count));
      expect(joined.distance.subarray(0, joined.count)).toEqual(single.distance.subarray(0, single.count));
    }
  });

  it('never splits into more ranges than tables', () => {
    expect(Array.from(splitTables(3, 8))).toEqual([0, 1, 2, 3]);
    expect(Array.from(splitTables(4, 2))).toEqual([0, 2, 4]);
  });
});

describe('sortPairs', () => {
  // Short lists sort by comparison, longer ones in the kernel while a, b and the distance pack into 64
  // bits, else by radix passes: every side of both switches, ids at the packing's edge (b below 2^29
  // and a below 2^28: exactly 64 bits; b at 2^29: 65) and distances up to 64.
  it.each([
    [2, 200_000],
    [700, 200_000],
    [1023, 200_000],
    [1024, 200_000],
    [5000, 200_000],
    [5000, 2 ** 23],
    [5000, 2 ** 29 - 1],
    [5000, 2 ** 29],
    [5000, 2 ** 32 - 2],
  ])('orders %i pairs with ids below %i by (a, b) and keeps each pair with its distance', (n, span) => {
    const rnd = mulberry32(5);
    const list = { a: new Uint32Array(n), b: new Uint32Array(n), distance: new Uint8Array(n), count: n };
    for (let i = 0; i < n; i++) {
      const x = rnd() % Math.floor(span / 2);
      list.a[i] = x;
      list.b[i] = i === 0 ? span : x + 1 + (rnd() % Math.floor(span / 2));
      list.distance[i] = (list.a[i] + list.b[i]) % 65;
    }
    const sorted = sortPairs(list);
    expect(sorted.count).toBe(n);
    for (let i = 0; i < n; i++) {
      expect(sorted.distance[i]).toBe((sorted.a[i] + sorted.b[i]) % 65);
      if (i > 0) {
        const ordered = sorted.a[i - 1] < sorted.a[i] || (sorted.a[i - 1] === sorted.a[i] && sorted.b[i - 1] <= sorted.b[i]);
        expect(ordered).toBe(true);
      }
    }
    expect(pairStrings(sorted)).toEqual(pairStrings(list));
  });
});

describe('the pair-scan kernel', () => {
  it('writes documents and distances, and drops pairs that agree on a block the table needs them to differ on', () => {
    const arena = createPairScanArena(4, 4);
    // One run of four records: fingerprint (word 0 low, word 1 high), document, key.
    const prints: Array<[number, number]> = [[0, 0], [0x0000000f, 0], [0x000000f0, 0], [0, 0xff000000]];
    prints.forEach(([w0, w1], r) => arena.grouped.set([w0, w1, 10 + r, 0], 4 * r));
    arena.ends[0] = 4;
    // Block masks to differ on: the low byte of word 0.
    arena.differ.set([0xff, 0]);
    const scan = (differCount: number) => {
      const count = arena.kernel.scanRuns(arena.groupedAt, arena.endsAt, 0, 1, 0, 8, 0, 0, arena.differAt, differCount, arena.outAt, arena.capacity);
      return Array.from({ length: count }, (_, p) => `${arena.outA[p]} ${arena.outB[p]} ${arena.outDistance[p]}`);
    };
    // Within 8: (10,11) 4, (10,12) 4, (10,13) 8, (11,12) 8; (11,13) and (12,13) are 12 apart.
    expect(scan(0)).toEqual(['10 11 4', '10 12 4', '10 13 8', '11 12 8']);
    // (10,13) agrees on the low byte: an earlier table owns it.
    expect(scan(1)).toEqual(['10 11 4', '10 12 4', '11 12 8']);
  });
});

describe('the pair-scan kernel at the distance bound', () => {
  it.each([0, 1, 16, 31, 63])('finds every pair of one run within k = %i, in each lane of the kernel\'s step and the tail', (k) => {
    const n = 23;
    const arena = createPairScanArena(n, 4);
    const rnd = mulberry32(11 + k);
    const prints: Array<[number, number]> = [];
    // Record i is k - 1, k or k + 1 bits from record 0 (cycling by 3, so across the step's lanes), random bits otherwise apart.
    for (let i = 0; i < n; i++) {
      const bits = i === 0 ? 0 : Math.max(0, Math.min(64, k - 1 + (i % 3)));
      let w0 = 0, w1 = 0;
      const order = Array.from({ length: 64 }, (_, b) => b).sort(() => (rnd() & 1) - 0.5);
      for (const b of order.slice(0, bits)) if (b < 32) w0 |= 1 << b; else w1 |= 1 << (b - 32);
      prints.push([w0 >>> 0, w1 >>> 0]);
    }
    prints.forEach(([w0, w1], r) => arena.grouped.set([w0, w1, r, 0], 4 * r));
    arena.ends[0] = n;
    const count = arena.kernel.scanRuns(arena.groupedAt, arena.endsAt, 0, 1, 0, k, 0, 0, arena.differAt, 0, arena.outAt, arena.capacity);
    const got = Array.from({ length: count }, (_, p) => `${arena.outA[p]} ${arena.outB[p]} ${arena.outDistance[p]}`);
    const want: string[] = [];
    const pop = (x: number) => { let c = 0; for (; x; x &= x - 1) c++; return c; };
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const d = pop((prints[i][0] ^ prints[j][0]) >>> 0) + pop((prints[i][1] ^ prints[j][1]) >>> 0);
        if (d <= k) want.push(`${i} ${j} ${d}`);
      }
    }
    expect(want.some((p) => p.startsWith('0 ') && p.endsWith(` ${k}`))).toBe(true);
    expect(got).toEqual(want);
  });
});
