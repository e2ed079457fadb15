// The all-pairs search's inner loop (AssemblyScript, compiled to src/core/index/pair-scan-wasm.ts by
// bin/build-kernels.js): every pair of records inside runs of records whose masked bits agree, whose
// Hamming distance is at most k and which no earlier table owns. One native i64.popcnt per candidate
// instead of the two SWAR popcounts JavaScript needs over 32-bit halves.
//
// A record is 16 bytes: the fingerprint as one little-endian u64 (the half compared first in the low
// word, as all-pairs lays it out), then two u32 words the scan does not read (document, key).

/** Bytes of the records one step of scanRuns tests: eight. */
const STEP: usize = 128;
/** Candidates' bytes past which a row is scanned by skipNear (sixteen steps). */
const LONG_ROW: usize = 16 * STEP;

/** Where the last `scanRuns` stopped: the run it was in and the next row to compare. */
let resumeRun: i32 = 0;
let resumeRow: i32 = 0;

export function nextRun(): i32 {
  return resumeRun;
}

export function nextRow(): i32 {
  return resumeRow;
}

/** False when x (two fingerprints XORed) is zero on one of the `count` u64 block masks at `differ`. */
// @ts-ignore: decorator
@inline function differsOnAll(x: u64, differ: usize, count: i32): bool {
  for (let d: i32 = 0; d < count; d++) if ((x & load<u64>(differ + (<usize>d << 3))) == 0) return false;
  return true;
}

/** True when x (two fingerprints XORed) is zero on `mask` and has at most `limit` bits set; no branch. */
// @ts-ignore: decorator
@inline function near(x: u64, mask: u64, limit: u64): bool {
  return <bool>(<i32>((x & mask) == 0) & <i32>(popcnt<u64>(x) <= limit));
}

/**
 * Writes the pair (docA, the record at p's document, the distance popcount(x)) as found pair `found`
 * into the three columns at `out` (`capacity` u32 documents i, as many documents j, as many u8
 * distances: the caller copies each out whole); returns found + 1.
 */
// @ts-ignore: decorator
@inline function emit(out: usize, capacity: usize, found: i32, docA: u32, p: usize, x: u64): i32 {
  const i = <usize>found;
  store<u32>(out + (i << 2), docA);
  store<u32>(out + (capacity << 2) + (i << 2), load<u32>(p, 8));
  store<u8>(out + (capacity << 3) + i, <u8>popcnt<u64>(x));
  return found + 1;
}

/**
 * True when one of the eight records from p is within k of a (popcount - (k + 1) is negative just
 * for a distance within k: one sign test of the eight ORed, no compare and flag each).
 */
// @ts-ignore: decorator
@inline function stepNear(a: u64, p: usize, above: i64): bool {
  const d0 = <i64>popcnt<u64>(a ^ load<u64>(p)) - above;
  const d1 = <i64>popcnt<u64>(a ^ load<u64>(p, 16)) - above;
  const d2 = <i64>popcnt<u64>(a ^ load<u64>(p, 32)) - above;
  const d3 = <i64>popcnt<u64>(a ^ load<u64>(p, 48)) - above;
  const d4 = <i64>popcnt<u64>(a ^ load<u64>(p, 64)) - above;
  const d5 = <i64>popcnt<u64>(a ^ load<u64>(p, 80)) - above;
  const d6 = <i64>popcnt<u64>(a ^ load<u64>(p, 96)) - above;
  const d7 = <i64>popcnt<u64>(a ^ load<u64>(p, 112)) - above;
  return (d0 | d1 | d2 | d3 | d4 | d5 | d6 | d7) < 0;
}

/**
 * The first step (STEP bytes: eight records) from p, before `last`, with a record within k of a, or
 * `last` or beyond when none has one: a step reads on past `last` (up to seven records; the arena keeps
 * READ_AHEAD bytes after each region, pair-scan.ts) and is tested whole. A function of its own (two
 * callers: not inlined) keeps a, p, last and above in registers through the loop.
 */
function skipNear(a: u64, p: usize, last: usize, above: i64): usize {
  while (p < last) {
    if (stepNear(a, p, above)) return p;
    p += STEP;
  }
  return p;
}

