/**
 * The 64-bit fingerprint type and its bit arithmetic. Hot paths keep fingerprints as two uint32
 * halves (hi, lo) in typed arrays; `Fingerprint64` (a branded bigint) is for the edges only:
 * display, storage keys, the CLI.
 */

/** A 64-bit SimHash fingerprint as an unsigned bigint. Never used in inner loops. */
export type Fingerprint64 = bigint & { readonly __brand: 'Fingerprint64' };

const MASK64 = (1n << 64n) - 1n;

/** Number of set bits in a 32-bit integer (SWAR; no loop, no allocation). */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Hamming distance between two fingerprints given as halves. */
export function hamming(hiA: number, loA: number, hiB: number, loB: number): number {
  return popcount32((hiA ^ hiB) >>> 0) + popcount32((loA ^ loB) >>> 0);
}

/** Hamming distance between two bigint fingerprints (edges only). */
export function hammingBig(a: Fingerprint64, b: Fingerprint64): number {
  return hamming(hiOf(a), loOf(a), hiOf(b), loOf(b));
}

/** The bits where two fingerprints differ (a XOR b). */
export function bitDiffMask(a: Fingerprint64, b: Fingerprint64): Fingerprint64 {
  return ((a ^ b) & MASK64) as Fingerprint64;
}

/** Charikar's estimate of the cosine similarity of two documents from their distance: cos(pi*d/64). */
export function similarityEstimate(distance: number, bits = 64): number {
  return Math.cos((Math.PI * distance) / bits);
}

/** High 32 bits of a fingerprint, as an unsigned number. */
export function hiOf(f: Fingerprint64 | bigint): number {
  return Number((f >> 32n) & 0xffffffffn);
}

/** Low 32 bits of a fingerprint, as an unsigned number. */
export function loOf(f: Fingerprint64 | bigint): number {
  return Number(f & 0xffffffffn);
}

/** Joins two uint32 halves into a fingerprint. */
export function fromHalves(hi: number, lo: number): Fingerprint64 {
  return ((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)) as Fingerprint64;
}

/** 16 lowercase hex digits, zero-padded. */
export function toHex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/** Parses exactly 16 hex digits (either case); returns null for anything else. */
export function parseHex(text: string): Fingerprint64 | null {
  if (!/^[0-9a-fA-F]{16}$/.test(text)) return null;
  return BigInt('0x' + text) as Fingerprint64;
}
