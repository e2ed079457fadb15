// The verification kernel (core/groups/set-jaccard.ts over kernels/set-jaccard.ts) gives exactly what
// decodeFeatureSet + jaccardSorted give, on encoded and decoded sets mixed, empty and missing ones included;
// containment's counts stop early exactly when the containment is below the threshold.
import { describe, expect, it } from 'vitest';
import { chunkContainmentCounts, chunkJaccards, type EncodedSets } from '../../../../src/core/groups/set-jaccard.ts';
import { COUNT_BELOW, intersectionAtLeast, intersectionSize } from '../../../../src/core/simhash/simhash.ts';
import { ContainedBuffer, countIsBelow, neededCommon } from '../../../../src/core/groups/contained-pairs.ts';
import { encodeFeatureSet } from '../../../../src/core/groups/feature-set-codec.ts';
import { jaccardSorted } from '../../../../src/core/groups/jaccard.ts';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';

/** n distinct keys from [0, span), sorted, sharing about `shared` of them with `base` when given. */
function randomSet(n: number, next: () => number, span: number, base?: Uint32Array, shared = 0): Uint32Array {
  const keys = new Set<number>();
  if (base) for (const key of base) if (keys.size < n && next() < shared) keys.add(key);
  while (keys.size < n) keys.add(Math.floor(next() * span));
  return Uint32Array.from(keys).sort();
}

function pack(sets: Uint32Array[], which: number[]): EncodedSets {
  const encoded = which.map((s) => encodeFeatureSet(sets[s]));
  const offsets = new Uint32Array(which.length + 1);
  encoded.forEach((e, i) => (offsets[i + 1] = offsets[i] + e.length));
  const words = new Uint32Array(offsets[which.length]);
  encoded.forEach((e, i) => words.set(e, offsets[i]));
  return { docs: Uint32Array.from(which), offsets, words };
}

/**
 * `pack(sets, packed)` with the sets `shared` named in shared memory instead (`EncodedSets.shared`):
 * spread over two SharedArrayBuffers, each set after a few words of another's, as a scan's batches hold them.
 */
function packWithShared(sets: Uint32Array[], packed: number[], shared: number[]): EncodedSets {
  const out = pack(sets, packed);
  const encoded = shared.map((s) => encodeFeatureSet(sets[s]));
  const buffers = [0, 1].map((b) => {
    let words = 3;
    encoded.forEach((e, i) => i % 2 === b && (words += e.length + 3));
    return new SharedArrayBuffer(4 * words);
  });
  const ends = [3, 3];
  const n = shared.length;
  out.shared = { docs: Uint32Array.from(shared), buffer: new Uint32Array(n), at: new Uint32Array(n), length: new Uint32Array(n), buffers };
  encoded.forEach((e, i) => {
    const b = i % 2;
    new Uint32Array(buffers[b]).set(e, ends[b]);
    out.shared!.buffer[i] = b;
    out.shared!.at[i] = ends[b];
    out.shared!.length[i] = e.length;
    ends[b] += e.length + 3;
  });
  return out;
}

describe('chunkJaccards', () => {
  it('equals jaccardSorted on every pair of random near-duplicate sets, encoded or not', () => {
    const next = mulberry32Unit(38);
    for (const span of [2 ** 32, 2 ** 20, 5000]) {
      const sets: Uint32Array[] = [];
      for (let s = 0; s < 40; s++) {
        const n = [0, 1, 2, 31, 32, 33, 500, 1400, 3000][s % 9];
        const base = s > 0 && s % 3 !== 0 ? sets[s - 1] : undefined;
        sets.push(randomSet(Math.min(n, span), next, span, base, [0.99, 0.9, 0.5][s % 3]));
      }
      sets.push(Uint32Array.from([0, 1, 2, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1]), Uint32Array.from([0, 2 ** 32 - 1]));
      const count = sets.length + 1; // the last set is missing (unreadable)
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < count; i++) for (let j = 0; j < count; j++) if (i !== j) (a.push(i), b.push(j));
      const pairs = { a: Uint32Array.from(a), b: Uint32Array.from(b), count: a.length };
      const encodedSome = sets.map((_, s) => s).filter((s) => s % 4 !== 1);
      const decoded = sets.map((set, s) => (s % 4 === 1 ? set : undefined));
      const got = chunkJaccards(count, pack(sets, encodedSome), decoded, pairs);
      const none = new Uint32Array(0);
      const want = Float64Array.from(a, (x, p) => jaccardSorted(sets[x] ?? none, sets[b[p]] ?? none));
      expect(got).toEqual(want);
      // All decoded (no encoded sets at all) gives the same, and so do encoded sets in shared memory.
      expect(chunkJaccards(count, undefined, sets, pairs)).toEqual(want);
      const packedSome = encodedSome.filter((s) => s % 3 === 0);
      const sharedSome = encodedSome.filter((s) => s % 3 !== 0);
      expect(chunkJaccards(count, packWithShared(sets, packedSome, sharedSome), decoded, pairs)).toEqual(want);
      expect(chunkJaccards(count, packWithShared(sets, [], encodedSome), decoded, pairs)).toEqual(want);
    }
  });

  it('reuses its memory across chunks of different sizes', () => {
    const next = mulberry32Unit(7);
    for (const n of [3000, 10, 20_000, 1]) {
      const x = randomSet(n, next, 2 ** 32);
      const y = randomSet(n, next, 2 ** 32, x, 0.8);
      const pairs = { a: Uint32Array.of(0, 1, 0), b: Uint32Array.of(1, 0, 0), count: 3 };
      expect([...chunkJaccards(2, pack([x, y], [0, 1]), [], pairs)]).toEqual([jaccardSorted(x, y), jaccardSorted(y, x), jaccardSorted(x, x)]);
    }
  });
});