/**
 * Scans runs [run, runEnd) of the records at `records`: run r holds the records from the previous
 * run's end (or `row` for the first) to the u32 `ends[r]`. Writes each pair (i, j), i < j, of one run
 * with (fingerprint_i XOR fingerprint_j) & mask == 0, popcount <= k, and a nonzero XOR on each of the
 * `differCount` u64 block masks at `differ` (a pair that agrees on one of those blocks belongs to an
 * earlier table) to the columns at `out` (see emit): document i, document j (word 2 of each record), the distance.
 * Stops before a row whose pairs might not fit in `capacity` (nextRun/nextRow say where to go on)
 * and returns the number of pairs written.
 *
 * A row compares eight records a step, reading on past its run's end (up to 7 records: the arena
 * keeps READ_AHEAD bytes after each region, pair-scan.ts): popcount - (k + 1) is negative just for a
 * distance within k, so one sign test of the eight ORed passes a step with none, and the rare step
 * that fails it is checked record by record up to the run's end. A short run (k = 3 at 1M: about 15
 * records) so costs each row a step or two, where a loop per record paid each candidate's tests.
 */
export function scanRuns(
  records: usize, ends: usize, run: i32, runEnd: i32, row: i32, k: i32, maskLow: u32, maskHigh: u32, differ: usize, differCount: i32,
  out: usize, capacity: i32,
): i32 {
  const mask: u64 = (<u64>maskHigh << 32) | <u64>maskLow;
  const limit: u64 = <u64>k;
  const above: i64 = <i64>k + 1;
  let found: i32 = 0;
  while (run < runEnd) {
    const end = <i32>load<u32>(ends + (<usize>run << 2));
    const last = records + (<usize>end << 4);
    while (row < end - 1) {
      if (capacity - found < end - row) {
        resumeRun = run;
        resumeRow = row;
        return found;
      }
      const at = records + (<usize>row << 4);
      const a = load<u64>(at);
      let p = at + 16;
      if (last - p > LONG_ROW) {
        // A long row (long runs: k = 16): skipNear's loop, with fewer values live than this one's.
        p = skipNear(a, p, last, above);
        while (p < last) {
          found = nearInStep(a, at, p, last, mask, limit, differ, differCount, out, capacity, found);
          p = skipNear(a, p + STEP, last, above);
        }
      } else {
        // A short row (short runs: k = 3 at 1M, about 15 records): its steps here, without a call.
        for (; p < last; p += STEP) {
          if (stepNear(a, p, above)) found = nearInStep(a, at, p, last, mask, limit, differ, differCount, out, capacity, found);
        }
      }
      row++;
    }
    if (row < end) row = end;
    run++;
  }
  resumeRun = run;
  resumeRow = row;
  return found;
}

/**
 * The pairs of row `at` (its fingerprint a) with the records of the step from p (before `last`):
 * those within k on the key mask and the must-differ blocks, written as in scanRuns; returns found.
 * Its own function: the rare path out of scanRuns' loop, which keeps fewer values live without it.
 */
function nearInStep(
  a: u64, at: usize, p: usize, last: usize, mask: u64, limit: u64, differ: usize, differCount: i32, out: usize, capacity: i32, found: i32,
): i32 {
  const docA = load<u32>(at, 8);
  const stop = min<usize>(p + STEP, last);
  for (let q = p; q < stop; q += 16) {
    const x = a ^ load<u64>(q);
    if (near(x, mask, limit) && differsOnAll(x, differ, differCount)) found = emit(out, <usize>capacity, found, docA, q, x);
  }
  return found;
}

/** Turns counts (ends[v + 1] counting bucket v, ends[0] = 0) into starts: ends[v] is where bucket v starts. */
// @ts-ignore: decorator
@inline function countsToStarts(ends: usize, buckets: i32): void {
  let sum: u32 = 0;
  for (let v: i32 = 0; v <= buckets; v++) {
    const at = ends + (<usize>v << 2);
    sum += load<u32>(at);
    store<u32>(at, sum);
  }
}

/**
 * Splits records [from, to) at `records` into `local` (from record 0) by a digit of their last key
 * block, a stable counting sort over `buckets` buckets, and writes each bucket's end (a u32 record
 * number) at `ends`: all-pairs' split of a large prefix group, so that each bucket is then scanned
 * as a run. The digit is rotl(the record's first u64, rotate) >> shift: the record's two halves in
 * either order are a rotation of the fingerprint, so one rotation brings the block's leading bits to
 * the top (one load and two operations a record, where the halves' shifts and masks took nine).
 * Whole records are copied, 16 bytes in one v128.
 */
