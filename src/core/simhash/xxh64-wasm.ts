/**
 * The fingerprinter's WebAssembly kernel: in-place tokenizing (pure ASCII text, and text whose
 * non-ASCII code points fold one by one), char n-gram bounds, XXH64 (seed 0) of many byte ranges in
 * one call with native 64-bit multiplies, and per-document dedupe and bit counting of those hashes
 * (kept apart from the hashing: one fused loop measured 6% slower). The module (about 5.5 KB) is
 * assembled here from its instructions when first needed: no build step, no dependency, no
 * network. Its results equal the JavaScript paths (xxh64.ts and the fingerprinter's own loops) and
 * xxhash-wasm's h64; tests hold them equal.
 *
 * Exports: `memory`, `hash`, `tally`, `compactAscii`, `compactText`, `codePoints` (see `Xxh64Kernel` for each contract).
 */

/** The kernel's API: its memory (grown by the caller) and its functions. */
export type Xxh64Kernel = {
  memory: WebAssembly.Memory;
  /** For f < count: XXH64 of memory[i32 starts[f], i32 ends[f]) stored little-endian at out + 8f. */
  hash(startsPtr: number, endsPtr: number, count: number, outPtr: number): void;
  /**
   * For f < count, takes the 64-bit hash at hashes + 8f; with `dedupe` (1) skips it if the
   * open-addressing table at `table` (mask + 1 i64 slots, 0 = empty, which the caller zeroes before
   * each document) already holds it and else records it; then adds 1 to counters[i] (64 i32
   * counters, added to, never cleared) for each bit i set in the hash. Returns how many hashes were
   * counted. (Bits are counted in eight i64 byte-sliced accumulators, acc_j += (h >> j) & 0x0101..01,
   * flushed every 255 hashes.)
   */
  tally(hashes: number, count: number, table: number, mask: number, counters: number, dedupe: number): number;
  /**
   * Tokenizes ASCII bytes [start, end) in place, as the fingerprinter's `compactAscii` without stop
   * words: each byte maps through the 256-byte table at `table` (its lowercase if it is a letter or
   * digit, else 0 = separator); tokens are written from address 0 joined by one space, their bounds
   * to the i32 arrays `starts` and `ends`. Returns the token count (and stores the written length
   * as an i32 at `outLength`), or -1 when there are more than `capacity` tokens. `start` must be at
   * least 8: tokens are copied 8 bytes at a time, and the write position stays 8 bytes behind.
   */
  compactAscii(start: number, end: number, table: number, starts: number, ends: number, capacity: number, outLength: number): number;
  /**
   * Tokenizes UTF-8 text [start, end) in place and folds it per code point, as the fingerprinter's
   * `compactTokens` on unnormalized text without stop words: ASCII bytes map through `asciiTable` as
   * in compactAscii; a BMP code point cp maps through the i32 `foldTable[cp]` (kind in bits 24..31:
   * FOLD_SEP, FOLD_WORD, FOLD_SOLO, FOLD_SS (written "ss"), FOLD_ABORT; the folded code point in bits
   * 0..23). Tokens are joined by one space (word mode) or by one space only where a separator stood
   * (`charMode` 1); bounds as in compactAscii. Returns the token count (written length at
   * `outLength`), or -1 when the text needs the full normalization (a FOLD_ABORT code point or one
   * beyond the BMP), -2 when there are more than `capacity` tokens, or -3 - b when block b (code
   * points 256b .. 256b + 255) of the fold table is not filled yet (entry 0). The input is then
   * partly overwritten. The caller keeps the write position from reaching unread input (headroom
   * before `start`); copying 8 bytes at a time happens only while it is 8 bytes behind.
   */
  compactText(
    start: number, end: number, asciiTable: number, foldTable: number, starts: number, ends: number,
    capacity: number, outLength: number, charMode: number,
  ): number;
  /**
   * Writes the offset of every code point of the UTF-8 bytes [0, len) to the i32 array `starts`,
   * then len after them; returns the code point count (char n-grams span starts[f] .. starts[f + n]).
   */
  codePoints(len: number, starts: number): number;
};

const MASK = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

// Opcodes used (WebAssembly MVP).
const OP = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d,
  get: 0x20, set: 0x21, tee: 0x22,
  i32Load: 0x28, i64Load: 0x29, i32Load8u: 0x2d, i64Load8u: 0x31, i64Load32u: 0x35, i64Store: 0x37, i32Store8: 0x3a,
  return: 0x0f,
  i32Const: 0x41, i64Const: 0x42,
  select: 0x1b, i32Eqz: 0x45, i32Eq: 0x46, i32Ne: 0x47, i32LtU: 0x49, i32GtU: 0x4b, i32LeU: 0x4d, i32GeU: 0x4f, i64Eqz: 0x50, i64Eq: 0x51,
  i32Add: 0x6a, i32Sub: 0x6b, i32And: 0x71, i32Or: 0x72, i32Shl: 0x74, i32ShrU: 0x76,
  i64Ctz: 0x7a, i64Add: 0x7c, i64Mul: 0x7e, i64And: 0x83, i64Or: 0x84, i64Xor: 0x85, i64ShrU: 0x88, i64Rotl: 0x89,
  i32WrapI64: 0xa7, i64ExtendI32U: 0xad, i32Store: 0x36,
} as const;
const EMPTY = 0x40;
const I32 = 0x7f;
const I64 = 0x7e;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

