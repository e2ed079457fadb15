import { describe, expect, it } from 'vitest';
import { jaccard, simhashFromHashes } from '../../../../src/core/simhash/simhash.ts';
import { hamming } from '../../../../src/core/simhash/fingerprint64.ts';

// The worked example of the SimHash guide: 4-bit feature hashes, TF weights.
const HASH4: Record<string, number> = {
  the: 0b1101, quick: 0b1010, brown: 0b1001, fox: 0b1111, jumps: 0b0110,
  over: 0b1011, lazy: 0b1100, dog: 0b0101, fast: 0b0011, a: 0b0111,
};

function simhash4(text: string): number {
  const tf = new Map<string, number>();
  for (const w of text.split(' ')) tf.set(w, (tf.get(w) ?? 0) + 1);
  const words = [...tf.keys()];
  const r = simhashFromHashes(
    words.map(() => 0),
    words.map((w) => HASH4[w]),
    words.map((w) => tf.get(w)!),
    4,
  );
  expect(r.hi).toBe(0);
  return r.lo;
}

describe('simhashFromHashes', () => {
  it('reproduces the worked example with the hashes as given: 1101 and 1111', () => {
    const a = simhash4('the quick brown fox jumps over the lazy dog');
    const b = simhash4('the fast brown fox jumps over a lazy dog');
    // Sentence 1, bits 3..0, "the" counted twice: +5, +3, -1, +3 → 1101, as the guide says.
    expect(a).toBe(0b1101);
    // Sentence 2 (every word once): bit 3 is set in the, brown, fox, over, lazy (5 of 9 words),
    // so its sum is +1 and the bit is 1; bits 2..0 sum to +3, +1, +5. The guide prints 0111
    // (distance 2), which these hashes cannot give: it needs fox = 0111 (see the next test).
    expect(b).toBe(0b1111);
    expect(hamming(0, a, 0, b)).toBe(1);
  });

  it('gives the guide\'s printed 0111 and distance 2 when fox hashes to 0111', () => {
    const saved = HASH4.fox;
    HASH4.fox = 0b0111;
    try {
      const a = simhash4('the quick brown fox jumps over the lazy dog');
      const b = simhash4('the fast brown fox jumps over a lazy dog');
      expect(a).toBe(0b1101);
      expect(b).toBe(0b0111);
      expect(hamming(0, a, 0, b)).toBe(2);
    } finally {
      HASH4.fox = saved;
    }
  });

  it('gives 0 on a tie (sum exactly 0), as simhash-py does', () => {
    // bit 0: +1 -1 = 0 → 0; bit 1: +1 +1 → 1
    expect(simhashFromHashes([0, 0], [0b11, 0b10], [1, 1], 2).lo).toBe(0b10);
  });

  it('handles the high half and all 64 bits', () => {
    const r = simhashFromHashes([0x80000001], [0xfffffffe], [3], 64);
    expect(r).toEqual({ hi: 0x80000001, lo: 0xfffffffe });
  });

  it('is independent of the order of the features (same multiset, same fingerprint)', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const his = Array.from({ length: 60 }, next);
    const los = Array.from({ length: 60 }, next);
    const ws = Array.from({ length: 60 }, () => (next() % 5) + 1);
    const base = simhashFromHashes(his, los, ws);
    for (let trial = 0; trial < 20; trial++) {
      const order = his.map((_, i) => i).sort(() => (next() & 1 ? 1 : -1));
      const r = simhashFromHashes(order.map((i) => his[i]), order.map((i) => los[i]), order.map((i) => ws[i]));
      expect(r).toEqual(base);
    }
  });

  it('rejects bad widths and mismatched lengths', () => {
    expect(() => simhashFromHashes([], [], [], 0)).toThrow(RangeError);
    expect(() => simhashFromHashes([], [], [], 65)).toThrow(RangeError);
    expect(() => simhashFromHashes([1], [1, 2], [1])).toThrow(RangeError);
  });
});

describe('jaccard', () => {
  it('computes |A∩B| / |A∪B| on sorted sets', () => {
    expect(jaccard(Uint32Array.of(1, 2, 3, 4), Uint32Array.of(3, 4, 5, 6))).toBeCloseTo(2 / 6);
    expect(jaccard(Uint32Array.of(1, 2), Uint32Array.of(1, 2))).toBe(1);
    expect(jaccard(Uint32Array.of(1, 2), Uint32Array.of(3))).toBe(0);
    expect(jaccard(Uint32Array.of(), Uint32Array.of(3))).toBe(0);
    expect(jaccard(Uint32Array.of(), Uint32Array.of())).toBe(1);
    expect(jaccard(Uint32Array.of(0, 0xffffffff), Uint32Array.of(0xffffffff))).toBe(0.5);
  });
});
