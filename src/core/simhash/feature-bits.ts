/**
 * From the tokenized document to its bits: the features hashed by the kernel, deduped and counted
 * per bit (binary and tf in the kernel, large documents in cache-sized partitions), tf-idf weights
 * summed per hash byte, and the distinct low halves that make a feature set.
 */
import type { FingerprintKernel } from './fingerprint-kernel.ts';
import { layout, type Engine } from './fingerprint-engine.ts';
import { inverseDocumentFrequency, type DocumentFrequencyTable } from './document-frequencies.ts';

/** Slots of a dedupe table for `count` features: a power of two, at least twice the count (<= 50% load). */
export function tableBitsFor(count: number): number {
  let bits = 8;
  while (1 << bits < count * 2) bits++;
  return bits;
}

/** Sizes the distinct-feature table for `count` features at <= 50% load and starts a new document in it. */
export function resetTable(e: Engine, count: number): void {
  const bits = tableBitsFor(count);
  if (bits > e.tableBits) {
    e.tableBits = bits;
    e.table = new Uint32Array(4 << bits);
    e.docStamp = 0;
  }
  e.tableMask = (1 << bits) - 1;
  e.docStamp++;
  if (e.docStamp === 0xffffffff) {
    e.table.fill(0);
    e.docStamp = 1;
  }
}

/** Hashes features f = buf[starts[f], endArr[f + endOffset]) for f < count into e.hashes, in one call to the kernel. */
export function hashFeatures(e: Engine, count: number, endArr: Int32Array, endOffset: number): void {
  e.kernel.hash(e.starts.byteOffset, endArr.byteOffset + 4 * endOffset, count, e.hashes.byteOffset);
}

/**
 * Hashes features f = buf[starts[f], endArr[f + endOffset]) for f < count (endArr: starts in char
 * mode, else ends) and adds their bits to
 * e.bitCounts (with `dedupe`, each distinct feature once) with the kernel's `hash` and `tally`
 * (byte-sliced i64 counters). Returns how many features counted.
 */
export function hashAndCount(e: Engine, count: number, charMode: boolean, endOffset: number, dedupe: boolean): number {
  const kernel = e.kernel;
  // The table is sized for the largest document so far; this document uses a part sized for it.
  const bits = tableBitsFor(count);
  if (dedupe && bits > e.tallyBits) layout(e, 0, 0, true, bits);
  const partitioned = dedupe && count > PARTITION_ABOVE && e.tokCap >= count;
  // This document's part of the table starts empty (zeroing 16 bytes per feature beats stamping every slot).
  if (dedupe && !partitioned) new Uint8Array(e.memory, e.tallyPtr, 8 << bits).fill(0);
  const counters = e.counters;
  counters.fill(0);
  const endArr = charMode ? e.starts : e.ends;
  kernel.hash(e.starts.byteOffset, endArr.byteOffset + 4 * endOffset, count, e.hashes.byteOffset);
  const total = partitioned
      ? tallyPartitioned(e, kernel, count)
      : kernel.tally(e.hashes.byteOffset, count, e.tallyPtr, (1 << bits) - 1, counters.byteOffset, dedupe ? 1 : 0);
  const bitCounts = e.bitCounts;
  for (let i = 0; i < 64; i++) bitCounts[i] += counters[i];
  return total;
}

/** Documents with more features than this dedupe them in partitions (see `tallyPartitioned`). */
const PARTITION_ABOVE = 1 << 16;
/** Features per partition aimed at: its dedupe table (2x, 8 bytes a slot) then stays within 256 KB. */
const PARTITION_SIZE = 1 << 14;

/**
 * Dedupes and counts a large document's hashes (already in e.hashes) partition by partition: the
 * hashes are grouped by their top bits into the token arrays (free once the features are hashed),
 * then each group is tallied with a table sized for it, which stays in cache, instead of probing
 * one table of 16 bytes per feature at random. Equal hashes fall in the same group, so the
 * distinct features and their bits are the same. Returns how many features counted.
 */
export function tallyPartitioned(e: Engine, kernel: FingerprintKernel, count: number): number {
  let p = 1;
  while (count >>> p > PARTITION_SIZE && p < 16) p++;
  const shift = 32 - p;
  const hashes = e.hashes;
  const sizes = new Int32Array((1 << p) + 1);
  for (let f = 0; f < count; f++) sizes[(hashes[2 * f + 1] >>> shift) + 1]++;
  for (let k = 1; k <= 1 << p; k++) sizes[k] += sizes[k - 1]; // sizes[k] = where group k starts
  const groupStart = sizes.slice();
  const grouped = new Uint32Array(e.memory, e.starts.byteOffset, 2 * count);
  for (let f = 0; f < count; f++) {
    const hi = hashes[2 * f + 1];
    const at = 2 * sizes[hi >>> shift]++;
    grouped[at] = hashes[2 * f];
    grouped[at + 1] = hi;
  }
  const table = new Uint8Array(e.memory, e.tallyPtr, 8 << e.tallyBits);
  let total = 0;
  for (let k = 0; k < 1 << p; k++) {
    const n = groupStart[k + 1] - groupStart[k];
    if (n === 0) continue;
    const bits = tableBitsFor(n);
    table.fill(0, 0, 8 << bits);
    total += kernel.tally(grouped.byteOffset + 8 * groupStart[k], n, e.tallyPtr, (1 << bits) - 1, e.counters.byteOffset, 1);
  }
  return total;
}

/**
 * counts[8 j + b] += the sum of buckets[256 j + v] over the byte values v with bit b set, by folding
 * each 256-bucket row in halves: the upper half's sum is bit 7's count, then the upper half is
 * added onto the lower one (bit 7 no longer matters) and bit 6 comes from the new upper half, and
 * so on: 255 additions per row instead of 8 per bucket. Leaves the buckets scrambled.
 */