/** i64.const of an unsigned 64-bit constant (encoded as its signed two's-complement value). */
function i64(v: bigint): number[] {
  v &= MASK;
  return [OP.i64Const, ...sleb(v >= 1n << 63n ? v - (1n << 64n) : v)];
}

/** Where the XXH64 loop keeps its values: the feature bounds arrays and count, and its own locals. */
type HashLocals = { starts: number; ends: number; count: number; f: number; p: number; e: number; lim: number; start: number; h: number; v: number[] };
// hash's locals: params 0 starts, 1 ends, 2 count, 3 out; then 4 f, 5 p, 6 e, 7 lim, 8 start (i32); 9 h, 10-13 v1-v4 (i64).
const HASH_LOCALS: HashLocals = { starts: 0, ends: 1, count: 2, f: 4, p: 5, e: 6, lim: 7, start: 8, h: 9, v: [10, 11, 12, 13] };
const OUT = 3;
const get = (i: number) => [OP.get, i];
const set = (i: number) => [OP.set, i];
const mem = (op: number, offset = 0) => [op, 0, ...uleb(offset)]; // alignment hint 0: loads may be unaligned

/** Stack: acc, input → round(acc, input) = rotl(acc + input * P2, 31) * P1. Expects input on top. */
const roundTail = () => [...i64(P2), OP.i64Mul, OP.i64Add, ...i64(31n), OP.i64Rotl, ...i64(P1), OP.i64Mul];

/**
 * For f < count: h = XXH64 of memory[i32 starts[f], i32 ends[f]) in local L.h, then the code of
 * `onHash` (which must leave the stack as it found it).
 */
function hashLoop(L: HashLocals, onHash: () => number[]): number[] {
  const { starts: STARTS, ends: ENDS, count: COUNT, f: F, p: P, e: E, lim: LIM, start: START, h: H, v: V } = L;
  const code: number[] = [];
  const emit = (...parts: (number | number[])[]) => {
    for (const part of parts) if (typeof part === 'number') code.push(part);
    else code.push(...part);
  };
  // block $done: if count == 0, return
  emit(OP.block, EMPTY, get(COUNT), OP.i32Eqz, OP.brIf, 0);
  emit(OP.loop, EMPTY); // $feature
  // p = starts[f]; e = ends[f]
  emit(get(STARTS), get(F), OP.i32Const, 2, OP.i32Shl, OP.i32Add, mem(OP.i32Load), set(P));
  emit(get(ENDS), get(F), OP.i32Const, 2, OP.i32Shl, OP.i32Add, mem(OP.i32Load), set(E));
  emit(get(P), set(START));
  // if (e - p >= 32): the 4-lane stripe loop
  emit(get(E), get(P), OP.i32Sub, OP.i32Const, 32, OP.i32GeU, OP.if, EMPTY);
  emit(i64(P1 + P2), set(V[0]), i64(P2), set(V[1]), i64(0n), set(V[2]), i64(-P1), set(V[3]));
  emit(get(E), OP.i32Const, 32, OP.i32Sub, set(LIM));
  emit(OP.loop, EMPTY);
  for (let lane = 0; lane < 4; lane++) {
    emit(get(V[lane]), get(P), mem(OP.i64Load, 8 * lane), roundTail(), set(V[lane]));
  }
  emit(get(P), OP.i32Const, 32, OP.i32Add, OP.tee, P, get(LIM), OP.i32LeU, OP.brIf, 0);
  emit(OP.end);
  // h = rotl(v1,1) + rotl(v2,7) + rotl(v3,12) + rotl(v4,18)
  emit(i64(0n));
  const rot = [1n, 7n, 12n, 18n];
  for (let lane = 0; lane < 4; lane++) emit(get(V[lane]), i64(rot[lane]), OP.i64Rotl, OP.i64Add);
  emit(set(H));
  // h = (h ^ round(0, v)) * P1 + P4 for each lane
  for (let lane = 0; lane < 4; lane++) {
    emit(get(H), i64(0n), get(V[lane]), roundTail(), OP.i64Xor, i64(P1), OP.i64Mul, i64(P4), OP.i64Add, set(H));
  }
  emit(OP.else);
  emit(i64(P5), set(H));
  emit(OP.end);
  // h += length
  emit(get(H), get(E), get(START), OP.i32Sub, OP.i64ExtendI32U, OP.i64Add, set(H));
  // while (p + 8 <= e): h = rotl(h ^ round(0, load64(p)), 27) * P1 + P4
  emit(OP.block, EMPTY, OP.loop, EMPTY);
  emit(get(P), OP.i32Const, 8, OP.i32Add, get(E), OP.i32GtU, OP.brIf, 1);
  emit(get(H), i64(0n), get(P), mem(OP.i64Load), roundTail(), OP.i64Xor, i64(27n), OP.i64Rotl);
  emit(i64(P1), OP.i64Mul, i64(P4), OP.i64Add, set(H));
  emit(get(P), OP.i32Const, 8, OP.i32Add, set(P), OP.br, 0);
  emit(OP.end, OP.end);
  // if (p + 4 <= e): h = rotl(h ^ (load32(p) * P1), 23) * P2 + P3
  emit(get(P), OP.i32Const, 4, OP.i32Add, get(E), OP.i32LeU, OP.if, EMPTY);
  emit(get(H), get(P), mem(OP.i64Load32u), i64(P1), OP.i64Mul, OP.i64Xor, i64(23n), OP.i64Rotl);
  emit(i64(P2), OP.i64Mul, i64(P3), OP.i64Add, set(H));
  emit(get(P), OP.i32Const, 4, OP.i32Add, set(P));
  emit(OP.end);
  // while (p < e): h = rotl(h ^ (byte * P5), 11) * P1
  emit(OP.block, EMPTY, OP.loop, EMPTY);
  emit(get(P), get(E), OP.i32GeU, OP.brIf, 1);
  emit(get(H), get(P), mem(OP.i64Load8u), i64(P5), OP.i64Mul, OP.i64Xor, i64(11n), OP.i64Rotl, i64(P1), OP.i64Mul, set(H));
  emit(get(P), OP.i32Const, 1, OP.i32Add, set(P), OP.br, 0);
  emit(OP.end, OP.end);
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  emit(get(H), get(H), i64(33n), OP.i64ShrU, OP.i64Xor, i64(P2), OP.i64Mul, set(H));
  emit(get(H), get(H), i64(29n), OP.i64ShrU, OP.i64Xor, i64(P3), OP.i64Mul, set(H));
  emit(get(H), get(H), i64(32n), OP.i64ShrU, OP.i64Xor, set(H));
  emit(onHash());
  // f++; loop while f < count
  emit(get(F), OP.i32Const, 1, OP.i32Add, OP.tee, F, get(COUNT), OP.i32LtU, OP.brIf, 0);
  emit(OP.end); // loop $feature
  emit(OP.end); // block $done
  return code;
}

