// The fingerprinter's kernel (AssemblyScript, compiled to src/core/simhash/fingerprint-wasm.ts by
// bin/build-kernels.js): in-place tokenizing of ASCII text and of text whose non-ASCII code points
// fold one by one, code point offsets for char n-grams, XXH64 (seed 0) of many byte ranges in one
// call with native 64-bit multiplies, per-document dedupe and bit counting of those hashes, and the
// sorted distinct low halves of those hashes (the feature set).
// src/core/simhash/fingerprint-kernel.ts states each export's contract; its results equal the
// fingerprinter's JavaScript path (tests/unit/core/simhash/kernel-parity.test.ts). All addresses are
// the caller's: the kernel keeps no data in its memory (no static data, no heap).

const P1: u64 = 0x9e3779b185ebca87;
const P2: u64 = 0xc2b2ae3d27d4eb4f;
const P3: u64 = 0x165667b19e3779f9;
const P4: u64 = 0x85ebca77c2b2ae63;
const P5: u64 = 0x27d4eb2f165667c5;

// @ts-ignore: decorator
@inline function round(acc: u64, input: u64): u64 {
  return rotl<u64>(acc + input * P2, 31) * P1;
}

// @ts-ignore: decorator
@inline function mergeRound(h: u64, v: u64): u64 {
  return (h ^ round(0, v)) * P1 + P4;
}

// @ts-ignore: decorator
@inline function byteRound(h: u64, byte: u8): u64 {
  return rotl<u64>(h ^ (<u64>byte * P5), 11) * P1;
}

/** For f < count: XXH64 of memory[u32 starts[f], u32 ends[f]) stored little-endian at out + 8f. */
export function hash(starts: usize, ends: usize, count: i32, out: usize): void {
  if (count <= 0) return;
  let f: i32 = 0;
  do {
    let p = <usize>load<u32>(starts + (<usize>f << 2));
    const e = <usize>load<u32>(ends + (<usize>f << 2));
    const start = p;
    let h: u64;
    if (e - p >= 32) {
      let v1: u64 = P1 + P2;
      let v2: u64 = P2;
      let v3: u64 = 0;
      let v4: u64 = 0 - P1;
      const limit = e - 32;
      do {
        v1 = round(v1, load<u64>(p));
        v2 = round(v2, load<u64>(p, 8));
        v3 = round(v3, load<u64>(p, 16));
        v4 = round(v4, load<u64>(p, 24));
        p += 32;
      } while (p <= limit);
      h = rotl<u64>(v1, 1) + rotl<u64>(v2, 7) + rotl<u64>(v3, 12) + rotl<u64>(v4, 18);
      h = mergeRound(h, v1);
      h = mergeRound(h, v2);
      h = mergeRound(h, v3);
      h = mergeRound(h, v4);
    } else {
      h = P5;
    }
    h += <u64>(e - start);
    while (p + 8 <= e) {
      h = rotl<u64>(h ^ round(0, load<u64>(p)), 27) * P1 + P4;
      p += 8;
    }
    if (p + 4 <= e) {
      h = rotl<u64>(h ^ (<u64>load<u32>(p) * P1), 23) * P2 + P3;
      p += 4;
    }
    // At most 3 bytes remain: unrolled, no loop test per byte.
    if (p < e) {
      h = byteRound(h, load<u8>(p));
      if (p + 1 < e) {
        h = byteRound(h, load<u8>(p, 1));
        if (p + 2 < e) h = byteRound(h, load<u8>(p, 2));
      }
    }
    h = (h ^ (h >> 33)) * P2;
    h = (h ^ (h >> 29)) * P3;
    h ^= h >> 32;
    store<u64>(out + (<usize>f << 3), h);
  } while (++f < count);
}