export function splitGroup(records: usize, from: i32, to: i32, local: usize, ends: usize, buckets: i32, rotateBy: u32, shiftBy: u32): void {
  const rotate = <u64>rotateBy;
  const shift = <u64>shiftBy;
  const first = records + (<usize>from << 4);
  const last = records + (<usize>to << 4);
  // ends[v + 1] counts bucket v; after the prefix sums ends[v] is where bucket v starts.
  memory.fill(ends, 0, (<usize>buckets + 1) << 2);
  for (let p = first; p < last; p += 16) {
    const at = ends + (<usize>(rotl<u64>(load<u64>(p), rotate) >> shift) << 2);
    store<u32>(at, load<u32>(at, 4) + 1, 4);
  }
  countsToStarts(ends, buckets);
  for (let p = first; p < last; p += 16) {
    const at = ends + (<usize>(rotl<u64>(load<u64>(p), rotate) >> shift) << 2);
    const q = load<u32>(at);
    store<u32>(at, q + 1);
    v128.store(local + (<usize>q << 4), v128.load(p));
  }
  // ends[v] is now the end of bucket v.
}

/**
 * Groups the n fingerprints (u32 halves at `hi` and `lo`) on a table's key with one counting sort
 * into 16-byte records at `grouped` (the half compared first, the other half, the document, the key)
 * and leaves each group's end (u32) at `ends`. The key is up to four runs of bits, run r being
 * ((word_r >>> right_r) & mask_r) << dest_r (an unused run has mask 0); its group is key >>> shift.
 * With `counted` set, the keys and counts are already at `keys` and `ends[g + 1]` (a key of more runs).
 */
export function groupByKey(
  hi: usize, lo: usize, n: i32, keys: usize, ends: usize, groups: i32, shift: u32, counted: i32,
  w0: usize, r0: u32, m0: u32, d0: u32, w1: usize, r1: u32, m1: u32, d1: u32,
  w2: usize, r2: u32, m2: u32, d2: u32, w3: usize, r3: u32, m3: u32, d3: u32,
  grouped: usize, swap: i32,
): void {
  const bytes = <usize>n << 2;
  if (!counted) {
    memory.fill(ends, 0, (<usize>groups + 1) << 2);
    if ((m1 | m2 | m3) == 0) {
      for (let off: usize = 0; off < bytes; off += 4) {
        const kv = ((load<u32>(w0 + off) >> r0) & m0) << d0;
        store<u32>(keys + off, kv);
        const at = ends + ((<usize>(kv >> shift) + 1) << 2);
        store<u32>(at, load<u32>(at) + 1);
      }
    } else {
      for (let off: usize = 0; off < bytes; off += 4) {
        const kv = (((load<u32>(w0 + off) >> r0) & m0) << d0) | (((load<u32>(w1 + off) >> r1) & m1) << d1) |
          (((load<u32>(w2 + off) >> r2) & m2) << d2) | (((load<u32>(w3 + off) >> r3) & m3) << d3);
        store<u32>(keys + off, kv);
        const at = ends + ((<usize>(kv >> shift) + 1) << 2);
        store<u32>(at, load<u32>(at) + 1);
      }
    }
  }
  countsToStarts(ends, groups);
  const first = swap ? lo : hi;
  const second = swap ? hi : lo;
  for (let i: i32 = 0; i < n; i++) {
    const off = <usize>i << 2;
    const kv = load<u32>(keys + off);
    const at = ends + (<usize>(kv >> shift) << 2);
    const q = load<u32>(at);
    store<u32>(at, q + 1);
    const dst = grouped + (<usize>q << 4);
    store<u64>(dst, (<u64>load<u32>(second + off) << 32) | <u64>load<u32>(first + off));
    store<u64>(dst, (<u64>kv << 32) | <u64>i, 8);
  }
  // ends[g] is now the end of group g.
}

/** Digit bits of one radix pass: 2,048 counters stay in L1. */
const SORT_DIGIT: i32 = 11;