/** hash: out[f] = the hash, as a little-endian uint64. */
function body(): number[] {
  const { f: F, h: H } = HASH_LOCALS;
  return [...hashLoop(HASH_LOCALS, () => [...get(OUT), ...get(F), OP.i32Const, 3, OP.i32Shl, OP.i32Add, ...get(H), ...mem(OP.i64Store)]), OP.end];
}

/** Where the counting keeps its values (see `Xxh64Kernel.tally`). */
type TallyLocals = {
  table: number; mask: number; counters: number; dedupe: number;
  slot: number; addr: number; total: number; pending: number; zeroSeen: number; h: number; slotValue: number; acc: number[];
};
/** Byte-sliced counters hold at most 255 per byte: they are flushed after this many counted hashes. */
const FLUSH_EVERY = 255;

/**
 * Adds the byte-sliced counters to the 64 i32 counters and zeroes them: byte k of acc_j counts
 * bit 8k + j, so counters[8k + j] += (acc_j >> 8k) & 0xff.
 */
function flushCounters(T: TallyLocals): number[] {
  const code: number[] = [];
  for (let j = 0; j < 8; j++) {
    for (let k = 0; k < 8; k++) {
      const offset = 4 * (8 * k + j);
      code.push(...get(T.counters), ...get(T.counters), ...mem(OP.i32Load, offset));
      code.push(...get(T.acc[j]), ...i64(BigInt(8 * k)), OP.i64ShrU, OP.i32WrapI64, OP.i32Const, ...sleb(255n), OP.i32And);
      code.push(OP.i32Add, ...mem(OP.i32Store, offset));
    }
    code.push(...i64(0n), ...set(T.acc[j]));
  }
  return code;
}

/**
 * Counts the hash in local T.h: when T.dedupe, skips it if this document's table (i64 slots, 0 =
 * empty; the hash 0 is remembered in T.zeroSeen instead) holds it and else records it; then adds
 * its bits to the byte-sliced counters.
 */
function tallyOne(T: TallyLocals): number[] {
  const a = emitter();
  const { emit } = a;
  a.block('next'); // a repeated hash jumps here, past the counting
  emit(get(T.dedupe));
  a.if();
  emit(get(T.h), OP.i64Eqz);
  a.if();
  emit(get(T.zeroSeen));
  a.brIf('next');
  emit(OP.i32Const, 1, set(T.zeroSeen));
  a.else();
  emit(get(T.h), OP.i32WrapI64, get(T.mask), OP.i32And, set(T.slot));
  a.block('inserted');
  a.loop('probe');
  emit(get(T.table), get(T.slot), OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.tee, T.addr, mem(OP.i64Load), OP.tee, T.slotValue, OP.i64Eqz);
  a.if();
  emit(get(T.addr), get(T.h), mem(OP.i64Store));
  a.br('inserted');
  a.end();
  emit(get(T.slotValue), get(T.h), OP.i64Eq);
  a.brIf('next');
  emit(get(T.slot), OP.i32Const, 1, OP.i32Add, get(T.mask), OP.i32And, set(T.slot));
  a.br('probe');
  a.end(); // probe
  a.end(); // inserted
  a.end(); // if zero
  a.end(); // if dedupe
  // acc_j += (h >> j) & 0x0101010101010101: byte k of acc_j counts bit 8k + j
  for (let j = 0; j < 8; j++) {
    emit(get(T.acc[j]), get(T.h));
    if (j > 0) emit(i64(BigInt(j)), OP.i64ShrU);
    emit(i64(0x0101010101010101n), OP.i64And, OP.i64Add, set(T.acc[j]));
  }
  emit(get(T.total), OP.i32Const, 1, OP.i32Add, set(T.total));
  // flush before a byte can overflow
  emit(get(T.pending), OP.i32Const, 1, OP.i32Add, OP.tee, T.pending, OP.i32Const, ...sleb(BigInt(FLUSH_EVERY)), OP.i32Eq);
  a.if();
  emit(flushCounters(T), OP.i32Const, 0, set(T.pending));
  a.end();
  a.end(); // next
  return a.code;
}