const ONES: u64 = 0x0101010101010101;
const NIBBLE_ONES: u64 = 0x1111111111111111, LOW_NIBBLES: u64 = 0x0f0f0f0f0f0f0f0f;
const HIGH: u64 = 0x8080808080808080, LOW7: u64 = 0x7f7f7f7f7f7f7f7f;
/** SWAR lanes hold 15 (a nibble) or 255 (a byte): nibble counters take 15 hashes, byte counters 17 such groups. */
const NIBBLE_GROUP: i32 = 15, BYTE_GROUPS: i32 = 17;

/** counters[8k + j] += byte k of acc (acc_j counts bit 8k + j of each hash in byte k). */
// @ts-ignore: decorator
@inline function flush(counters: usize, acc: u64, j: usize): void {
  for (let k: usize = 0; k < 8; k++) {
    const at = counters + ((8 * k + j) << 2);
    store<i32>(at, load<i32>(at) + <i32>((acc >> (8 * <u64>k)) & 0xff));
  }
}

/** Whether h (not 0) is in the table already; if not, it is put in the empty slot its probe reached. */
// @ts-ignore: decorator
@inline function seenBefore(table: usize, mask: u32, h: u64): bool {
  let slot = <u32>h & mask;
  while (true) {
    const at = table + (<usize>slot << 3);
    const there = load<u64>(at);
    if (there == 0) {
      store<u64>(at, h);
      return false;
    }
    if (there == h) return true;
    slot = (slot + 1) & mask;
  }
}

/**
 * For f < count, takes the hash at hashes + 8f; with `dedupe` skips it if the open-addressing table
 * at `table` (mask + 1 u64 slots, 0 = empty, zeroed by the caller per document; the hash 0 is
 * remembered apart) holds it and else records it; then adds 1 to the i32 counters[i] for each bit i
 * set in it. Returns how many hashes were counted. Bits are counted in SWAR lanes, 4 shift-mask-adds
 * a hash: four nibble-sliced accumulators (n_j += (h >> j) & 0x1111..11) take up to 15 hashes, then
 * their even and odd nibbles go to eight byte-sliced ones (byte k of b_j counts bit 8k + j), which
 * are flushed to the counters every 17 groups and after the last.
 */
export function tally(hashes: usize, count: i32, table: usize, mask: u32, counters: usize, dedupe: i32): i32 {
  let b0: u64 = 0, b1: u64 = 0, b2: u64 = 0, b3: u64 = 0, b4: u64 = 0, b5: u64 = 0, b6: u64 = 0, b7: u64 = 0;
  let skipped: i32 = 0, groups: i32 = 0, f: i32 = 0;
  let zeroSeen = false;
  while (f < count) {
    let n0: u64 = 0, n1: u64 = 0, n2: u64 = 0, n3: u64 = 0;
    const stop = count - f > NIBBLE_GROUP ? f + NIBBLE_GROUP : count;
    for (; f < stop; f++) {
      const h = load<u64>(hashes + (<usize>f << 3));
      if (dedupe) {
        if (h == 0) {
          if (zeroSeen) {
            skipped++;
            continue;
          }
          zeroSeen = true;
        } else if (seenBefore(table, mask, h)) {
          skipped++;
          continue;
        }
      }
      n0 += h & NIBBLE_ONES;
      n1 += (h >> 1) & NIBBLE_ONES;
      n2 += (h >> 2) & NIBBLE_ONES;
      n3 += (h >> 3) & NIBBLE_ONES;
    }
    // Nibble 2k of n_j counts bit 8k + j, nibble 2k + 1 bit 8k + 4 + j.
    b0 += n0 & LOW_NIBBLES; b4 += (n0 >> 4) & LOW_NIBBLES;
    b1 += n1 & LOW_NIBBLES; b5 += (n1 >> 4) & LOW_NIBBLES;
    b2 += n2 & LOW_NIBBLES; b6 += (n2 >> 4) & LOW_NIBBLES;
    b3 += n3 & LOW_NIBBLES; b7 += (n3 >> 4) & LOW_NIBBLES;
    // One inlined copy of the flushes (every 17 groups and after the last) keeps the module under 4 KB.
    if (++groups < BYTE_GROUPS && f < count) continue;
    flush(counters, b0, 0); flush(counters, b1, 1); flush(counters, b2, 2); flush(counters, b3, 3);
    flush(counters, b4, 4); flush(counters, b5, 5); flush(counters, b6, 6); flush(counters, b7, 7);
    b0 = b1 = b2 = b3 = b4 = b5 = b6 = b7 = 0;
    groups = 0;
  }
  return count - skipped;
}

