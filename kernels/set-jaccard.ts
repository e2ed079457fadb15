// Exact verification's inner loops (AssemblyScript, compiled to src/core/groups/set-jaccard-wasm.ts by
// bin/build-kernels.js): encoding and decoding a kept feature set (Elias-Fano: core/groups/feature-set-codec.ts) and
// the exact Jaccard of pairs of sorted, duplicate-free u32 sets by a branchless merge (a data-dependent
// branch per step mispredicts about half the time on hashed keys).

/**
 * Encodes the `n` (>= 1) sorted, distinct u32 keys at `keys` with `L` low bits a key (0..31, the codec's
 * choice) at `out`, in the codec's layout; returns the words written. Both parts are cleared first and
 * each key's bits ORed in: its low bits at bit i * L of the low part, one bit at (key >>> L) + i of the high part.
 */
export function encodeSet(keys: usize, n: u32, L: u32, out: usize): u32 {
  store<u32>(out, n);
  store<u32>(out, L, 4);
  const low = out + 8;
  const lowWords = <usize>((<u64>n * <u64>L + 31) >> 5);
  const high = low + (lowWords << 2);
  const last = load<u32>(keys + (<usize>(n - 1) << 2));
  const highWords = <usize>((<u64>(last >>> L) + <u64>n + 31) >> 5);
  memory.fill(low, 0, (lowWords + highWords) << 2);
  const mask: u64 = (<u64>1 << <u64>L) - 1;
  let lowBit: u64 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const key = load<u32>(keys + (<usize>i << 2));
    // Word-aligned u64: its upper word is at most the high part's first, and only zeros are ORed there.
    const at = low + (<usize>(lowBit >> 5) << 2);
    store<u64>(at, load<u64>(at) | ((<u64>key & mask) << (lowBit & 31)));
    lowBit += <u64>L;
    const bit = <usize>(key >>> L) + <usize>i;
    const word = high + ((bit >> 5) << 2);
    store<u32>(word, load<u32>(word) | (<u32>1 << <u32>(bit & 31)));
  }
  return <u32>(2 + lowWords + highWords);
}

/**
 * Decodes the encoded set at `src` (the codec's layout: word 0 the key count n, word 1 the low bits a
 * key L, the low part, then the high part) into n u32 keys at `dst`; returns n. Each set bit of the
 * high part is a key, in order: its place minus the keys before it is the key's high bits. Nothing
 * carries from key to key but the bit being cleared, and a key's low bits are read where it is (one
 * word-aligned u64: it ends at most at the high part's first word). Reads no word past the code.
 */
export function decodeSet(src: usize, dst: usize): u32 {
  const n = load<u32>(src);
  const L = load<u32>(src, 4);
  const low = src + 8;
  const lowWords = <usize>((<u64>n * <u64>L + 31) >> 5);
  let word = low + (lowWords << 2);
  const mask: u64 = (<u64>1 << <u64>L) - 1;
  let i: u32 = 0;
  // The high part's bit number of the current word's bit 0, less the keys decoded so far.
  let base: u32 = 0;
  let lowBit: u64 = 0;
  while (i < n) {
    let x = load<u32>(word);
    while (x != 0) {
      const hi = base + ctz<u32>(x);
      x &= x - 1;
      const lo = <u32>((load<u64>(low + (<usize>(lowBit >> 5) << 2)) >> (lowBit & 31)) & mask);
      store<u32>(dst + (<usize>i << 2), (hi << L) | lo);
      lowBit += <u64>L;
      base--;
      i++;
    }
    word += 4;
    base += 32;
  }
  return n;
}

/**
 * For each pair p of `count`: set a[p] and set b[p] (u32 indexes into `offsets`, whose entries s and
 * s + 1 bound set s among the u32 keys at `keys`), writes |A ∩ B| / |A ∪ B| as an f64 to out[p], 0
 * when either set is empty (as core jaccardSorted).
 */
