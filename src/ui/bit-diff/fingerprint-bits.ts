/** Bit-level view of two fingerprints for the bit diff: which bits are set and where they differ. */

/** The 64 bits of a fingerprint, most significant first (index 0 = bit 63), as 0/1. */
export function fingerprintBits(hi: number, lo: number): Uint8Array {
  const bits = new Uint8Array(64);
  for (let i = 0; i < 32; i++) {
    bits[i] = (hi >>> (31 - i)) & 1;
    bits[32 + i] = (lo >>> (31 - i)) & 1;
  }
  return bits;
}

/** Bit numbers (63 = most significant … 0) where two fingerprints differ, highest first. */
export function differingBits(hiA: number, loA: number, hiB: number, loB: number): number[] {
  const out: number[] = [];
  const x = (hiA ^ hiB) >>> 0;
  const y = (loA ^ loB) >>> 0;
  for (let b = 31; b >= 0; b--) if ((x >>> b) & 1) out.push(32 + b);
  for (let b = 31; b >= 0; b--) if ((y >>> b) & 1) out.push(b);
  return out;
}
