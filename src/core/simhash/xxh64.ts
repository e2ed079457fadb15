/**
 * XXH64 (seed 0) in plain JavaScript over 32-bit halves, bit-for-bit equal to xxhash-wasm's `h64`,
 * so feature hashes are the same in Node, workers and the CLI without waiting for WASM to load.
 *
 * 64-bit values live as (hi, lo) uint32 pairs; multiplication mod 2^64 is built from Math.imul and
 * exact 16x16-bit products, so no BigInt and no allocation happens per call. The result of the last
 * call is left in the exported `xxhOut` array (hi at 0, lo at 1) instead of returning an object.
 */

/** Result registers of the last `xxh64Range` call: [hi, lo] as uint32. Read right after the call. */
export const xxhOut = new Uint32Array(2);

// The five XXH64 primes, split into uint32 halves.
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

const MASK = (1n << 64n) - 1n;
const V1 = (0x9e3779b185ebca87n + 0xc2b2ae3d27d4eb4fn) & MASK;
const V4 = (0n - 0x9e3779b185ebca87n) & MASK;
const V1H = Number(V1 >> 32n), V1L = Number(V1 & 0xffffffffn);
const V4H = Number(V4 >> 32n), V4L = Number(V4 & 0xffffffffn);

// Scratch registers for mul64: module-level numbers keep the helpers allocation-free.
let rH = 0;
let rL = 0;

/** (aH,aL) * (bH,bL) mod 2^64 → (rH, rL). */
function mul64(aH: number, aL: number, bH: number, bL: number): void {
  const a0 = aL & 0xffff, a1 = aL >>> 16, b0 = bL & 0xffff, b1 = bL >>> 16;
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  // High word of the 32x32 product aL*bL; every intermediate is an exact double below 2^34.
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const hiLL = p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  rL = Math.imul(aL, bL) >>> 0;
  rH = (hiLL + Math.imul(aH, bL) + Math.imul(aL, bH)) >>> 0;
}

/** XXH64 round(acc, input) = rotl(acc + input * P2, 31) * P1 → (rH, rL). */
function round(accH: number, accL: number, inH: number, inL: number): void {
  mul64(inH, inL, P2H, P2L);
  const sl = accL + rL;
  const sh = (accH + rH + (sl > 0xffffffff ? 1 : 0)) >>> 0;
  const l = sl >>> 0;
  // rotl 31
  const th = ((sh << 31) | (l >>> 1)) >>> 0;
  const tl = ((l << 31) | (sh >>> 1)) >>> 0;
  mul64(th, tl, P1H, P1L);
}

/**
 * High 32 bits of the 64-bit product of uint32 x and a uint32 constant given as 16-bit halves c1:c0
 * (schoolbook on 16-bit limbs: every partial product is an exact integer below 2^32; measured faster
 * in V8 than recovering the high word from a rounded double product).
 */
function mulhi(x: number, c0: number, c1: number): number {
  const x0 = x & 0xffff;
  const x1 = x >>> 16;
  const n1 = x0 * c1;
  const n2 = x1 * c0;
  const mid = ((x0 * c0) >>> 16) + (n1 & 0xffff) + (n2 & 0xffff);
  return x1 * c1 + (n1 >>> 16) + (n2 >>> 16) + (mid >>> 16);
}

const P1L0 = P1L & 0xffff, P1L1 = P1L >>> 16;
const P2L0 = P2L & 0xffff, P2L1 = P2L >>> 16;
const P3L0 = P3L & 0xffff, P3L1 = P3L >>> 16;

/** byte * P5 mod 2^64 for every byte value, as halves (the tail loop looks them up). */
const BYTE_P5_HI = new Uint32Array(256);
const BYTE_P5_LO = new Uint32Array(256);
for (let x = 0; x < 256; x++) {
  const v = (BigInt(x) * ((BigInt(P5H) << 32n) | BigInt(P5L))) & MASK;
  BYTE_P5_HI[x] = Number(v >> 32n);
  BYTE_P5_LO[x] = Number(v & 0xffffffffn);
}

/**
 * XXH64 with seed 0 of `bytes[start..end)`. The hash is written to `xxhOut` ([hi, lo]).
 * `view` must be a DataView over exactly the bytes of `bytes` (same buffer, offset and length).
 * Inputs under 32 bytes (nearly every feature) take an inlined path with all state in locals;
 * longer ones go through the general stripe loop.
 */
