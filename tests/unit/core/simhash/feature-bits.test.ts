import { describe, expect, it } from 'vitest';
import { distinctLowHalves } from '../../../../src/core/simhash/feature-bits.ts';
import { createEngine, ensureTokenCapacity } from '../../../../src/core/simhash/fingerprint-engine.ts';

/** A seeded generator (mulberry32), so a failure names its inputs. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** The reference: the distinct low halves hashes[2f], sorted. */
function reference(hashes: Uint32Array, count: number): Uint32Array {
  const sorted = Uint32Array.from({ length: count }, (_, f) => hashes[2 * f]).sort();
  return sorted.filter((x, i) => i === 0 || x !== sorted[i - 1]);
}

/** Where two key arrays first differ, -1 when equal (a deep equal of long arrays costs CI seconds). */
function firstDifference(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe('distinctLowHalves (the kernel sortedSet)', () => {
  it('gives the sorted distinct low halves of any count: repeats, every byte value, keys crowded into one bucket', () => {
    const e = createEngine();
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      for (const count of [1, 2, 3, 63, 64, 65, 255, 1000, 5000, seed === 1 ? 70_000 : 0]) {
        if (count === 0) continue;
        ensureTokenCapacity(e, count);
        // Spread over 2^32, few distinct values (repeats), or all in a narrow range (one bucket: the insertion sort does it all).
        const kind = next() % 3;
        const hashes = e.hashes;
        for (let i = 0; i < 2 * count; i++) hashes[i] = kind === 0 ? next() : kind === 1 ? next() % 97 : 0xfffff000 + (next() % 4096);
        const expected = reference(hashes, count);
        const copy = hashes.slice(0, 2 * count);
        const what = `seed ${seed}, count ${count}, kind ${kind}`;
        expect(firstDifference(distinctLowHalves(e, count), expected), what).toBe(-1);
        expect(firstDifference(distinctLowHalves(e, count, true), expected), `scratch, ${what}`).toBe(-1);
        // The hashes are read, not moved.
        expect(firstDifference(e.hashes.subarray(0, 2 * count), copy), what).toBe(-1);
      }
    }
  });

  it('keeps a key 0 and a key 2^32 - 1, and a document of one feature', () => {
    const e = createEngine();
    e.hashes.set([0xffffffff, 1, 0, 2, 0xffffffff, 3, 0, 4, 7, 5]);
    expect(Array.from(distinctLowHalves(e, 5))).toEqual([0, 7, 0xffffffff]);
    expect(Array.from(distinctLowHalves(e, 1))).toEqual([0xffffffff]);
  });
});