export function jaccardPairs(keys: usize, offsets: usize, a: usize, b: usize, count: i32, out: usize): void {
  for (let p: i32 = 0; p < count; p++) {
    const sa = <usize>load<u32>(a + (<usize>p << 2)) << 2;
    const sb = <usize>load<u32>(b + (<usize>p << 2)) << 2;
    let i = keys + (<usize>load<u32>(offsets + sa) << 2);
    const ie = keys + (<usize>load<u32>(offsets + sa, 4) << 2);
    let j = keys + (<usize>load<u32>(offsets + sb) << 2);
    const je = keys + (<usize>load<u32>(offsets + sb, 4) << 2);
    const na = <u32>((ie - i) >> 2);
    const nb = <u32>((je - j) >> 2);
    let common: u32 = 0;
    if (na > 0 && nb > 0) {
      // Four keys of each set at a time (matchesOfFour); the block whose largest key is smaller moves
      // on (both when equal). The rest by the merge.
      while (i + 16 <= ie && j + 16 <= je) {
        common += matchesOfFour(i, j);
        const amax = load<u32>(i, 12);
        const bmax = load<u32>(j, 12);
        i += select<usize>(16, 0, amax <= bmax);
        j += select<usize>(16, 0, bmax <= amax);
      }
      while (i < ie && j < je) {
        const x = load<u32>(i);
        const y = load<u32>(j);
        common += <u32>(x == y);
        i += select<usize>(4, 0, x <= y);
        j += select<usize>(4, 0, y <= x);
      }
      store<f64>(out + (<usize>p << 3), <f64>common / <f64>(na + nb - common));
    } else store<f64>(out + (<usize>p << 3), 0);
  }
}

/**
 * How many of A's four keys at `i` are among B's four at `j`: A's block against B's and its three
 * rotations, counted from a lane mask (keys are distinct within a set, so none is counted twice).
 */
// @ts-ignore: decorator
@inline function matchesOfFour(i: usize, j: usize): u32 {
  const va = v128.load(i);
  const vb = v128.load(j);
  const r1 = i8x16.shuffle(vb, vb, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3);
  const r2 = i8x16.shuffle(vb, vb, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  const r3 = i8x16.shuffle(vb, vb, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
  const m = v128.or(v128.or(i32x4.eq(va, vb), i32x4.eq(va, r1)), v128.or(i32x4.eq(va, r2), i32x4.eq(va, r3)));
  return popcnt<u32>(i32x4.bitmask(m));
}

/** The flag bit of a containment count that stopped early (core/simhash/simhash.ts `COUNT_BELOW`). */
const BELOW: u32 = 0x80000000;
/** Blocks of four keys a set between two checks of the early stop (core `intersectionAtLeast` uses the same). */
const BLOCKS: usize = 16;
/** Merge steps between two checks once either set has fewer than four keys left (as core's). */
const BLOCK: usize = 64;

/**
 * For each pair p of `count` (sets as `jaccardPairs` names them): |A ∩ B| as a u32 at out[p] when it is
 * at least need[p]; else, as soon as it cannot be (the common keys so far plus the fewer keys either
 * set has left fall below need[p], checked every BLOCKS blocks), BELOW | that upper bound. The merge
 * takes four keys of each set at a time as `jaccardPairs` does, then the rest one at a time. The same
 * values as core `intersectionAtLeast`.
 */
export function containmentPairs(keys: usize, offsets: usize, a: usize, b: usize, need: usize, count: i32, out: usize): void {
  for (let p: i32 = 0; p < count; p++) {
    const sa = <usize>load<u32>(a + (<usize>p << 2)) << 2;
    const sb = <usize>load<u32>(b + (<usize>p << 2)) << 2;
    let i = keys + (<usize>load<u32>(offsets + sa) << 2);
    const ie = keys + (<usize>load<u32>(offsets + sa, 4) << 2);
    let j = keys + (<usize>load<u32>(offsets + sb) << 2);
    const je = keys + (<usize>load<u32>(offsets + sb, 4) << 2);
    const needed = load<u32>(need + (<usize>p << 2));
    let common: u32 = 0;
    let result: u32 = 0;
    let done = false;
    while (true) {
      const left = min<usize>(ie - i, je - j) >> 2;
      if (<usize>common + left < <usize>needed) {
        result = BELOW | (common + <u32>left);
        done = true;
        break;
      }
      // Each block takes at most four keys of each set: neither runs out within left / 4 of them.
      const blocks = min<usize>(left >> 2, BLOCKS);
      if (blocks == 0) break;
      for (let s: usize = 0; s < blocks; s++) {
        common += matchesOfFour(i, j);
        const amax = load<u32>(i, 12);
        const bmax = load<u32>(j, 12);
        i += select<usize>(16, 0, amax <= bmax);
        j += select<usize>(16, 0, bmax <= amax);
      }
    }
    while (!done) {
      const left = min<usize>(ie - i, je - j) >> 2;
      if (<usize>common + left < <usize>needed) {
        result = BELOW | (common + <u32>left);
        break;
      }
      if (left == 0) {
        result = common;
        break;
      }
      // Neither set runs out within `left` steps: each step takes at most one key of each.
      const steps = min<usize>(left, BLOCK);
      for (let s: usize = 0; s < steps; s++) {
        const x = load<u32>(i);
        const y = load<u32>(j);
        common += <u32>(x == y);
        i += select<usize>(4, 0, x <= y);
        j += select<usize>(4, 0, y <= x);
      }
    }
    store<u32>(out + (<usize>p << 2), result);
  }
}