export function xxh64Range(bytes: Uint8Array, view: DataView, start: number, end: number): void {
  if (end - start >= 32) {
    xxh64Long(bytes, view, start, end);
    return;
  }
  let p = start;
  // h = P5 + len
  let hL = P5L + (end - start);
  let hH = (P5H + (hL > 0xffffffff ? 1 : 0)) >>> 0;
  hL >>>= 0;
  let tH = 0, tL = 0, kH = 0, kL = 0, s = 0;
  while (p + 8 <= end) {
    const inL = view.getUint32(p, true);
    const inH = view.getUint32(p + 4, true);
    // k = rotl(in * P2, 31) * P1
    kL = Math.imul(inL, P2L) >>> 0;
    kH = (mulhi(inL, P2L0, P2L1) + Math.imul(inH, P2L) + Math.imul(inL, P2H)) >>> 0;
    tH = ((kH << 31) | (kL >>> 1)) >>> 0;
    tL = ((kL << 31) | (kH >>> 1)) >>> 0;
    kL = Math.imul(tL, P1L) >>> 0;
    kH = (mulhi(tL, P1L0, P1L1) + Math.imul(tH, P1L) + Math.imul(tL, P1H)) >>> 0;
    // h = rotl(h ^ k, 27) * P1 + P4
    hH = (hH ^ kH) >>> 0;
    hL = (hL ^ kL) >>> 0;
    tH = ((hH << 27) | (hL >>> 5)) >>> 0;
    tL = ((hL << 27) | (hH >>> 5)) >>> 0;
    kL = Math.imul(tL, P1L) >>> 0;
    s = kL + P4L;
    hH = (mulhi(tL, P1L0, P1L1) + Math.imul(tH, P1L) + Math.imul(tL, P1H) + P4H + (s > 0xffffffff ? 1 : 0)) >>> 0;
    hL = s >>> 0;
    p += 8;
  }
  if (p + 4 <= end) {
    // h = rotl(h ^ (u32 * P1), 23) * P2 + P3
    const x = view.getUint32(p, true);
    kL = Math.imul(x, P1L) >>> 0;
    hL = (hL ^ kL) >>> 0;
    hH = (hH ^ (mulhi(x, P1L0, P1L1) + Math.imul(x, P1H))) >>> 0;
    tH = ((hH << 23) | (hL >>> 9)) >>> 0;
    tL = ((hL << 23) | (hH >>> 9)) >>> 0;
    kL = Math.imul(tL, P2L) >>> 0;
    s = kL + P3L;
    hH = (mulhi(tL, P2L0, P2L1) + Math.imul(tH, P2L) + Math.imul(tL, P2H) + P3H + (s > 0xffffffff ? 1 : 0)) >>> 0;
    hL = s >>> 0;
    p += 4;
  }
  while (p < end) {
    // h = rotl(h ^ (byte * P5), 11) * P1
    const x = bytes[p];
    hL = (hL ^ BYTE_P5_LO[x]) >>> 0;
    hH = (hH ^ BYTE_P5_HI[x]) >>> 0;
    tH = ((hH << 11) | (hL >>> 21)) >>> 0;
    tL = ((hL << 11) | (hH >>> 21)) >>> 0;
    hL = Math.imul(tL, P1L) >>> 0;
    hH = (mulhi(tL, P1L0, P1L1) + Math.imul(tH, P1L) + Math.imul(tL, P1H)) >>> 0;
    p++;
  }
  // Avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  hL = (hL ^ (hH >>> 1)) >>> 0;
  tL = Math.imul(hL, P2L) >>> 0;
  tH = (mulhi(hL, P2L0, P2L1) + Math.imul(hH, P2L) + Math.imul(hL, P2H)) >>> 0;
  hL = (tL ^ ((tL >>> 29) | (tH << 3))) >>> 0;
  hH = (tH ^ (tH >>> 29)) >>> 0;
  tL = Math.imul(hL, P3L) >>> 0;
  tH = (mulhi(hL, P3L0, P3L1) + Math.imul(hH, P3L) + Math.imul(hL, P3H)) >>> 0;
  xxhOut[0] = tH;
  xxhOut[1] = (tL ^ tH) >>> 0;
}

