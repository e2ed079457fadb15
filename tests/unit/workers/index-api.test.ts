import { describe, expect, it } from 'vitest';
import { indexApi } from '../../../src/workers/index-api.ts';
import { hamming } from '../../../src/core/simhash/fingerprint64.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';
import { mulberry32 as rng } from '../../fixtures/mulberry32.ts';

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
    const c = r.candidates;
    const got = Array.from({ length: c.count }, (_, p) => `${c.a[p]}-${c.b[p]}:${c.distance[p]}`);
    expect(got).toEqual(expected);
    expect(got.length).toBeGreaterThanOrEqual(10);
    // The histogram counts candidates per distance up to k; nothing is measured yet.
    expect(Array.from(r.histogram).reduce((x, y) => x + y, 0)).toBe(c.count);
    expect(r.histogram.length).toBe(k + 1);
    expect(Array.from(r.jaccard).every(Number.isNaN)).toBe(true);
    expect(Array.from(r.reps)).not.toContain(20);
  });

  it('attaches Jaccards already known to the candidates found again (a regroup re-measures nothing)', async () => {
    const reps = Uint32Array.from([3, 5, 8, 9]);
    const hi = Uint32Array.from([0, 1, 3, 0xffff]);
    const lo = Uint32Array.from([0, 0, 0, 0]);
    const known = { a: Uint32Array.from([3, 5]), b: Uint32Array.from([5, 8]), jaccard: Float64Array.from([0.9, 0.4]), count: 2 };
    const r = indexApi.searchCandidates({ reps, hi, lo, k: 2, known });
    const got = Array.from({ length: r.candidates.count }, (_, p) => `${r.candidates.a[p]}-${r.candidates.b[p]}:${r.jaccard[p]}`);
    expect(got).toEqual(['3-5:0.9', '3-8:NaN', '5-8:0.4']);
    expect(Array.from(r.histogram)).toEqual([0, 2, 1]);
  });

  it('returns nothing to search when fewer than two texts are ok', async () => {
    const one = Uint32Array.from([1]);
    const r = await indexApi.findDuplicates({ status: Uint8Array.from([1]), hi: one, lo: one, words: one, hashHi: one, hashLo: one, k: 3 });
    expect(r.candidates.count).toBe(0);
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

describe('indexApi.groupNearDuplicates', () => {
  const set = (...keys: number[]) => Uint32Array.from(keys).sort();
  function input(grouping: 'reference' | 'components', threshold = 0.8) {
    // Docs 0-3 long, fingerprinted; 4 and 5 short (with small sets). Candidates: 0-1 (J 0.9), 1-2 (0.85), 0-2 (0.5), 2-3 (0.2).
    const n = 6;
    const words = Uint32Array.from([500, 500, 500, 500, 10, 12]);
    const hasFingerprint = Uint8Array.from([1, 1, 1, 1, 1, 1]);
    const candidates = { a: Uint32Array.from([0, 0, 1, 2]), b: Uint32Array.from([1, 2, 2, 3]), distance: Uint8Array.from([3, 9, 5, 11]), count: 4 };
    const jaccard = Float64Array.from([0.9, 0.5, 0.85, 0.2]);
    const s4 = set(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    const s5 = set(1, 2, 3, 4, 5, 6, 7, 8, 9, 11);
    const smallSets = { docs: Uint32Array.from([4, 5]), offsets: Uint32Array.from([0, 10, 20]), keys: new Uint32Array([...s4, ...s5]) };
    return { n, candidates, jaccard, threshold, grouping, words, hi: new Uint32Array(n), lo: Uint32Array.from([0, 0, 0, 0, 0, 0xfff]), hasFingerprint, smallSets, representative: Int32Array.from([0, 1, 2, 3, 4, 5]) };
  }

  it('keeps candidates at or above the threshold, adds short pairs from the exact join, groups around references', () => {
    const r = indexApi.groupNearDuplicates(input('reference'));
    const pairs = Array.from({ length: r.verified.count }, (_, p) => `${r.verified.a[p]}-${r.verified.b[p]}`);
    // 4-5: Jaccard 9/11 = 0.818 >= 0.8, found by the join although no fingerprint candidate links them.
    expect(pairs).toEqual(['0-1', '1-2', '4-5']);
    expect(r.verified.distance[2]).toBe(12);
    expect(r.joinPairs).toBe(1);
    expect(r.joinOnly).toBe(1);
    expect(Array.from(r.short)).toEqual([0, 0, 0, 0, 1, 1]);
    // Reference groups: 1 is linked to both 0 and 2, so it is the reference; 0 and 2 are not chained together.
    expect(r.groups.count).toBe(2);
    expect(r.groups.reference[0]).toBe(1);
    expect(Array.from(r.groups.members.subarray(r.groups.offsets[0], r.groups.offsets[1]))).toEqual([1, 0, 2]);
    expect(r.unchecked.length).toBe(0);
  });

  it('in components mode marks the components that are not cliques for the chaining check', () => {
    const r = indexApi.groupNearDuplicates(input('components'));
    expect(r.groups.count).toBe(2);
    const g = r.groups.groupOf[0];
    expect(r.unchecked[g]).toBe(1); // 0~1~2 but 0-2 is not verified
    expect(r.unchecked[r.groups.groupOf[4]]).toBe(0); // a pair is a clique
  });

  it('a lower threshold admits more pairs without new measurements', () => {
    const r = indexApi.groupNearDuplicates(input('reference', 0.5));
    expect(r.verified.count).toBe(4); // 0-1, 0-2, 1-2, 4-5
  });
});
