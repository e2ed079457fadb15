import { describe, expect, it } from 'vitest';
import { sortLowHalves } from '../../../../src/core/simhash/feature-bits.ts';

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

describe('sortLowHalves', () => {
  it('sorts the low halves of any count like TypedArray#sort, repeats and every byte value included', () => {
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      for (const count of [0, 1, 2, 63, 64, 65, 255, 1000, 5000]) {
        const hashes = new Uint32Array(2 * count);
        // Few distinct values in some runs (repeats), full 32-bit spread in others.
        const narrow = next() % 2 === 0;
        for (let i = 0; i < hashes.length; i++) hashes[i] = narrow ? next() % 97 : next();
        const expected = Uint32Array.from({ length: count }, (_, f) => hashes[2 * f]).sort();
        const sorted = sortLowHalves(hashes, count);
        expect(Array.from(sorted), `seed ${seed}, count ${count}`).toEqual(Array.from(expected));
      }
    }
  });

  it('leaves the hashes it reads untouched (the sort works in its own buffers)', () => {
    const next = random(7);
    const hashes = Uint32Array.from({ length: 400 }, () => next());
    const copy = hashes.slice();
    sortLowHalves(hashes, 200);
    expect(hashes).toEqual(copy);
  });
});