/** The high bit of each byte of v (8 bytes below 0x80, so no carries) set iff that byte is in lo..hi. */
// @ts-ignore: decorator
@inline function inRange(v: u64, lo: u64, hi: u64): u64 {
  return (v + (0x80 - lo) * ONES) & ~(v + (0x7f - hi) * ONES);
}

/**
 * v's 8 bytes (each below 0x80 where `ascii` has its high bit set) with their uppercase ASCII letters
 * lowercased and every other byte as it was (`_` stays `_`, where `| 0x20` would make it DEL).
 */
// @ts-ignore: decorator
@inline function lowercaseLetters(v: u64, ascii: u64): u64 {
  return ((inRange(v, 0x41, 0x5a) & ascii & HIGH) >> 2) | v;
}

/**
 * Tokenizes ASCII bytes [start, end) in place through the 256-byte `table` (a word byte's lowercase,
 * else 0), as the fingerprinter's `compactAscii` without stop words and as fingerprint-kernel.ts
 * details. `start` must be at least 8: tokens are copied 8 bytes at a time, 8 bytes behind.
 */
export function compactAscii(start: usize, end: usize, table: usize, starts: usize, ends: usize, capacity: i32, outLength: usize): i32 {
  let r = start, w: usize = 0, count: i32 = 0;
  for (;;) {
    // Skip separators; at the end of the input, finish.
    while (r < end && load<u8>(table + <usize>load<u8>(r)) == 0) r++;
    if (r >= end) break;
    if (count >= capacity) return -1;
    if (count != 0) store<u8>(w++, 0x20);
    store<i32>(starts + (<usize>count << 2), <i32>w);
    for (;;) {
      if (r + 8 <= end) {
        const x = load<u64>(r);
        const y = lowercaseLetters(x, HIGH);
        store<u64>(w, y);
        // k = how many leading bytes are word bytes (8 when all are); y's letters are lowercase.
        const nonWord = ((inRange(y, 0x61, 0x7a) | inRange(x, 0x30, 0x39) | inRange(x, 0x5f, 0x5f)) & HIGH) ^ HIGH;
        const k = <usize>(ctz<u64>(nonWord) >> 3);
        w += k; r += k;
        if (k == 8) continue;
        break;
      }
      const v = load<u8>(table + <usize>load<u8>(r));
      if (v == 0) break;
      store<u8>(w++, v);
      if (++r >= end) break;
    }
    store<i32>(ends + (<usize>count << 2), <i32>w);
    count++;
    // The token ended at a separator (or at the end): step past it without looking it up again.
    r++;
  }
  store<i32>(outLength, <i32>w);
  return count;
}

/** Fold-table entry kinds (bits 24..31 of an entry; bits 0..23 hold the folded code point), as in fingerprint-kernel.ts. */
const FOLD_SEP: u32 = 1, FOLD_SOLO: u32 = 3, FOLD_SS: u32 = 4, FOLD_ABORT: u32 = 5;
/** compactText's token states: no open token, in a word, in a one-character token. */
const S_SEP: i32 = 0, S_WORD: i32 = 1, S_SOLO: i32 = 2;