describe('chunkContainmentCounts', () => {
  it('gives |A ∩ B|, |A| and |B| of every pair as a merge counts them, encoded or decoded, empty and missing sets counting 0', () => {
    const next = mulberry32Unit(39);
    for (const span of [2 ** 32, 2 ** 16, 3000]) {
      const sets: Uint32Array[] = [];
      for (let s = 0; s < 40; s++) {
        const n = [0, 1, 5, 40, 300, 1400, 3000, 9000][s % 8];
        // Excerpts and wholes: a set made mostly of the previous one's keys.
        const base = s > 0 && s % 3 !== 0 ? sets[s - 1] : undefined;
        sets.push(randomSet(Math.min(n, span), next, span, base, [1, 0.95, 0.6][s % 3]));
      }
      const count = sets.length + 1; // the last set is missing (unreadable)
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < count; i++) for (let j = 0; j < count; j++) if (i !== j) (a.push(i), b.push(j));
      const pairs = { a: Uint32Array.from(a), b: Uint32Array.from(b), count: a.length };
      const none = new Uint32Array(0);
      const want = Uint32Array.from(a.flatMap((x, p) => [sets[x] ?? none, sets[b[p]] ?? none]).flatMap((_, i, all) => (i % 2 ? [] : [intersectionSize(all[i], all[i + 1]), all[i].length, all[i + 1].length])));
      const encodedSome = sets.map((_, s) => s).filter((s) => s % 4 !== 1);
      // Threshold 0: no count stops early.
      expect(chunkContainmentCounts(count, pack(sets, encodedSome), sets.map((set, s) => (s % 4 === 1 ? set : undefined)), pairs, 0)).toEqual(want);
      expect(chunkContainmentCounts(count, undefined, sets, pairs, 0)).toEqual(want);
      const sharedSome = encodedSome.filter((s) => s % 3 !== 0);
      expect(chunkContainmentCounts(count, packWithShared(sets, encodedSome.filter((s) => s % 3 === 0), sharedSome), sets.map((set, s) => (s % 4 === 1 ? set : undefined)), pairs, 0)).toEqual(want);
    }
  });
});

describe('the kernel\'s decoder', () => {
  it('decodes sets whose gaps leave whole words of the high part empty (a dense run, then gaps of tens and hundreds of words) exactly', () => {
    const next = mulberry32Unit(41);
    const sets: Uint32Array[] = [];
    for (const [dense, wide] of [[100, 1], [3000, 2], [40, 5], [1, 1], [500, 30]]) {
      const keys = new Set<number>();
      for (let i = 0; i < dense; i++) keys.add(i * 3);
      // Gaps far above the mean the low bits were chosen for: long runs of zero words in the high part.
      for (let i = 0; i < wide; i++) keys.add(2 ** 31 + Math.floor(next() * (2 ** 31 - 1)));
      sets.push(Uint32Array.from(keys).sort());
    }
    // Each set encoded (decoded by the kernel) against itself given decoded: every key found again, in order.
    const which = sets.map((_, s) => 2 * s);
    const chunk = sets.flatMap((set) => [set, set]);
    const decoded = chunk.map((set, s) => (s % 2 === 1 ? set : undefined));
    const pairs = { a: Uint32Array.from(which), b: Uint32Array.from(which, (s) => s + 1), count: which.length };
    const counts = chunkContainmentCounts(chunk.length, pack(chunk, which), decoded, pairs, 0);
    for (let p = 0; p < pairs.count; p++) expect([counts[3 * p], counts[3 * p + 1], counts[3 * p + 2]]).toEqual([sets[p].length, sets[p].length, sets[p].length]);
    expect(chunkJaccards(chunk.length, pack(chunk, which), decoded, pairs)).toEqual(new Float64Array(pairs.count).fill(1));
  });
});

