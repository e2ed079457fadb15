import { describe, expect, it } from 'vitest';
import { indexApi } from '../../../src/workers/index-api.ts';
import { hamming } from '../../../src/core/simhash/fingerprint64.ts';
import { DocStatus } from '../../../src/workers/ingest-protocol.ts';

/** A deterministic PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

describe('indexApi.findDuplicates', () => {
  it('groups exact copies, then finds every near pair among distinct texts only', async () => {
    const next = rng(42);
    const n = 2000;
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    const hashHi = new Uint32Array(n);
    const hashLo = new Uint32Array(n);
    const status = new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) {
      hi[i] = next();
      lo[i] = next();
      hashHi[i] = next();
      hashLo[i] = i;
    }
    // Planted: 10 near-duplicates of doc 0 (1-3 bits flipped); doc 20, 21 exact copies of doc 11.
    for (let j = 1; j <= 10; j++) {
      hi[j] = hi[0] ^ (1 << j);
      lo[j] = lo[0] ^ (j > 5 ? 3 << j : 0);
    }
    for (const copy of [20, 21]) {
      hi[copy] = hi[11];
      lo[copy] = lo[11];
      hashHi[copy] = hashHi[11];
      hashLo[copy] = hashLo[11];
    }
    status[1999] = 2; // too short: never grouped
    hi[1999] = hi[0];
    lo[1999] = lo[0];
    const k = 3;
    const r = await indexApi.findDuplicates({ status, hi, lo, words: new Uint32Array(n), hashHi, hashLo, k });

    expect(r.exactGroups.count).toBe(1);
    expect(Array.from(r.exactGroups.members)).toEqual([11, 20, 21]);
    expect(r.representative[21]).toBe(11);
    expect(r.representative[1999]).toBe(-1);

    const expected: string[] = [];
    for (let a = 0; a < n; a++) {
      if (status[a] !== 1 || r.representative[a] !== a) continue;
      for (let b = a + 1; b < n; b++) {
        if (status[b] !== 1 || r.representative[b] !== b) continue;
        const d = hamming(hi[a], lo[a], hi[b], lo[b]);
        if (d <= k) expected.push(`${a}-${b}:${d}`);
      }
    }
    const got = Array.from({ length: r.pairs.count }, (_, p) => `${r.pairs.a[p]}-${r.pairs.b[p]}:${r.pairs.distance[p]}`);
    expect(got).toEqual(expected);
    expect(got.length).toBeGreaterThanOrEqual(10);
    expect(r.nearGroups.count).toBeGreaterThanOrEqual(1);
    const firstGroup = Array.from(r.nearGroups.members.subarray(r.nearGroups.start[0], r.nearGroups.start[1]));
    expect(firstGroup).toEqual(expect.arrayContaining([0, 1, 2, 3]));
  });

  it('returns nothing to search when fewer than two texts are ok', async () => {
    const one = Uint32Array.from([1]);
    const r = await indexApi.findDuplicates({ status: Uint8Array.from([1]), hi: one, lo: one, words: one, hashHi: one, hashLo: one, k: 3 });
    expect(r.pairs.count).toBe(0);
    expect(r.nearGroups.count).toBe(0);
  });

  it('gives copies (not fingerprinted) the status, fingerprint and words of the file that was', async () => {
    const { ok, tooShort, copy, binary } = DocStatus;
    const status = Uint8Array.from([copy, ok, copy, tooShort, copy, binary, copy]);
    const hi = Uint32Array.from([0, 0xabc, 0, 0, 0, 0, 0]);
    const lo = Uint32Array.from([0, 0xdef, 0, 0, 0, 0, 0]);
    const words = Uint32Array.from([0, 300, 0, 1, 0, 0, 0]);
    // Docs 0, 1, 2 share a text (1 fingerprinted it); 3, 4 share a short one; 6's original never finished.
    const hashHi = Uint32Array.from([5, 5, 5, 6, 6, 0, 9]);
    const hashLo = Uint32Array.from([1, 1, 1, 2, 2, 0, 9]);
    const r = await indexApi.findDuplicates({ status, hi, lo, words, hashHi, hashLo, k: 3 });
    expect(Array.from(r.status)).toEqual([ok, ok, ok, tooShort, tooShort, binary, copy]);
    expect([r.hi[0], r.lo[2], r.words[2], r.words[4]]).toEqual([0xabc, 0xdef, 300, 1]);
    expect(Array.from(r.representative)).toEqual([1, 1, 1, -1, -1, -1, -1]);
    expect(Array.from(r.exactGroups.members)).toEqual([0, 1, 2]);
    expect(r.exactGroups.count).toBe(1);
  });
});