// tally's locals: params 0 hashes, 1 count, 2 table, 3 mask, 4 counters, 5 dedupe;
// then 6 f, 7 slot, 8 addr, 9 total, 10 pending, 11 zeroSeen (i32); 12 h, 13 slotValue, 14-21 acc0..acc7 (i64).
const T_HASHES = 0, T_COUNT = 1, T_F = 6;
const T_TALLY: TallyLocals = {
  table: 2, mask: 3, counters: 4, dedupe: 5, slot: 7, addr: 8, total: 9, pending: 10, zeroSeen: 11, h: 12, slotValue: 13,
  acc: [14, 15, 16, 17, 18, 19, 20, 21],
};

function tallyBody(): number[] {
  const T = T_TALLY;
  return [
    OP.block, EMPTY, ...get(T_COUNT), OP.i32Eqz, OP.brIf, 0, // $done
    OP.loop, EMPTY, // $feature
    ...get(T_HASHES), ...get(T_F), OP.i32Const, 3, OP.i32Shl, OP.i32Add, ...mem(OP.i64Load), ...set(T.h),
    ...tallyOne(T),
    ...get(T_F), OP.i32Const, 1, OP.i32Add, OP.tee, T_F, ...get(T_COUNT), OP.i32LtU, OP.brIf, 0,
    OP.end, // $feature
    OP.end, // $done
    ...flushCounters(T), ...get(T.total), OP.end,
  ];
}

// compactAscii's locals: params 0 start, 1 end, 2 table, 3 starts, 4 ends, 5 capacity, 6 outLength;
// then 7 r, 8 w, 9 count, 10 v, 11 k (i32); 12 x, 13 y (i64).
const C_START = 0, C_END = 1, C_TABLE = 2, C_STARTS = 3, C_ENDS = 4, C_CAP = 5, C_OUT = 6;
const C_R = 7, C_W = 8, C_COUNT = 9, C_V = 10, C_K = 11, C_X = 12, C_Y = 13;
const ONES = 0x0101010101010101n;
const HIGH = 0x8080808080808080n;

/**
 * Stack: → i64 with the high bit of each byte of `value` (8 bytes below 0x80) set iff that byte is in
 * lo..hi: v in lo..hi iff (v + (0x80 - lo)) & ~(v + (0x7f - hi)) has its high bit set (no carries
 * between bytes below 0x80).
 */
function swarInRange(value: number[], lo: bigint, hi: bigint): number[] {
  return [
    ...value, ...i64((0x80n - lo) * ONES), OP.i64Add,
    ...value, ...i64((0x7fn - hi) * ONES), OP.i64Add, ...i64(-1n), OP.i64Xor,
    OP.i64And,
  ];
}

/**
 * Stack: → i64: the 8 bytes of `value` (each below 0x80 where `ascii` has its high bit clear) with
 * their uppercase ASCII letters lowercased and every other byte as it was (`_` stays `_`, where
 * `| 0x20` on every byte would make it DEL). `ascii`: an i64 whose bytes' high bits mark the bytes
 * that are not ASCII (their upper-case test is dropped).
 */
function lowercaseLetters(value: number[], ascii: number[]): number[] {
  return [...swarInRange(value, 0x41n, 0x5an), ...ascii, OP.i64And, ...i64(HIGH), OP.i64And, ...i64(2n), OP.i64ShrU, ...value, OP.i64Or];
}

/**
 * Stack: → i64 with the high bit of each byte of x (8 ASCII bytes, local C_X) set iff that byte is
 * NOT a word byte: an ASCII letter, digit or `_` (char-class.ts: UAX #29's ExtendNumLet joins words).
 * y (local C_Y) is x with its letters lowercased, so a byte is a letter iff y is in 'a'..'z'.
 */
function nonWordBytes(): number[] {
  return [
    ...swarInRange(get(C_Y), 0x61n, 0x7an), ...swarInRange(get(C_X), 0x30n, 0x39n), OP.i64Or, ...swarInRange(get(C_X), 0x5fn, 0x5fn), OP.i64Or,
    ...i64(HIGH), OP.i64And, ...i64(HIGH), OP.i64Xor,
  ];
}

function compactBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: (number | number[])[]) => {
    for (const part of parts) if (typeof part === 'number') code.push(part);
    else code.push(...part);
  };
  const mapped = () => [...get(C_TABLE), ...get(C_R), ...mem(OP.i32Load8u), OP.i32Add, ...mem(OP.i32Load8u)]; // table[buf[r]]
  emit(get(C_START), set(C_R));
  emit(OP.block, EMPTY); // $done
  emit(OP.loop, EMPTY); // $token
  // Skip separators; at the end of the input, finish.
  emit(OP.block, EMPTY, OP.loop, EMPTY); // $start, $skip
  emit(get(C_R), get(C_END), OP.i32GeU, OP.brIf, 3); // $skip 0, $start 1, $token 2, $done 3
  emit(mapped(), OP.tee, C_V, OP.brIf, 1);
  emit(get(C_R), OP.i32Const, 1, OP.i32Add, set(C_R), OP.br, 0);
  emit(OP.end, OP.end);
  // A token starts: room for it?
  emit(get(C_COUNT), get(C_CAP), OP.i32GeU, OP.if, EMPTY, OP.i32Const, ...sleb(-1n), OP.return, OP.end);
  // One space before every token but the first.
  emit(get(C_COUNT), OP.if, EMPTY);
  emit(get(C_W), OP.i32Const, 32, mem(OP.i32Store8), get(C_W), OP.i32Const, 1, OP.i32Add, set(C_W));
  emit(OP.end);
  emit(get(C_STARTS), get(C_COUNT), OP.i32Const, 2, OP.i32Shl, OP.i32Add, get(C_W), mem(OP.i32Store));
  // Copy the token's bytes, lowercased: 8 at a time while 8 input bytes remain (the write position
  // is at least 8 bytes behind the read position, so the 8-byte store never reaches unread input),
  // then byte by byte.
  emit(OP.block, EMPTY, OP.loop, EMPTY); // $stop, $copy
  emit(get(C_R), OP.i32Const, 8, OP.i32Add, get(C_END), OP.i32LeU, OP.if, EMPTY);
  emit(get(C_R), mem(OP.i64Load), set(C_X));
  emit(lowercaseLetters(get(C_X), i64(-1n)), set(C_Y));
  emit(get(C_W), get(C_Y), mem(OP.i64Store));
  // k = how many leading bytes are word bytes (8 when all are)
  emit(nonWordBytes(), OP.i64Ctz, OP.i32WrapI64, OP.i32Const, 3, OP.i32ShrU, set(C_K));
  emit(get(C_W), get(C_K), OP.i32Add, set(C_W), get(C_R), get(C_K), OP.i32Add, set(C_R));
  emit(get(C_K), OP.i32Const, 8, OP.i32Eq, OP.brIf, 1); // if 0, $copy 1, $stop 2
  emit(OP.br, 2);
  emit(OP.end);
  emit(mapped(), OP.tee, C_V, OP.i32Eqz, OP.brIf, 1);
  emit(get(C_W), get(C_V), mem(OP.i32Store8), get(C_W), OP.i32Const, 1, OP.i32Add, set(C_W));
  emit(get(C_R), OP.i32Const, 1, OP.i32Add, OP.tee, C_R, get(C_END), OP.i32LtU, OP.brIf, 0);
  emit(OP.end, OP.end);
  emit(get(C_ENDS), get(C_COUNT), OP.i32Const, 2, OP.i32Shl, OP.i32Add, get(C_W), mem(OP.i32Store));
  emit(get(C_COUNT), OP.i32Const, 1, OP.i32Add, set(C_COUNT));
  emit(OP.br, 0); // next token
  emit(OP.end); // $token
  emit(OP.end); // $done
  emit(get(C_OUT), get(C_W), mem(OP.i32Store));
  emit(get(C_COUNT));
  emit(OP.end); // function
  return code;
}

/** Fold-table entry kinds (bits 24..31 of an entry; bits 0..23 hold the folded code point). */
export const FOLD_UNKNOWN = 0, FOLD_SEP = 1, FOLD_WORD = 2, FOLD_SOLO = 3, FOLD_SS = 4, FOLD_ABORT = 5;

/**
 * An emitter whose branches name their target block, so nesting depths are never counted by hand.
 */
function emitter() {
  const code: number[] = [];
  const labels: string[] = [];
  const emit = (...parts: (number | number[])[]) => {
    for (const part of parts) if (typeof part === 'number') code.push(part);
    else code.push(...part);
  };
  const depth = (label: string) => {
    const i = labels.lastIndexOf(label);
    if (i < 0) throw new Error(`no block ${label}`);
    return labels.length - 1 - i;
  };
  return {
    code,
    emit,
    block: (label: string) => (labels.push(label), emit(OP.block, EMPTY)),
    loop: (label: string) => (labels.push(label), emit(OP.loop, EMPTY)),
    /** Pops a condition. */
    if: (label = '') => (labels.push(label), emit(OP.if, EMPTY)),
    else: () => emit(OP.else),
    end: () => (labels.pop(), emit(OP.end)),
    br: (label: string) => emit(OP.br, depth(label)),
    brIf: (label: string) => emit(OP.brIf, depth(label)),
  };
}

