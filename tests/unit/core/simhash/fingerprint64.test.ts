import { describe, expect, it } from 'vitest';
import {
  bitDiffMask,
  fromHalves,
  hamming,
  hammingBig,
  hiOf,
  loOf,
  parseHex,
  popcount32,
  similarityEstimate,
  toHex,
  type Fingerprint64,
} from '../../../../src/core/simhash/fingerprint64.ts';

const fp = (hex: string) => parseHex(hex)!;

describe('fingerprint64', () => {
  it('counts bits', () => {
    expect(popcount32(0)).toBe(0);
    expect(popcount32(0xffffffff)).toBe(32);
    expect(popcount32(0x80000001)).toBe(2);
    expect(popcount32(0x12345678)).toBe(13);
  });

  it('measures Hamming distance symmetrically, zero to itself', () => {
    const a = fp('ffffffffffffffff');
    const b = fp('0000000000000000');
    const c = fp('8000000000000001');
    expect(hammingBig(a, b)).toBe(64);
    expect(hammingBig(b, c)).toBe(2);
    expect(hammingBig(c, b)).toBe(2);
    expect(hammingBig(c, c)).toBe(0);
    expect(hamming(0xdeadbeef, 0x01234567, 0xdeadbeef, 0x01234566)).toBe(1);
  });

  it('round-trips halves and hex', () => {
    const f = fp('0123456789ABCDEF');
    expect(hiOf(f)).toBe(0x01234567);
    expect(loOf(f)).toBe(0x89abcdef);
    expect(fromHalves(0x01234567, 0x89abcdef)).toBe(f);
    expect(toHex(hiOf(f), loOf(f))).toBe('0123456789abcdef');
    expect(toHex(0, 1)).toBe('0000000000000001');
    expect(parseHex('123')).toBeNull();
    expect(parseHex('0123456789abcdeg')).toBeNull();
  });

  it('gives the differing bits and the cosine estimate', () => {
    expect(bitDiffMask(fp('00000000000000ff'), fp('000000000000000f'))).toBe(0xf0n as Fingerprint64);
    expect(similarityEstimate(0)).toBe(1);
    expect(similarityEstimate(32)).toBeCloseTo(0, 12);
    expect(similarityEstimate(64)).toBe(-1);
  });
});
