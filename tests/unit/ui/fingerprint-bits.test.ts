import { describe, expect, it } from 'vitest';
import { differingBits, fingerprintBits } from '../../../src/ui/bit-diff/fingerprint-bits.ts';
import { hamming } from '../../../src/core/simhash/fingerprint64.ts';

describe('fingerprintBits', () => {
  it('lists bits most significant first', () => {
    const bits = fingerprintBits(0x80000001, 0x00000003);
    expect(bits[0]).toBe(1); // bit 63
    expect(bits[31]).toBe(1); // bit 32
    expect(bits[62]).toBe(1);
    expect(bits[63]).toBe(1); // bit 0
    expect(bits.reduce((a, b) => a + b, 0)).toBe(4);
  });
  it('names the differing bits, as many as the Hamming distance', () => {
    expect(differingBits(0x80000000, 1, 0, 0)).toEqual([63, 0]);
    const [ha, la, hb, lb] = [0xdeadbeef, 0x12345678, 0xdeadbeee, 0x92345670];
    expect(differingBits(ha, la, hb, lb).length).toBe(hamming(ha, la, hb, lb));
    expect(differingBits(5, 5, 5, 5)).toEqual([]);
  });
});