// compactText's locals: params 0 start, 1 end, 2 ascii table, 3 fold table, 4 starts, 5 ends,
// 6 capacity, 7 outLength, 8 charMode; then 9 r, 10 w, 11 count, 12 v, 13 k, 14 state, 15 sawSep,
// 16 b, 17 cp, 18 entry, 19 kind (i32); 20 x, 21 y (i64).
const X_START = 0, X_END = 1, X_ATAB = 2, X_FTAB = 3, X_STARTS = 4, X_ENDS = 5, X_CAP = 6, X_OUT = 7, X_CHAR = 8;
const X_R = 9, X_W = 10, X_COUNT = 11, X_V = 12, X_K = 13, X_STATE = 14, X_SAWSEP = 15, X_B = 16, X_CP = 17;
const X_ENTRY = 18, X_KIND = 19, X_X = 20, X_Y = 21;
/** compactText's token states. */
const S_SEP = 0, S_WORD = 1, S_SOLO = 2;

function compactTextBody(): number[] {
  const a = emitter();
  const { emit } = a;
  const inc = (local: number, by: number) => emit(get(local), OP.i32Const, ...sleb(BigInt(by)), OP.i32Add, set(local));
  const storeByte = (value: number[]) => {
    emit(get(X_W), value, mem(OP.i32Store8));
    inc(X_W, 1);
  };
  // ends[count++] = w
  const closeToken = () => {
    emit(get(X_ENDS), get(X_COUNT), OP.i32Const, 2, OP.i32Shl, OP.i32Add, get(X_W), mem(OP.i32Store));
    inc(X_COUNT, 1);
  };
  // Close the open token if any; a space where a separator stood (char mode) or always (word mode); start a token.
  const openToken = (state: number[]) => {
    emit(get(X_STATE));
    a.if();
    closeToken();
    a.end();
    emit(get(X_COUNT), get(X_CAP), OP.i32GeU);
    a.if();
    emit(OP.i32Const, ...sleb(-2n), OP.return);
    a.end();
    emit(get(X_COUNT), OP.i32Eqz, OP.i32Eqz, get(X_SAWSEP), get(X_CHAR), OP.i32Eqz, OP.i32Or, OP.i32And);
    a.if();
    storeByte([OP.i32Const, 32]);
    a.end();
    emit(OP.i32Const, 0, set(X_SAWSEP));
    emit(get(X_STARTS), get(X_COUNT), OP.i32Const, 2, OP.i32Shl, OP.i32Add, get(X_W), mem(OP.i32Store));
    emit(state, set(X_STATE));
  };
  const separator = () => {
    emit(get(X_STATE));
    a.if();
    closeToken();
    emit(OP.i32Const, S_SEP, set(X_STATE));
    a.end();
    emit(OP.i32Const, 1, set(X_SAWSEP));
  };
  const byteAt = (offset: number) => [...get(X_R), ...mem(OP.i32Load8u, offset)];

  emit(get(X_START), set(X_R));
  a.block('done');
  a.loop('main');
  emit(get(X_R), get(X_END), OP.i32GeU);
  a.brIf('done');
  emit(byteAt(0), OP.tee, X_B, OP.i32Const, ...sleb(0x80n), OP.i32LtU);
  a.if();
  {
    emit(get(X_ATAB), get(X_B), OP.i32Add, mem(OP.i32Load8u), OP.tee, X_V);
    a.if();
    {
      // An ASCII letter or digit: open a word unless one is open, then copy the run lowercased,
      // 8 bytes at a time while 8 input bytes remain and the write position is 8 bytes behind.
      emit(get(X_STATE), OP.i32Const, S_WORD, OP.i32Ne);
      a.if();
      openToken([OP.i32Const, S_WORD]);
      a.end();
      a.block('stop');
      a.loop('copy');
      emit(get(X_R), OP.i32Const, 8, OP.i32Add, get(X_END), OP.i32LeU, get(X_R), get(X_W), OP.i32Sub, OP.i32Const, 8, OP.i32GeU, OP.i32And);
      a.if();
      emit(get(X_R), mem(OP.i64Load), set(X_X));
      // word bytes: ASCII (high bit clear) letters, digits or `_`, tested on the low 7 bits (no carries)
      const low7 = [...get(X_X), ...i64(0x7fn * ONES), OP.i64And];
      const ascii = [...get(X_X), ...i64(-1n), OP.i64Xor];
      emit(lowercaseLetters(low7, ascii), get(X_X), i64(HIGH), OP.i64And, OP.i64Or, set(X_Y));
      emit(get(X_W), get(X_Y), mem(OP.i64Store));
      const lowered = [...low7, ...i64(0x20n * ONES), OP.i64Or];
      emit(swarInRange(lowered, 0x61n, 0x7an), swarInRange(low7, 0x30n, 0x39n), OP.i64Or, swarInRange(low7, 0x5fn, 0x5fn), OP.i64Or);
      emit(get(X_X), i64(-1n), OP.i64Xor, OP.i64And, i64(HIGH), OP.i64And, i64(HIGH), OP.i64Xor);
      emit(OP.i64Ctz, OP.i32WrapI64, OP.i32Const, 3, OP.i32ShrU, set(X_K));
      emit(get(X_W), get(X_K), OP.i32Add, set(X_W), get(X_R), get(X_K), OP.i32Add, set(X_R));
      emit(get(X_K), OP.i32Const, 8, OP.i32Eq);
      a.brIf('copy');
      a.br('stop');
      a.end();
      emit(get(X_ATAB), byteAt(0), OP.i32Add, mem(OP.i32Load8u), OP.tee, X_V, OP.i32Eqz);
      a.brIf('stop');
      storeByte(get(X_V));
      emit(get(X_R), OP.i32Const, 1, OP.i32Add, OP.tee, X_R, get(X_END), OP.i32LtU);
      a.brIf('copy');
      a.end();
      a.end();
      a.br('main');
    }
    a.end();
    // An ASCII separator.
    separator();
    inc(X_R, 1);
    a.br('main');
  }
  a.end();
  // Non-ASCII: decode one code point (valid UTF-8 from TextEncoder); beyond the BMP is never simple.
  emit(get(X_B), OP.i32Const, ...sleb(0xf0n), OP.i32GeU);
  a.if();
  emit(OP.i32Const, ...sleb(-1n), OP.return);
  a.end();
  emit(get(X_B), OP.i32Const, ...sleb(0xe0n), OP.i32LtU);
  a.if();
  emit(get(X_B), OP.i32Const, ...sleb(0x1fn), OP.i32And, OP.i32Const, 6, OP.i32Shl);
  emit(byteAt(1), OP.i32Const, ...sleb(0x3fn), OP.i32And, OP.i32Or, set(X_CP));
  inc(X_R, 2);
  a.else();
  emit(get(X_B), OP.i32Const, ...sleb(0x0fn), OP.i32And, OP.i32Const, 12, OP.i32Shl);
  emit(byteAt(1), OP.i32Const, ...sleb(0x3fn), OP.i32And, OP.i32Const, 6, OP.i32Shl, OP.i32Or);
  emit(byteAt(2), OP.i32Const, ...sleb(0x3fn), OP.i32And, OP.i32Or, set(X_CP));
  inc(X_R, 3);
  a.end();
  emit(get(X_FTAB), get(X_CP), OP.i32Const, 2, OP.i32Shl, OP.i32Add, mem(OP.i32Load), OP.tee, X_ENTRY);
  emit(OP.i32Const, 24, OP.i32ShrU, OP.tee, X_KIND, OP.i32Eqz);
  a.if();
  // Its block of the table is not filled yet: the caller fills it and starts over.
  emit(OP.i32Const, ...sleb(-3n), get(X_CP), OP.i32Const, 8, OP.i32ShrU, OP.i32Sub, OP.return);
  a.end();
  emit(get(X_KIND), OP.i32Const, FOLD_ABORT, OP.i32Eq);
  a.if();
  emit(OP.i32Const, ...sleb(-1n), OP.return);
  a.end();
  emit(get(X_KIND), OP.i32Const, FOLD_SEP, OP.i32Eq);
  a.if();
  separator();
  a.br('main');
  a.end();
  // A letter or digit: a one-character token always opens; a word opens unless one is open.
  emit(get(X_KIND), OP.i32Const, FOLD_SOLO, OP.i32Eq, get(X_STATE), OP.i32Const, S_WORD, OP.i32Ne, OP.i32Or);
  a.if();
  openToken([OP.i32Const, S_SOLO, OP.i32Const, S_WORD, get(X_KIND), OP.i32Const, FOLD_SOLO, OP.i32Eq, OP.select].flat());
  a.end();
  // Write the folded code point as UTF-8 (the fold table holds only BMP code points); ß and ẞ as "ss".
  emit(get(X_ENTRY), OP.i32Const, ...sleb(0xffffffn), OP.i32And, set(X_CP));
  emit(get(X_CP), OP.i32Const, ...sleb(0x80n), OP.i32LtU);
  a.if();
  storeByte(get(X_CP));
  emit(get(X_KIND), OP.i32Const, FOLD_SS, OP.i32Eq);
  a.if();
  storeByte(get(X_CP));
  a.end();
  a.else();
  emit(get(X_CP), OP.i32Const, ...sleb(0x800n), OP.i32LtU);
  a.if();
  storeByte([...get(X_CP), OP.i32Const, 6, OP.i32ShrU, OP.i32Const, ...sleb(0xc0n), OP.i32Or]);
  a.else();
  storeByte([...get(X_CP), OP.i32Const, 12, OP.i32ShrU, OP.i32Const, ...sleb(0xe0n), OP.i32Or]);
  storeByte([...get(X_CP), OP.i32Const, 6, OP.i32ShrU, OP.i32Const, ...sleb(0x3fn), OP.i32And, OP.i32Const, ...sleb(0x80n), OP.i32Or]);
  a.end();
  storeByte([...get(X_CP), OP.i32Const, ...sleb(0x3fn), OP.i32And, OP.i32Const, ...sleb(0x80n), OP.i32Or]);
  a.end();
  a.br('main');
  a.end(); // main
  a.end(); // done
  emit(get(X_STATE));
  a.if();
  closeToken();
  a.end();
  emit(get(X_OUT), get(X_W), mem(OP.i32Store));
  emit(get(X_COUNT));
  emit(OP.end); // function
  return a.code;
}

