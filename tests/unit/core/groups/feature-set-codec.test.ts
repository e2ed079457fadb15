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

  it('writes the Elias-Fano layout both decoders read (the same words as ever since)', () => {
    // n 9, L 28 (2^32 / 9 keys apart); 8 words of low bits (key 1's 1 at bit 28, key 2's 2 at bit 56, ...);
    // one word of high bits: a bit at (key >>> 28) + i for the high values 0,0,0,0,0,8,8,15,15.
    const clustered = Uint32Array.from([0, 1, 2, 1000, 1001, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 2, 2 ** 32 - 1]);
    expect(Array.from(encodeFeatureSet(clustered))).toEqual([9, 28, 268435456, 33554432, 1048576000, 65601536, 0, 256, 4294967264, 268435455, 0b1100_0000_0110_0000_0001_1111]);
    // Word count and a hash of the words, from the first Elias-Fano encoder (the Rice-coded gaps before
    // took 4, 9, 38, 6, 5 and 1,077 words).
    const golden = ['1/4294967296: 4 4034288685', '7/4294967296: 10 689250826', '40/4294967296: 39 3070587869', '40/80: 7 1485720669', '33/33: 5 2893787394', '1500/4294967296: 1098 2015692620'];
    const got = [[1, 2 ** 32], [7, 2 ** 32], [40, 2 ** 32], [40, 80], [33, 33], [1500, 2 ** 32]].map(([n, span]) => {
      const words = encodeFeatureSet(randomSet(n, n + span, span));
      let h = 0;
      for (const w of words) h = (Math.imul(h, 31) + w) >>> 0;
      return `${n}/${span}: ${words.length} ${h}`;
    });
    expect(got).toEqual(golden);
  });

  it('gives back keys whose low bits straddle two words, at every number of low bits', () => {
    // One key a span: L runs 31 down to 0 as the sets grow denser, and key i's low bits start at bit i * L.
    for (let L = 0; L <= 31; L++) {
      const n = 37;
      const span = Math.min(2 ** 32, n * 2 ** L + 2 ** L);
      const keys = randomSet(n, 100 + L, span);
      const encoded = encodeFeatureSet(keys);
      expect(decodeFeatureSet(encoded)).toEqual(keys);
    }
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
