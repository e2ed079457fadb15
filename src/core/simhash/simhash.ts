/**
 * Charikar's SimHash from given feature hashes and weights at any width up to 64 bits, and exact
 * Jaccard similarity of two feature sets. The fingerprinter computes the same sums in a faster,
 * fused form; these are the plain definitions it is tested against.
 */

/** A fingerprint as uint32 halves; for widths <= 32 only `lo` is used. */
export type Halves = { hi: number; lo: number };

/**
 * SimHash of features with the given hashes (uint32 halves; `hashesHi` may be all zero for widths
 * <= 32) and weights: for each bit i below `bits`, add +w where the feature's bit i is 1 and -w where
 * it is 0; bit i of the result is 1 iff the sum is > 0 (a tie gives 0, as in simhash-py).
 */
export function simhashFromHashes(
  hashesHi: ArrayLike<number>,
  hashesLo: ArrayLike<number>,
  weights: ArrayLike<number>,
  bits = 64,
): Halves {
  if (!Number.isInteger(bits) || bits < 1 || bits > 64) throw new RangeError(`bits must be in 1..64, got ${bits}`);
  if (hashesHi.length !== hashesLo.length || hashesLo.length !== weights.length) {
    throw new RangeError('hashesHi, hashesLo and weights must have the same length');
  }
  const sums = new Float64Array(bits);
  for (let f = 0; f < weights.length; f++) {
    const w = weights[f];
    const hi = hashesHi[f] >>> 0;
    const lo = hashesLo[f] >>> 0;
    for (let i = 0; i < bits; i++) {
      const bit = i < 32 ? (lo >>> i) & 1 : (hi >>> (i - 32)) & 1;
      sums[i] += bit ? w : -w;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < bits; i++) {
    if (sums[i] > 0) {
      if (i < 32) lo |= 1 << i;
      else hi |= 1 << (i - 32);
    }
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

/**
 * |A ∩ B| of two sorted, duplicate-free uint32 sets: one merge pass, no allocation, whose steps are
 * counted without branching on the comparison (a CPU predicts that branch no better than a coin toss
 * on hashed keys: twice as fast as the branching merge on the 20,000-file bench's feature sets).
 */
export function intersectionSize(a: Uint32Array, b: Uint32Array): number {
  const na = a.length;
  const nb = b.length;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < na && j < nb) {
    const x = a[i]!;
    const y = b[j]!;
    common += +(x === y);
    i += +(x <= y);
    j += +(y <= x);
  }
  return common;
}

/**
 * The flag bit of a count `intersectionAtLeast` stopped early: |A ∩ B| is below the count asked for,
 * and the value without this bit is an upper bound of it (still below).
 */
export const COUNT_BELOW = 0x80000000;
/** Blocks of four keys a set between two checks of the early stop (the kernel's, kernels/set-jaccard.ts, is the same). */
const BELOW_CHECK_BLOCKS = 16;
/** Merge steps between two checks once either set has fewer than four keys left (the kernel's too). */
const BELOW_CHECK_STEPS = 64;

/**
 * |A ∩ B| of two sorted, duplicate-free uint32 sets when it is at least `need`; otherwise
 * `COUNT_BELOW | bound`, bound < need an upper bound of it, returned as soon as the common keys so far
 * plus the fewer keys either set has left fall below `need`: a containment check stops there, since
 * only pairs at or above its threshold need the exact count. The merge is the WebAssembly kernel's
 * (`containmentPairs`, which gives the same values: tests say so): four keys of each set at a time, all
 * sixteen compared, the block with the smaller last key moving on (both on a tie), the early stop
 * checked every 16 blocks; then, with fewer than four keys left in either set, one key at a time,
 * checked every 64 steps. `work`, when given, counts the keys the merge passed over
 * (bench/containment-work.ts).
 */
export function intersectionAtLeast(a: Uint32Array, b: Uint32Array, need: number, work?: { keys: number }): number {
  let i = 0;
  let j = 0;
  let common = 0;
  for (;;) {
    const left = Math.min(a.length - i, b.length - j);
    if (common + left < need) {
      if (work) work.keys += i + j;
      return (COUNT_BELOW | (common + left)) >>> 0;
    }
    // Each block takes at most four keys of each set: neither runs out within left / 4 of them.
    const blocks = Math.min(left >>> 2, BELOW_CHECK_BLOCKS);
    if (blocks === 0) break;
    for (let s = 0; s < blocks; s++) {
      const a0 = a[i]!, a1 = a[i + 1]!, a2 = a[i + 2]!, a3 = a[i + 3]!;
      const b0 = b[j]!, b1 = b[j + 1]!, b2 = b[j + 2]!, b3 = b[j + 3]!;
      common +=
        +(a0 === b0) + +(a0 === b1) + +(a0 === b2) + +(a0 === b3) +
        +(a1 === b0) + +(a1 === b1) + +(a1 === b2) + +(a1 === b3) +
        +(a2 === b0) + +(a2 === b1) + +(a2 === b2) + +(a2 === b3) +
        +(a3 === b0) + +(a3 === b1) + +(a3 === b2) + +(a3 === b3);
      i += a3 <= b3 ? 4 : 0;
      j += b3 <= a3 ? 4 : 0;
    }
  }
  for (;;) {
    const left = Math.min(a.length - i, b.length - j);
    const below = common + left < need;
    if ((below || left === 0) && work) work.keys += i + j;
    if (below) return (COUNT_BELOW | (common + left)) >>> 0;
    if (left === 0) return common;
    // Neither set runs out within `left` steps: each step takes at most one key of each.
    for (let s = Math.min(left, BELOW_CHECK_STEPS); s > 0; s--) {
      const x = a[i]!;
      const y = b[j]!;
      common += +(x === y);
      i += +(x <= y);
      j += +(y <= x);
    }
  }
}

/**
 * Exact Jaccard similarity |A ∩ B| / |A ∪ B| of two feature sets given as sorted arrays of distinct
 * uint32 keys (as `Fingerprinter.featureSet` returns). Two empty sets count as identical (1).
 */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  const common = intersectionSize(a, b);
  const union = a.length + b.length - common;
  return union === 0 ? 1 : common / union;
}