/**
 * Sorts the n pairs held as columns (u32 at `a`, u32 at `b`, u8 at `distance`) by (a, b), in place:
 * each packed into a u64 key a << (bBits + 7) | b << 7 | distance (the caller sees to
 * keyBits = aBits + bBits + 7 <= 64), the keys radix-sorted SORT_DIGIT bits a pass between `keys` and
 * `spare` (8n bytes each) with 2^SORT_DIGIT + 1 counters at `counts`, then unpacked. Pairs are distinct,
 * so the distance never decides an order.
 */
export function sortPairColumns(a: usize, b: usize, distance: usize, n: i32, bBits: i32, keyBits: i32, keys: usize, spare: usize, counts: usize): void {
  const shiftA = <u64>(bBits + 7);
  for (let i: usize = 0; i < <usize>n; i++) {
    store<u64>(keys + (i << 3), (<u64>load<u32>(a + (i << 2)) << shiftA) | (<u64>load<u32>(b + (i << 2)) << 7) | <u64>load<u8>(distance + i));
  }
  const buckets: i32 = 1 << SORT_DIGIT;
  const mask: u64 = <u64>(buckets - 1);
  let src = keys;
  let dst = spare;
  for (let shift: i32 = 0; shift < keyBits; shift += SORT_DIGIT) {
    const s = <u64>shift;
    memory.fill(counts, 0, (<usize>buckets + 1) << 2);
    for (let i: usize = 0; i < <usize>n; i++) {
      const at = counts + ((<usize>((load<u64>(src + (i << 3)) >> s) & mask) + 1) << 2);
      store<u32>(at, load<u32>(at) + 1);
    }
    countsToStarts(counts, buckets);
    for (let i: usize = 0; i < <usize>n; i++) {
      const key = load<u64>(src + (i << 3));
      const at = counts + (<usize>((key >> s) & mask) << 2);
      const q = load<u32>(at);
      store<u32>(at, q + 1);
      store<u64>(dst + (<usize>q << 3), key);
    }
    const t = src;
    src = dst;
    dst = t;
  }
  const maskB: u64 = (<u64>1 << <u64>bBits) - 1;
  for (let i: usize = 0; i < <usize>n; i++) {
    const key = load<u64>(src + (i << 3));
    store<u8>(distance + i, <u8>(key & 127));
    store<u32>(b + (i << 2), <u32>((key >> 7) & maskB));
    store<u32>(a + (i << 2), <u32>(key >> shiftA));
  }
}

/**
 * Merges two lists of pairs, each sorted by (a, b) and held as columns (u32 a, u32 b, u8 distance:
 * x's at xa, xb, xd, y's at ya, yb, yd), into the columns at oa, ob, od; a pair is in at most one list.
 */
export function mergePairColumns(
  xa: usize, xb: usize, xd: usize, xn: i32, ya: usize, yb: usize, yd: usize, yn: i32, oa: usize, ob: usize, od: usize,
): void {
  let i: usize = 0;
  let j: usize = 0;
  let o: usize = 0;
  const xEnd = <usize>xn;
  const yEnd = <usize>yn;
  while (i < xEnd && j < yEnd) {
    const x = (<u64>load<u32>(xa + (i << 2)) << 32) | <u64>load<u32>(xb + (i << 2));
    const y = (<u64>load<u32>(ya + (j << 2)) << 32) | <u64>load<u32>(yb + (j << 2));
    if (x < y) {
      store<u32>(oa + (o << 2), <u32>(x >> 32));
      store<u32>(ob + (o << 2), <u32>x);
      store<u8>(od + o, load<u8>(xd + i));
      i++;
    } else {
      store<u32>(oa + (o << 2), <u32>(y >> 32));
      store<u32>(ob + (o << 2), <u32>y);
      store<u8>(od + o, load<u8>(yd + j));
      j++;
    }
    o++;
  }
  const xRest = xEnd - i;
  memory.copy(oa + (o << 2), xa + (i << 2), xRest << 2);
  memory.copy(ob + (o << 2), xb + (i << 2), xRest << 2);
  memory.copy(od + o, xd + i, xRest);
  o += xRest;
  const yRest = yEnd - j;
  memory.copy(oa + (o << 2), ya + (j << 2), yRest << 2);
  memory.copy(ob + (o << 2), yb + (j << 2), yRest << 2);
  memory.copy(od + o, yd + j, yRest);
}