/**
 * Tokenizes UTF-8 text [start, end) in place and folds it per code point, as the fingerprinter's
 * `compactTokens` on unnormalized text without stop words: ASCII bytes map through `asciiTable` as
 * in compactAscii; a BMP code point cp maps through the i32 `foldTable[cp]` (kind in bits 24..31,
 * folded code point in bits 0..23). Tokens are joined by one space (word mode) or by one space only
 * where a separator stood (`charMode` 1). Returns the token count (written length at `outLength`),
 * or -1 (needs the full normalization), -2 (over `capacity` tokens) or -3 - b (fold-table block b not
 * filled yet), as fingerprint-kernel.ts details. The caller keeps the write position from reaching
 * unread input (headroom before `start`); 8-byte copies happen only while it is 8 bytes behind.
 */
export function compactText(
  start: usize, end: usize, asciiTable: usize, foldTable: usize, starts: usize, ends: usize, capacity: i32, outLength: usize, charMode: i32,
): i32 {
  let r = start, w: usize = 0, count: i32 = 0;
  let state = S_SEP, sawSep = false;
  while (r < end) {
    const b = <u32>load<u8>(r);
    if (b < 0x80) {
      if (load<u8>(asciiTable + b) != 0) {
        // An ASCII word byte: open a word unless one is open, then copy the run lowercased.
        if (state != S_WORD) {
          if (state != S_SEP) store<i32>(ends + (<usize>(count++) << 2), <i32>w);
          if (count >= capacity) return -2;
          if (count != 0 && (sawSep || !charMode)) store<u8>(w++, 0x20);
          sawSep = false;
          store<i32>(starts + (<usize>count << 2), <i32>w);
          state = S_WORD;
        }
        for (;;) {
          if (r + 8 <= end && r - w >= 8) {
            const x = load<u64>(r);
            // Word bytes: ASCII (high bit clear) letters, digits or `_`, tested on the low 7 bits (no carries).
            const low7 = x & LOW7;
            store<u64>(w, lowercaseLetters(low7, ~x) | (x & HIGH));
            const lowered = low7 | (0x20 * ONES);
            const word = inRange(lowered, 0x61, 0x7a) | inRange(low7, 0x30, 0x39) | inRange(low7, 0x5f, 0x5f);
            const k = <usize>(ctz<u64>(((word & ~x) & HIGH) ^ HIGH) >> 3);
            w += k; r += k;
            if (k == 8) continue;
            break;
          }
          const v = load<u8>(asciiTable + <usize>load<u8>(r));
          if (v == 0) break;
          store<u8>(w++, v);
          if (++r >= end) break;
        }
        // Most runs end at an ASCII separator: close the word and step past it here, not in the next turn.
        if (r < end && load<u8>(r) < 0x80) {
          store<i32>(ends + (<usize>(count++) << 2), <i32>w);
          state = S_SEP;
          sawSep = true;
          r++;
        }
        continue;
      }
      // An ASCII separator.
      if (state != S_SEP) {
        store<i32>(ends + (<usize>(count++) << 2), <i32>w);
        state = S_SEP;
      }
      sawSep = true;
      r++;
      continue;
    }
    // Non-ASCII: decode one code point (valid UTF-8 from TextEncoder); beyond the BMP is never simple.
    if (b >= 0xf0) return -1;
    let cp: u32;
    if (b < 0xe0) {
      cp = ((b & 0x1f) << 6) | (<u32>load<u8>(r, 1) & 0x3f);
      r += 2;
    } else {
      cp = ((b & 0x0f) << 12) | ((<u32>load<u8>(r, 1) & 0x3f) << 6) | (<u32>load<u8>(r, 2) & 0x3f);
      r += 3;
    }
    const entry = load<u32>(foldTable + (<usize>cp << 2));
    const kind = entry >> 24;
    // Its block of the table is not filled yet: the caller fills it and starts over.
    if (kind == 0) return -3 - <i32>(cp >> 8);
    if (kind == FOLD_ABORT) return -1;
    if (kind == FOLD_SEP) {
      if (state != S_SEP) {
        store<i32>(ends + (<usize>(count++) << 2), <i32>w);
        state = S_SEP;
      }
      sawSep = true;
      continue;
    }
    // A letter or digit: a one-character token always opens; a word opens unless one is open.
    if (kind == FOLD_SOLO || state != S_WORD) {
      if (state != S_SEP) store<i32>(ends + (<usize>(count++) << 2), <i32>w);
      if (count >= capacity) return -2;
      if (count != 0 && (sawSep || !charMode)) store<u8>(w++, 0x20);
      sawSep = false;
      store<i32>(starts + (<usize>count << 2), <i32>w);
      state = kind == FOLD_SOLO ? S_SOLO : S_WORD;
    }
    // Write the folded code point as UTF-8 (the fold table holds only BMP code points); ß and ẞ as "ss".
    cp = entry & 0xffffff;
    if (cp < 0x80) {
      store<u8>(w++, <u8>cp);
      if (kind == FOLD_SS) store<u8>(w++, <u8>cp);
    } else {
      if (cp < 0x800) {
        store<u8>(w++, <u8>((cp >> 6) | 0xc0));
      } else {
        store<u8>(w++, <u8>((cp >> 12) | 0xe0));
        store<u8>(w++, <u8>(((cp >> 6) & 0x3f) | 0x80));
      }
      store<u8>(w++, <u8>((cp & 0x3f) | 0x80));
    }
  }
  if (state != S_SEP) store<i32>(ends + (<usize>(count++) << 2), <i32>w);
  store<i32>(outLength, <i32>w);
  return count;
}

