import { describe, expect, it } from 'vitest';
import { blockLayout, extractKey } from '../../../../src/core/index/block-layout.ts';
import { buildIndex, mergeIndex, queryIndex, shardBounds } from '../../../../src/core/index/permuted-index.ts';
import { hamming } from '../../../../src/core/simhash/fingerprint64.ts';
import { flipBits, plantedSet } from './test-fingerprints.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

function bruteQuery(hi: Uint32Array, lo: Uint32Array, qh: number, ql: number, k: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < hi.length; i++) {
    const d = hamming(hi[i], lo[i], qh, ql);
    if (d <= k) out.push(`${i}:${d}`);
  }
  return out;
}

const asStrings = (r: { docs: Uint32Array; distance: Uint8Array }) =>
  Array.from(r.docs, (doc, i) => `${doc}:${r.distance[i]}`);

describe('buildIndex', () => {
  it('sorts each table by its key, documents in order on equal keys', () => {
    const fp = plantedSet(1000, 1000, 4, 21);
    for (const [k, m] of [[3, 4], [1, 3], [0, 1], [6, 8]]) {
      const index = buildIndex(fp.hi, fp.lo, k, { blocks: m });
      const layout = blockLayout(k, m);
      const key = new Uint32Array(2);
      expect(index.tables.length).toBe(layout.tables.length);
      const problems: string[] = [];
      index.tables.forEach((table, t) => {
        const wide = layout.tables[t].bits > 32;
        expect(table.keyLo.length).toBe(wide ? 2000 : 0);
        const seen = new Uint8Array(2000);
        for (let p = 0; p < table.docs.length; p++) {
          const doc = table.docs[p];
          seen[doc]++;
          extractKey(layout.tables[t], fp.hi[doc], fp.lo[doc], key);
          if (table.keyHi[p] !== key[0] || (wide && table.keyLo[p] !== key[1])) problems.push(`table ${t} entry ${p}: wrong key`);
          if (p > 0) {
            const prev = [table.keyHi[p - 1], wide ? table.keyLo[p - 1] : 0, table.docs[p - 1]];
            const cur = [table.keyHi[p], wide ? table.keyLo[p] : 0, table.docs[p]];
            const ordered = prev[0] < cur[0] || (prev[0] === cur[0] && (prev[1] < cur[1] || (prev[1] === cur[1] && prev[2] < cur[2])));
            if (!ordered) problems.push(`table ${t} entry ${p}: out of order`);
          }
        }
        expect(seen.every((c) => c === 1)).toBe(true);
      });
      expect(problems).toEqual([]);
    }
  }, 30_000);

  it('copies the fingerprints so the caller keeps its arrays', () => {
    const hi = Uint32Array.of(1, 2);
    const lo = Uint32Array.of(3, 4);
    const index = buildIndex(hi, lo, 3);
    hi[0] = 99;
    expect(index.hi[0]).toBe(1);
    expect(index.count).toBe(2);
  });
});

describe('queryIndex (against brute force)', () => {
  const fp = plantedSet(2000, 2000, 12, 33);
  const rnd = mulberry32(8);

  it.each([[0, 1], [1, 3], [3, 4], [3, 5], [3, 8], [6, 8], [8, 10], [12, 14]])('k=%i, blocks=%i', (k, m) => {
    const index = buildIndex(fp.hi, fp.lo, k, { blocks: m });
    let nonEmpty = 0;
    for (let q = 0; q < 300; q++) {
      // Half the queries are near stored documents, half are random.
      const probe = { hi: new Uint32Array(1), lo: new Uint32Array(1) };
      if (q % 2 === 0) {
        const doc = rnd() % fp.hi.length;
        probe.hi[0] = fp.hi[doc];
        probe.lo[0] = fp.lo[doc];
        flipBits(probe, 0, rnd() % (k + 2), rnd);
      } else {
        probe.hi[0] = rnd();
        probe.lo[0] = rnd();
      }
      for (const kq of new Set([k, Math.floor(k / 2)])) {
        const want = bruteQuery(fp.hi, fp.lo, probe.hi[0], probe.lo[0], kq);
        if (want.length) nonEmpty++;
        expect(asStrings(queryIndex(index, probe.hi[0], probe.lo[0], kq))).toEqual(want);
      }
    }
    expect(nonEmpty).toBeGreaterThan(50);
  });

  it('answers on an empty index and refuses distances beyond the index k', () => {
    const empty = buildIndex(new Uint32Array(0), new Uint32Array(0), 3);
    expect(queryIndex(empty, 1, 2).docs.length).toBe(0);
    const index = buildIndex(Uint32Array.of(5), Uint32Array.of(6), 3);
    expect(asStrings(queryIndex(index, 5, 7))).toEqual(['0:1']);
    expect(() => queryIndex(index, 5, 6, 4)).toThrow(/0\.\.3/);
  });
});

describe('mergeIndex and shards', () => {
  it('merging new documents equals building over all of them', () => {
    const fp = plantedSet(1500, 1500, 5, 44);
    for (const [k, m] of [[3, 4], [1, 3], [6, 8]]) {
      const cut = 1800;
      const first = buildIndex(fp.hi.subarray(0, cut), fp.lo.subarray(0, cut), k, { blocks: m });
      const merged = mergeIndex(first, fp.hi.subarray(cut), fp.lo.subarray(cut));
      const whole = buildIndex(fp.hi, fp.lo, k, { blocks: m });
      expect(merged).toEqual(whole);
    }
  });

  it('splits a table by leading key bits into contiguous shards', () => {
    const fp = plantedSet(3000, 0, 0, 55);
    const index = buildIndex(fp.hi, fp.lo, 3, { blocks: 5 });
    for (const table of index.tables) {
      for (const bits of [0, 1, 4, 10]) {
        const bounds = shardBounds(table, bits);
        expect(bounds.length).toBe(2 ** bits + 1);
        expect(bounds[0]).toBe(0);
        expect(bounds[bounds.length - 1]).toBe(table.docs.length);
        for (let s = 0; s < 2 ** bits; s++) {
          for (let p = bounds[s]; p < bounds[s + 1]; p++) {
            expect(bits === 0 ? 0 : table.keyHi[p] >>> (32 - bits)).toBe(s);
          }
        }
      }
    }
    expect(() => shardBounds(index.tables[0], 17)).toThrow(RangeError);
  });
});