export function spreadBuckets(buckets: Uint32Array | Float64Array, counts: Float64Array): void {
  for (let j = 0; j < 8; j++) {
    const row = 256 * j;
    for (let half = 128, bit = 7; half >= 1; half >>= 1, bit--) {
      let sum = 0;
      for (let u = 0; u < half; u++) {
        const x = buckets[row + half + u];
        sum += x;
        buckets[row + u] += x;
      }
      counts[8 * j + bit] += sum;
    }
  }
}

/**
 * Records every hashed feature in the distinct-feature table only (for tf-idf and feature sets),
 * listing the slots it fills in e.used; returns how many distinct features there are.
 */
export function tableFeatures(e: Engine, count: number): number {
  const hashes = e.hashes;
  const table = e.table;
  const mask = e.tableMask;
  const ds = e.docStamp;
  if (e.used.length < count) e.used = new Int32Array(Math.max(count, 2 * e.used.length));
  const used = e.used;
  let distinct = 0;
  for (let f = 0; f < count; f++) {
    const lo = hashes[2 * f];
    const hi = hashes[2 * f + 1];
    let slot = (lo & mask) << 2;
    for (;;) {
      if (table[slot] !== ds) {
        table[slot] = ds;
        table[slot + 1] = hi;
        table[slot + 2] = lo;
        table[slot + 3] = 1;
        used[distinct++] = slot;
        break;
      }
      if (table[slot + 2] === lo && table[slot + 1] === hi) {
        table[slot + 3]++;
        break;
      }
      slot = (slot + 4) & ((mask << 2) | 3);
    }
  }
  return distinct;
}

/** The last fingerprint's halves, [hi, lo] (set by `signBits`; no array per document). */
export const bitsOut = new Uint32Array(2);

/** Bit i set iff its count (or weight) is more than half the total, i.e. (with bit i) - (without) > 0. */
export function signBits(c: Float64Array, total: number): void {
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 32; i++) {
    if (2 * c[i] > total) lo |= 1 << i;
    if (2 * c[i + 32] > total) hi |= 1 << i;
  }
  bitsOut[0] = hi >>> 0;
  bitsOut[1] = lo >>> 0;
}

/** TF-IDF weights are rounded to multiples of 2^-20 so that float sums are exact. */
const WEIGHT_SCALE = 1 << 20;

/**
 * TF-IDF weights for the distinct features `tableFeatures` listed, summed per bit into e.bitCounts
 * without 64 additions per feature: each feature's weight is added to one of 256 buckets per hash
 * byte (8 additions), and only then spread over the bits of each bucket's byte value. Weights are
 * integers (WEIGHT_SCALE), so the sums are exact in any order. Returns the total weight.
 */
export function createTfidfSums(df: DocumentFrequencyTable): (e: Engine, distinct: number) => number {
  // idf by document frequency, memoized for the common small frequencies (Math.log per feature is slow).
  const idfCache = new Float64Array(4096).fill(-1);
  const idfOf = (f: number): number => {
    if (f < 4096) {
      const cached = idfCache[f];
      if (cached >= 0) return cached;
      return (idfCache[f] = inverseDocumentFrequency(df.documents, f));
    }
    return inverseDocumentFrequency(df.documents, f);
  };
  const byteSums = new Float64Array(8 * 256);
  return (e, distinct) => {
    const table = e.table;
    const used = e.used;
    byteSums.fill(0);
    let total = 0;
    for (let u = 0; u < distinct; u++) {
      const at = used[u];
      const hi = table[at + 1];
      const lo = table[at + 2];
      const w = Math.round(table[at + 3] * idfOf(df.get(lo)) * WEIGHT_SCALE);
      total += w;
      byteSums[lo & 0xff] += w;
      byteSums[256 + ((lo >>> 8) & 0xff)] += w;
      byteSums[512 + ((lo >>> 16) & 0xff)] += w;
      byteSums[768 + (lo >>> 24)] += w;
      byteSums[1024 + (hi & 0xff)] += w;
      byteSums[1280 + ((hi >>> 8) & 0xff)] += w;
      byteSums[1536 + ((hi >>> 16) & 0xff)] += w;
      byteSums[1792 + (hi >>> 24)] += w;
    }
    // bitCounts[i] = total weight of features with bit i; the bit's sum is that - (total - that).
    e.bitCounts.fill(0);
    spreadBuckets(byteSums, e.bitCounts);
    return total;
  };
}

/** Most bits the kernel buckets a feature set's keys by: 2^16 counts (256 KB) stay in cache. */
const SET_BUCKET_BITS = 16;

/**
 * The feature set from the `count` hashes in e.hashes (count >= 1): their distinct low halves, sorted
 * by the kernel (two distinct 64-bit hashes may share a low half: each key is kept once). With
 * `scratch`, a view of the engine's memory valid until its next document (no allocation per document).
 */
export function distinctLowHalves(e: Engine, count: number, scratch = false): Uint32Array {
  // The token arrays are free once the features are hashed: the keys go where the starts were, the
  // bucket counts where the ends were (2^bits <= max(count, 2), and both arrays hold tokCap >= count).
  const bits = Math.min(SET_BUCKET_BITS, Math.max(1, 31 - Math.clz32(count)));
  const keysAt = e.starts.byteOffset;
  const m = e.kernel.sortedSet(e.hashes.byteOffset, count, keysAt, e.ends.byteOffset, bits);
  const keys = new Uint32Array(e.memory, keysAt, m);
  return scratch ? keys : keys.slice();
}