describe('containment early stop (intersectionAtLeast, the kernel’s containmentPairs)', () => {
  it('on random set pairs: the exact |A ∩ B| at or above T, "below" (an upper bound under T\'s count) exactly when the containment is below T', () => {
    const next = mulberry32Unit(3939);
    let below = 0;
    let exactAbove = 0;
    for (const span of [2 ** 32, 2 ** 14, 700]) {
      const sets: Uint32Array[] = [];
      for (let s = 0; s < 36; s++) {
        const n = [0, 1, 3, 63, 64, 65, 200, 1400, 4000][s % 9];
        // Excerpts and wholes around every threshold: a set sharing a given part of the previous one's keys.
        const base = s > 0 && s % 4 !== 0 ? sets[s - 1] : undefined;
        sets.push(randomSet(Math.min(n, span), next, span, base, [1, 0.97, 0.91, 0.9, 0.86, 0.6, 0.3][s % 7]));
      }
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < sets.length; i++) for (let j = 0; j < sets.length; j++) if (i !== j) (a.push(i), b.push(j));
      const pairs = { a: Uint32Array.from(a), b: Uint32Array.from(b), count: a.length };
      const encodedSome = sets.map((_, s) => s).filter((s) => s % 3 !== 1);
      const decoded = sets.map((set, s) => (s % 3 === 1 ? set : undefined));
      for (const threshold of [0.9, 0.5, 1, 0.3 + 0.7 * next(), 0.3 + 0.7 * next()]) {
        const kernel = chunkContainmentCounts(sets.length, pack(sets, encodedSome), decoded, pairs, threshold);
        for (let p = 0; p < pairs.count; p++) {
          const x = sets[a[p]];
          const y = sets[b[p]];
          const inner = Math.min(x.length, y.length);
          const exact = intersectionSize(x, y);
          // T at the pair's own containment, and a hair above it: the boundary both ways.
          const own = inner > 0 ? exact / inner : 1;
          for (const t of [threshold, own, Math.min(1, own + 1e-6)]) {
            const need = neededCommon(t, inner);
            const got = intersectionAtLeast(x, y, need);
            const isBelow = inner > 0 && exact / inner < t - 1e-9;
            expect(countIsBelow(got)).toBe(isBelow);
            if (isBelow) {
              below++;
              const bound = got & ~COUNT_BELOW;
              expect(bound).toBeGreaterThanOrEqual(exact);
              expect(bound).toBeLessThan(need);
            } else {
              exactAbove++;
              expect(got).toBe(exact);
            }
            // The exact check decides alike on the count that stopped early and on the exact one.
            const options = { threshold: t, jaccardThreshold: 0.8 };
            expect(new ContainedBuffer().judge(a[p], b[p], got, x.length, y.length, options)).toBe(new ContainedBuffer().judge(a[p], b[p], exact, x.length, y.length, options));
          }
          // The kernel gives what core's merge gives, stopping at the same bound.
          const got = intersectionAtLeast(x, y, neededCommon(threshold, inner));
          expect([kernel[3 * p], kernel[3 * p + 1], kernel[3 * p + 2]]).toEqual([inner > 0 ? got : 0, x.length, y.length]);
        }
      }
    }
    // Both answers were tried many times over.
    expect(below).toBeGreaterThan(5000);
    expect(exactAbove).toBeGreaterThan(3000);
  });

  it('stops a merge early: a pair far below the threshold passes over fewer keys than a whole merge', () => {
    const next = mulberry32Unit(40);
    const x = randomSet(4000, next, 2 ** 32);
    const y = randomSet(8000, next, 2 ** 32, x, 0.3);
    const whole = { keys: 0 };
    const stopped = { keys: 0 };
    expect(intersectionAtLeast(x, y, 0, whole)).toBe(intersectionSize(x, y));
    expect(countIsBelow(intersectionAtLeast(x, y, neededCommon(0.9, x.length), stopped))).toBe(true);
    expect(stopped.keys).toBeLessThan(whole.keys / 4);
  });
});
