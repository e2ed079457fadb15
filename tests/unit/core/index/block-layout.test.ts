import { describe, expect, it } from 'vitest';
import { MAX_BLOCKS, agreeingBlocks, binomial, blockLayout, extractKey, extractKeys, layoutProblem, ownsPair } from '../../../../src/core/index/block-layout.ts';
import { fromHalves } from '../../../../src/core/simhash/fingerprint64.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

describe('blockLayout', () => {
  it('cuts 64 bits into m contiguous blocks of sizes differing by at most one', () => {
    for (let m = 1; m <= MAX_BLOCKS; m++) {
      const layout = blockLayout(0, m);
      let covered = 0n;
      let pos = 0;
      for (let j = 0; j < m; j++) {
        expect(layout.start[j]).toBe(pos);
        expect(Math.abs(layout.size[j] - 64 / m)).toBeLessThan(1);
        const mask = (BigInt(layout.maskHi[j]) << 32n) | BigInt(layout.maskLo[j]);
        const expected = ((1n << BigInt(layout.size[j])) - 1n) << BigInt(64 - pos - layout.size[j]);
        expect(mask).toBe(expected);
        expect(covered & mask).toBe(0n);
        covered |= mask;
        pos += layout.size[j];
      }
      expect(covered).toBe((1n << 64n) - 1n);
    }
  });

  it('builds C(m, k) distinct tables keyed by m - k blocks', () => {
    for (const [k, m] of [[0, 1], [3, 4], [3, 8], [6, 8], [10, 14], [12, 16]]) {
      const layout = blockLayout(k, m);
      expect(layout.tables.length).toBe(binomial(m, k));
      const masks = new Set(layout.tables.map((t) => t.keyMask));
      expect(masks.size).toBe(layout.tables.length);
      for (const t of layout.tables) {
        let blocks = 0;
        let bits = 0;
        for (let j = 0; j < m; j++) if (t.keyMask & (1 << j)) { blocks++; bits += layout.size[j]; }
        expect(blocks).toBe(m - k);
        expect(t.bits).toBe(bits);
      }
    }
  });

  it('extracts keys equal to the concatenated key blocks, MSB-aligned', () => {
    const rnd = mulberry32(1);
    const mismatches: string[] = [];
    for (const [k, m] of [[0, 1], [1, 3], [3, 4], [3, 5], [3, 7], [6, 8], [12, 13], [2, 30]]) {
      const layout = blockLayout(k, m);
      const n = 64;
      const hi = new Uint32Array(n).map(() => rnd());
      const lo = new Uint32Array(n).map(() => rnd());
      const keyHi = new Uint32Array(n);
      const keyLo = new Uint32Array(n);
      const one = new Uint32Array(2);
      for (const table of layout.tables) {
        extractKeys(table, hi, lo, n, keyHi, keyLo);
        for (let i = 0; i < n; i++) {
          const fp = fromHalves(hi[i], lo[i]);
          let key = 0n;
          for (let j = 0; j < m; j++) {
            if (!(table.keyMask & (1 << j))) continue;
            const block = (fp >> BigInt(64 - layout.start[j] - layout.size[j])) & ((1n << BigInt(layout.size[j])) - 1n);
            key = (key << BigInt(layout.size[j])) | block;
          }
          const aligned = key << BigInt(64 - table.bits);
          const got = (BigInt(keyHi[i]) << 32n) | BigInt(table.bits > 32 ? keyLo[i] : 0);
          extractKey(table, hi[i], lo[i], one);
          if (got !== aligned || one[0] !== keyHi[i] || (table.bits > 32 && one[1] !== keyLo[i])) {
            mismatches.push(`k=${k} m=${m} key=${table.keyMask.toString(2)} doc ${i}: ${got} vs ${aligned}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 30_000);

  it('gives every set of agreeing blocks (at least m - k of them) exactly one owning table', () => {
    for (const [k, m] of [[3, 6], [2, 5], [6, 9], [1, 4]]) {
      const layout = blockLayout(k, m);
      for (let agree = 0; agree < 1 << m; agree++) {
        let zeros = 0;
        for (let j = 0; j < m; j++) if (agree & (1 << j)) zeros++;
        const owners = layout.tables.filter((t) => ownsPair(t, agree)).length;
        expect(owners).toBe(zeros >= m - k ? 1 : 0);
      }
    }
  });

  it('finds the agreeing blocks of an XOR', () => {
    const layout = blockLayout(3, 5); // blocks of 13, 13, 13, 13, 12 bits
    expect(agreeingBlocks(layout, 0, 0)).toBe(0b11111);
    expect(agreeingBlocks(layout, 0x80000000, 0)).toBe(0b11110);
    // Bit 38 (from the top) is in block 2 (bits 26..38); bit 39 starts block 3.
    expect(agreeingBlocks(layout, 0, 1 << (63 - 38))).toBe(0b11011);
    expect(agreeingBlocks(layout, 0, 1 << (63 - 39))).toBe(0b10111);
    expect(agreeingBlocks(layout, 0, 1)).toBe(0b01111);
  });

  it('explains layouts it cannot build', () => {
    expect(layoutProblem(3, 3)).toMatch(/greater than k/);
    expect(layoutProblem(3, 33)).toMatch(/at most 32/);
    expect(layoutProblem(14, 30)).toMatch(/tables/);
    expect(layoutProblem(3, 4)).toBeNull();
    expect(() => blockLayout(3, 2)).toThrow(RangeError);
  });
});