/**
 * Writes the offset of every code point of the UTF-8 bytes [0, len) to the i32 array `starts`, then
 * len after them; returns the code point count (char n-grams span starts[f] .. starts[f + n]).
 */
export function codePoints(len: usize, starts: usize): i32 {
  let c: i32 = 0;
  for (let i: usize = 0; i < len; i++) {
    if ((load<u8>(i) & 0xc0) != 0x80) store<i32>(starts + (<usize>(c++) << 2), <i32>i);
  }
  store<i32>(starts + (<usize>c << 2), <i32>len);
  return c;
}

/**
 * The feature set of the `count` u64 hashes at `hashes`: their low halves, sorted ascending without
 * repeats, as u32 at `keys`; returns how many. The keys are spread evenly, so one counting pass by
 * their top `bits` bits (1..31; 2^bits u32 counts at `counts`, zeroed here) puts each within its
 * small bucket of its place, and an insertion sort finishes with few moves; then repeats are dropped.
 */
export function sortedSet(hashes: usize, count: i32, keys: usize, counts: usize, bits: i32): i32 {
  if (count <= 0) return 0;
  const buckets = <usize>1 << <usize>bits;
  const shift = <u32>(32 - bits);
  memory.fill(counts, 0, buckets << 2);
  for (let f: i32 = 0; f < count; f++) {
    const at = counts + (<usize>(load<u32>(hashes + (<usize>f << 3)) >> shift) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  let start: u32 = 0;
  for (let b: usize = 0; b < buckets; b++) {
    const at = counts + (b << 2);
    const c = load<u32>(at);
    store<u32>(at, start);
    start += c;
  }
  for (let f: i32 = 0; f < count; f++) {
    const x = load<u32>(hashes + (<usize>f << 3));
    const at = counts + (<usize>(x >> shift) << 2);
    const p = load<u32>(at);
    store<u32>(at, p + 1);
    store<u32>(keys + (<usize>p << 2), x);
  }
  for (let i: usize = 1; i < <usize>count; i++) {
    const x = load<u32>(keys + (i << 2));
    let j = i;
    for (; j > 0; j--) {
      const y = load<u32>(keys + ((j - 1) << 2));
      if (y <= x) break;
      store<u32>(keys + (j << 2), y);
    }
    store<u32>(keys + (j << 2), x);
  }
  let m: usize = 1;
  for (let i: usize = 1; i < <usize>count; i++) {
    const x = load<u32>(keys + (i << 2));
    if (x != load<u32>(keys + ((m - 1) << 2))) store<u32>(keys + (m++ << 2), x);
  }
  return <i32>m;
}
