// The command line's text formats at memory speed (AssemblyScript, compiled to src/cli/text-lines-wasm.ts
// by bin/build-kernels.js): fingerprint lines of 16 hex digits parsed in (`simsift pairs FILE`), pair
// lines `i j distance` written out. A one-shot command runs each loop once over a million lines:
// JavaScript would spend most of that loop in its unoptimized tiers.

/**
 * Parses the leading lines of `length` bytes at `text` that are exactly 16 hex digits (either case)
 * and a newline (the last may end at the end instead), fingerprint i's halves to the u32s at
 * hiOut + 4i and loOut + 4i; stops at the first other line. Returns the lines parsed.
 */
export function parseHexLines(text: usize, length: usize, hiOut: usize, loOut: usize): i32 {
  const end = text + length;
  let p = text;
  let n: i32 = 0;
  while (p + 16 <= end) {
    if (p + 16 < end && load<u8>(p + 16) != 10) break;
    const c = v128.load(p);
    // Digits 0x30-0x39; letters folded to lower case by bit 5, 0x61-0x66 (the digits already have it).
    const lower = v128.or(c, i8x16.splat(0x20));
    const digit = v128.and(i8x16.ge_u(c, i8x16.splat(0x30)), i8x16.le_u(c, i8x16.splat(0x39)));
    const letter = v128.and(i8x16.ge_u(lower, i8x16.splat(0x61)), i8x16.le_u(lower, i8x16.splat(0x66)));
    if (!i8x16.all_true(v128.or(digit, letter))) break;
    const v = v128.bitselect(i8x16.sub(c, i8x16.splat(0x30)), i8x16.sub(lower, i8x16.splat(0x57)), digit);
    // u16 lane j holds digits 2j (low byte) and 2j + 1: its low byte becomes their byte value.
    const m = v128.or(i16x8.shl(v, 4), i16x8.shr_u(v, 8));
    // Bytes 0, 2, ..., 14 are the fingerprint's bytes, most significant first: each half's u32 reversed.
    const halves = i8x16.shuffle(m, m, 6, 4, 2, 0, 14, 12, 10, 8, 0, 0, 0, 0, 0, 0, 0, 0);
    store<u32>(hiOut + (<usize>n << 2), i32x4.extract_lane(halves, 0));
    store<u32>(loOut + (<usize>n << 2), i32x4.extract_lane(halves, 1));
    n++;
    p += 17;
  }
  return n;
}

/** Writes the decimal digits of `value` at `at`; returns the position after them. */
// @ts-ignore: decorator
@inline function decimal(at: usize, value: u32): usize {
  let digits: usize = 1;
  for (let v = value; v >= 10; v /= 10) digits++;
  let p = at + digits;
  let v = value;
  do {
    const rest = v / 10;
    store<u8>(--p, <u8>(48 + v - rest * 10));
    v = rest;
  } while (v != 0);
  return at + digits;
}

/**
 * Writes pairs [0, count) of the u32 arrays at `a` and `b` and the u8 array at `distance` as lines
 * `a b distance` to `out` (at most 25 bytes a pair); returns the bytes written.
 */
export function formatPairs(a: usize, b: usize, distance: usize, count: i32, out: usize): i32 {
  let o = out;
  for (let i: i32 = 0; i < count; i++) {
    o = decimal(o, load<u32>(a + (<usize>i << 2)));
    store<u8>(o++, 32);
    o = decimal(o, load<u32>(b + (<usize>i << 2)));
    store<u8>(o++, 32);
    o = decimal(o, <u32>load<u8>(distance + <usize>i));
    store<u8>(o++, 10);
  }
  return <i32>(o - out);
}