/** The general XXH64 (any length; used for inputs of 32 bytes and more). */
function xxh64Long(bytes: Uint8Array, view: DataView, start: number, end: number): void {
  const len = end - start;
  let p = start;
  let hH: number, hL: number;
  if (len >= 32) {
    // v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1 (all mod 2^64)
    let v1H = V1H, v1L = V1L;
    let v2H = P2H, v2L = P2L;
    let v3H = 0, v3L = 0;
    let v4H = V4H, v4L = V4L;
    const limit = end - 32;
    do {
      round(v1H, v1L, view.getUint32(p + 4, true), view.getUint32(p, true));
      v1H = rH; v1L = rL;
      round(v2H, v2L, view.getUint32(p + 12, true), view.getUint32(p + 8, true));
      v2H = rH; v2L = rL;
      round(v3H, v3L, view.getUint32(p + 20, true), view.getUint32(p + 16, true));
      v3H = rH; v3L = rL;
      round(v4H, v4L, view.getUint32(p + 28, true), view.getUint32(p + 24, true));
      v4H = rH; v4L = rL;
      p += 32;
    } while (p <= limit);
    // h = rotl(v1,1) + rotl(v2,7) + rotl(v3,12) + rotl(v4,18)
    let sL = 0, sH = 0, t = 0;
    t = ((v1L << 1) | (v1H >>> 31)) >>> 0; sL += t; sH += ((v1H << 1) | (v1L >>> 31)) >>> 0;
    t = ((v2L << 7) | (v2H >>> 25)) >>> 0; sL += t; sH += ((v2H << 7) | (v2L >>> 25)) >>> 0;
    t = ((v3L << 12) | (v3H >>> 20)) >>> 0; sL += t; sH += ((v3H << 12) | (v3L >>> 20)) >>> 0;
    t = ((v4L << 18) | (v4H >>> 14)) >>> 0; sL += t; sH += ((v4H << 18) | (v4L >>> 14)) >>> 0;
    hH = (sH + Math.floor(sL / 4294967296)) >>> 0;
    hL = sL >>> 0;
    // mergeRound(h, v) = (h ^ round(0, v)) * P1 + P4, for v1..v4
    round(0, 0, v1H, v1L); hH ^= rH; hL ^= rL; mul64(hH >>> 0, hL >>> 0, P1H, P1L);
    sL = rL + P4L; hH = (rH + P4H + (sL > 0xffffffff ? 1 : 0)) >>> 0; hL = sL >>> 0;
    round(0, 0, v2H, v2L); hH ^= rH; hL ^= rL; mul64(hH >>> 0, hL >>> 0, P1H, P1L);
    sL = rL + P4L; hH = (rH + P4H + (sL > 0xffffffff ? 1 : 0)) >>> 0; hL = sL >>> 0;
    round(0, 0, v3H, v3L); hH ^= rH; hL ^= rL; mul64(hH >>> 0, hL >>> 0, P1H, P1L);
    sL = rL + P4L; hH = (rH + P4H + (sL > 0xffffffff ? 1 : 0)) >>> 0; hL = sL >>> 0;
    round(0, 0, v4H, v4L); hH ^= rH; hL ^= rL; mul64(hH >>> 0, hL >>> 0, P1H, P1L);
    sL = rL + P4L; hH = (rH + P4H + (sL > 0xffffffff ? 1 : 0)) >>> 0; hL = sL >>> 0;
  } else {
    hH = P5H;
    hL = P5L;
  }
  // h += len (len < 2^32)
  let s = hL + len;
  hH = (hH + (s > 0xffffffff ? 1 : 0)) >>> 0;
  hL = s >>> 0;
  while (p + 8 <= end) {
    round(0, 0, view.getUint32(p + 4, true), view.getUint32(p, true));
    hH = (hH ^ rH) >>> 0;
    hL = (hL ^ rL) >>> 0;
    // h = rotl(h, 27) * P1 + P4
    const th = ((hH << 27) | (hL >>> 5)) >>> 0;
    const tl = ((hL << 27) | (hH >>> 5)) >>> 0;
    mul64(th, tl, P1H, P1L);
    s = rL + P4L;
    hH = (rH + P4H + (s > 0xffffffff ? 1 : 0)) >>> 0;
    hL = s >>> 0;
    p += 8;
  }
  if (p + 4 <= end) {
    // h ^= u32 * P1; h = rotl(h, 23) * P2 + P3
    mul64(0, view.getUint32(p, true), P1H, P1L);
    hH = (hH ^ rH) >>> 0;
    hL = (hL ^ rL) >>> 0;
    const th = ((hH << 23) | (hL >>> 9)) >>> 0;
    const tl = ((hL << 23) | (hH >>> 9)) >>> 0;
    mul64(th, tl, P2H, P2L);
    s = rL + P3L;
    hH = (rH + P3H + (s > 0xffffffff ? 1 : 0)) >>> 0;
    hL = s >>> 0;
    p += 4;
  }
  while (p < end) {
    // h ^= byte * P5; h = rotl(h, 11) * P1
    mul64(0, bytes[p], P5H, P5L);
    hH = (hH ^ rH) >>> 0;
    hL = (hL ^ rL) >>> 0;
    const th = ((hH << 11) | (hL >>> 21)) >>> 0;
    const tl = ((hL << 11) | (hH >>> 21)) >>> 0;
    mul64(th, tl, P1H, P1L);
    hH = rH;
    hL = rL;
    p++;
  }
  // Avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  hL = (hL ^ (hH >>> 1)) >>> 0;
  mul64(hH, hL, P2H, P2L);
  hH = rH;
  hL = (rL ^ ((rL >>> 29) | (rH << 3))) >>> 0;
  hH = (hH ^ (hH >>> 29)) >>> 0;
  mul64(hH, hL, P3H, P3L);
  xxhOut[0] = rH;
  xxhOut[1] = (rL ^ rH) >>> 0;
}

/** XXH64 (seed 0) of a whole byte array, as [hi, lo] uint32 halves (a fresh pair; not for hot loops). */
export function xxh64Bytes(bytes: Uint8Array): [number, number] {
  xxh64Range(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.length);
  return [xxhOut[0], xxhOut[1]];
}

const encoder = new TextEncoder();

/** XXH64 (seed 0) of a string's UTF-8 bytes, as a bigint (same value as xxhash-wasm's `h64`). */
export function xxh64String(text: string): bigint {
  const [hi, lo] = xxh64Bytes(encoder.encode(text));
  return (BigInt(hi) << 32n) | BigInt(lo);
}
