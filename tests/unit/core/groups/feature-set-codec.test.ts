import { describe, expect, it } from 'vitest';
import { decodeFeatureSet, encodeFeatureSet, encodedSetSize } from '../../../../src/core/groups/feature-set-codec.ts';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';

/** n distinct uint32 keys, sorted: random over 2^32, or drawn from [0, span). */
function randomSet(n: number, seed: number, span = 2 ** 32): Uint32Array {
  const next = mulberry32Unit(seed);
  const keys = new Set<number>();
  while (keys.size < n) keys.add(Math.floor(next() * span));
  return Uint32Array.from(keys).sort();
}

function roundTrip(keys: Uint32Array): Uint32Array {
  const encoded = encodeFeatureSet(keys);
  expect(encodedSetSize(encoded)).toBe(keys.length);
  return decodeFeatureSet(encoded);
}

describe('feature set codec', () => {
  it('gives back the empty set and the extremes of the key range', () => {
    for (const keys of [[], [0], [1], [0xffffffff], [0, 0xffffffff], [0x7fffffff, 0x80000000], [0, 1, 2, 3]]) {
      expect([...roundTrip(Uint32Array.from(keys))]).toEqual(keys);
    }
  });

  it('gives back random sets of every size, sparse and dense, exactly', () => {
    for (const n of [1, 2, 3, 5, 17, 31, 32, 33, 100, 1000, 1700, 5000, 40_000]) {
      for (const span of [2 ** 32, 2 ** 20, n * 2, n]) {
        const keys = randomSet(n, n * 7 + span, span);
        expect(roundTrip(keys)).toEqual(keys);
      }
    }
  });

  it('gives back sets with clustered keys and huge gaps', () => {
    const keys = Uint32Array.from([0, 1, 2, 1000, 1001, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 2, 2 ** 32 - 1]);
    expect(roundTrip(keys)).toEqual(keys);
    const burst = Uint32Array.from([...Array.from({ length: 500 }, (_, i) => i), ...Array.from({ length: 500 }, (_, i) => 2 ** 32 - 500 + i)]);
    expect(roundTrip(burst)).toEqual(burst);
  });

  it('decodes into a scratch array when it is large enough', () => {
    const keys = randomSet(300, 3);
    const scratch = new Uint32Array(1000);
    const out = decodeFeatureSet(encodeFeatureSet(keys), scratch);
    expect(out.buffer).toBe(scratch.buffer);
    expect(out).toEqual(keys);
  });

  it('costs under 3 bytes a key for a 10 kB document’s worth of random keys', () => {
    const keys = randomSet(1500, 11);
    const bytes = encodeFeatureSet(keys).byteLength;
    expect(bytes / keys.length).toBeLessThan(3);
  });
});