// codePoints' locals: params 0 len, 1 starts; then 2 i, 3 c (i32).
function codePointsBody(): number[] {
  const a = emitter();
  const { emit } = a;
  const LEN = 0, STARTS_ = 1, I = 2, C = 3;
  a.block('done');
  a.loop('byte');
  emit(get(I), get(LEN), OP.i32GeU);
  a.brIf('done');
  // a byte that is not a UTF-8 continuation byte (10xxxxxx) starts a code point
  emit(get(I), mem(OP.i32Load8u), OP.i32Const, ...sleb(0xc0n), OP.i32And, OP.i32Const, ...sleb(0x80n), OP.i32Ne);
  a.if();
  emit(get(STARTS_), get(C), OP.i32Const, 2, OP.i32Shl, OP.i32Add, get(I), mem(OP.i32Store));
  emit(get(C), OP.i32Const, 1, OP.i32Add, set(C));
  a.end();
  emit(get(I), OP.i32Const, 1, OP.i32Add, set(I));
  a.br('byte');
  a.end(); // byte
  a.end(); // done
  emit(get(STARTS_), get(C), OP.i32Const, 2, OP.i32Shl, OP.i32Add, get(LEN), mem(OP.i32Store));
  emit(get(C), OP.end);
  return a.code;
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(s: string): number[] {
  return [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
}

/** The kernel module's bytes. */
export function xxh64KernelBytes(): Uint8Array {
  const hashFn = [2, 5, I32, 5, I64, ...body()]; // locals: 5 x i32 (f, p, e, lim, start), 5 x i64 (h, v1..v4)
  const tallyFn = [2, 6, I32, 10, I64, ...tallyBody()]; // locals: 6 x i32 (f, slot, addr, total, pending, zeroSeen), 10 x i64 (h, slotValue, acc0..acc7)
  const compactFn = [2, 5, I32, 2, I64, ...compactBody()]; // locals: 5 x i32 (r, w, count, v, k), 2 x i64 (x, y)
  const compactTextFn = [2, 11, I32, 2, I64, ...compactTextBody()]; // locals: 11 x i32 (r .. kind), 2 x i64 (x, y)
  const codePointsFn = [1, 2, I32, ...codePointsBody()]; // locals: 2 x i32 (i, c)
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    // type 0: (i32 x4) -> (); type 1: (i32 x7) -> i32; type 2: (i32 x9) -> i32; type 3: (i32 x6) -> i32; type 4: (i32 x2) -> i32
    ...section(1, [5, 0x60, 4, I32, I32, I32, I32, 0, 0x60, 7, I32, I32, I32, I32, I32, I32, I32, 1, I32,
      0x60, 9, I32, I32, I32, I32, I32, I32, I32, I32, I32, 1, I32, 0x60, 6, I32, I32, I32, I32, I32, I32, 1, I32,
      0x60, 2, I32, I32, 1, I32]),
    // functions: 0 hash (type 0), 1 tally (type 3), 2 compactAscii (type 1), 3 compactText (type 2), 4 codePoints (type 4)
    ...section(3, [5, 0, 3, 1, 2, 4]),
    ...section(5, [1, 0x00, 1]), // one memory, 1 page minimum, no maximum
    ...section(7, [6, ...name('memory'), 0x02, 0, ...name('hash'), 0x00, 0, ...name('tally'), 0x00, 1, ...name('compactAscii'), 0x00, 2,
      ...name('compactText'), 0x00, 3, ...name('codePoints'), 0x00, 4]),
    ...section(10, [
      5,
      ...uleb(hashFn.length), ...hashFn,
      ...uleb(tallyFn.length), ...tallyFn,
      ...uleb(compactFn.length), ...compactFn,
      ...uleb(compactTextFn.length), ...compactTextFn,
      ...uleb(codePointsFn.length), ...codePointsFn,
    ]),
  ]);
}

let compiled: WebAssembly.Module | null | undefined;

/**
 * A new kernel instance with its own memory (one per fingerprinter, so fingerprinters never share
 * buffers). The module is compiled once, synchronously (about 5.5 KB: workers and current browsers'
 * main threads allow it; older Chromium refused synchronous compiles over 4 KB on the main thread);
 * null where WebAssembly is unavailable or refused, and callers then use the JavaScript path.
 */
export function createXxh64Kernel(): Xxh64Kernel | null {
  try {
    if (compiled === undefined) compiled = new WebAssembly.Module(xxh64KernelBytes() as Uint8Array<ArrayBuffer>);
    if (compiled === null) return null;
    const exports = new WebAssembly.Instance(compiled, {}).exports as {
      memory: WebAssembly.Memory;
      hash: Xxh64Kernel['hash'];
      tally: Xxh64Kernel['tally'];
      compactAscii: Xxh64Kernel['compactAscii'];
      compactText: Xxh64Kernel['compactText'];
      codePoints: Xxh64Kernel['codePoints'];
    };
    const { memory, hash, tally, compactAscii, compactText, codePoints } = exports;
    return { memory, hash, tally, compactAscii, compactText, codePoints };
  } catch {
    compiled = null;
    return null;
  }
}
