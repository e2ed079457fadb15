/**
 * The block layout of the permuted-table index (Manku, Jain, Das Sarma): how the 64 bits are cut
 * into m blocks, which m - k blocks key each of the C(m, k) tables, how a key is extracted from the
 * (hi, lo) halves, and which table "owns" a pair (so every pair is reported exactly once).
 */

/** Largest supported block count: a pair's zero-block set must fit one int32 bit mask. */
export const MAX_BLOCKS = 32;

/** Refuse layouts with more tables than this: they would take hours at any useful n. */
export const MAX_TABLES = 1_000_000;

/**
 * One table's key recipe. The key is the concatenation of the table's key blocks (in block order),
 * MSB-aligned in two uint32 words, so comparing (keyHi, keyLo) compares keys and the leading bits
 * of keyHi are the leading bits of the key (for sharding).
 */
export interface TableKey {
  /** Key width in bits (sum of the key blocks' sizes), 1..64. */
  readonly bits: number;
  /** Bit mask over block numbers: the blocks forming the key. */
  readonly keyMask: number;
  /**
   * Blocks that must differ for this table to own a pair: the non-key blocks numbered below the
   * last key block. The owner of a pair is the table whose key is the lowest m - k blocks the pair
   * agrees on (the lexicographically first key set contained in the agreeing blocks).
   */
  readonly mustDiffer: number;
  /**
   * Extraction segments, 5 ints each: source word (0 = hi, 1 = lo), left shift, length,
   * destination word (0 = keyHi, 1 = keyLo), right-side shift in the destination word.
   * Bits = ((src << leftShift) >>> (32 - length)) << destShift.
   */
  readonly segments: Int32Array;
}

/** The whole layout for (k, m): block bit ranges and one `TableKey` per table, in a fixed order. */
export interface BlockLayout {
  readonly k: number;
  readonly blocks: number;
  /** Block j covers bits [start[j], start[j] + size[j]) counted from the most significant bit. */
  readonly start: Int32Array;
  readonly size: Int32Array;
  /** Per block: the block's bits within hi and within lo (one of them may be 0). */
  readonly maskHi: Uint32Array;
  readonly maskLo: Uint32Array;
  readonly tables: readonly TableKey[];
}

/** Binomial coefficient C(n, r) as a float (exact while below 2^53). */
export function binomial(n: number, r: number): number {
  if (r < 0 || r > n) return 0;
  r = Math.min(r, n - r);
  let c = 1;
  for (let i = 1; i <= r; i++) c = (c * (n - r + i)) / i;
  return Math.round(c);
}

/** Explains why (k, m) cannot be laid out, or returns null when it can. */
export function layoutProblem(k: number, blocks: number): string | null {
  if (!Number.isInteger(k) || k < 0 || k > 63) return `k must be an integer in 0..63 for the index (got ${k})`;
  if (!Number.isInteger(blocks) || blocks <= k) return `blocks must be an integer greater than k=${k} (got ${blocks})`;
  if (blocks > MAX_BLOCKS || blocks > 64) return `blocks must be at most ${MAX_BLOCKS} (got ${blocks})`;
  const tables = binomial(blocks, k);
  if (tables > MAX_TABLES) return `blocks=${blocks} with k=${k} needs ${tables} tables (limit ${MAX_TABLES})`;
  return null;
}

/**
 * Builds the layout for distance k and m blocks: block sizes as even as possible (the first
 * 64 mod m blocks get one extra bit), tables in lexicographic order of their key block sets.
 */
export function blockLayout(k: number, blocks: number): BlockLayout {
  const id = `${k}/${blocks}`;
  let layout = layoutCache.get(id);
  if (!layout) {
    layout = computeLayout(k, blocks);
    layoutCache.set(id, layout);
  }
  return layout;
}

// Layouts are immutable and queries ask for theirs every time: keep each one after first use.
const layoutCache = new Map<string, BlockLayout>();

function computeLayout(k: number, blocks: number): BlockLayout {
  const problem = layoutProblem(k, blocks);
  if (problem) throw new RangeError(problem);
  const m = blocks;
  const start = new Int32Array(m);
  const size = new Int32Array(m);
  const maskHi = new Uint32Array(m);
  const maskLo = new Uint32Array(m);
  const base = Math.floor(64 / m);
  const extra = 64 % m;
  for (let j = 0, pos = 0; j < m; j++) {
    start[j] = pos;
    size[j] = base + (j < extra ? 1 : 0);
    for (let b = pos; b < pos + size[j]; b++) {
      if (b < 32) maskHi[j] |= 1 << (31 - b);
      else maskLo[j] |= 1 << (63 - b);
    }
    maskHi[j] >>>= 0;
    maskLo[j] >>>= 0;
    pos += size[j];
  }

  const tables: TableKey[] = [];
  const keyCount = m - k;
  const chosen = new Int32Array(keyCount);
  for (let i = 0; i < keyCount; i++) chosen[i] = i;
  for (;;) {
    tables.push(tableKey(chosen, start, size));
    // Next combination in lexicographic order.
    let i = keyCount - 1;
    while (i >= 0 && chosen[i] === m - keyCount + i) i--;
    if (i < 0) break;
    chosen[i]++;
    for (let j = i + 1; j < keyCount; j++) chosen[j] = chosen[j - 1] + 1;
  }
  return { k, blocks: m, start, size, maskHi, maskLo, tables };
}

function tableKey(chosen: Int32Array, start: Int32Array, size: Int32Array): TableKey {
  let keyMask = 0;
  let bits = 0;
  for (const j of chosen) {
    keyMask |= 1 << j;
    bits += size[j];
  }
  const last = chosen[chosen.length - 1];
  const below = last >= 31 ? 0x7fffffff : (1 << last) - 1;
  const mustDiffer = below & ~keyMask;

  // Walk the key bit by bit (by runs): each run stays inside one source word and one destination word.
  const seg: number[] = [];
  let dest = 0; // key bit position, 0 = MSB of keyHi
  for (const j of chosen) {
    let src = start[j];
    let left = size[j];
    while (left > 0) {
      const srcWord = src < 32 ? 0 : 1;
      const srcOff = src & 31;
      const destWord = dest < 32 ? 0 : 1;
      const destOff = dest & 31;
      const len = Math.min(left, 32 - srcOff, 32 - destOff);
      const q = seg.length - 5;
      // Adjacent key blocks continue the previous run: merge them so keys take fewer steps.
      if (q >= 0 && seg[q] === srcWord && seg[q + 3] === destWord && seg[q + 1] + seg[q + 2] === srcOff && seg[q + 4] === 32 - destOff) {
        seg[q + 2] += len;
        seg[q + 4] -= len;
      } else {
        seg.push(srcWord, srcOff, len, destWord, 32 - destOff - len);
      }
      src += len;
      dest += len;
      left -= len;
    }
  }
  return { bits, keyMask, mustDiffer, segments: Int32Array.from(seg) };
}

/**
 * Computes every document's key for one table into keyHi (and keyLo when the key is wider than
 * 32 bits and keyLo is given). Keys are MSB-aligned; unused low bits are zero.
 */
export function extractKeys(
  table: TableKey,
  hi: Uint32Array,
  lo: Uint32Array,
  n: number,
  keyHi: Uint32Array,
  keyLo: Uint32Array | null,
): void {
  const s = table.segments;
  const count = s.length / 5;
  // Specialise the common one- and two-segment keys inside the first word: the loop below is the
  // per-table cost floor of all-pairs.
  if (count === 1 && s[3] === 0) {
    const src = s[0] === 0 ? hi : lo;
    const left = s[1];
    const right = 32 - s[2];
    const dst = s[4];
    for (let i = 0; i < n; i++) keyHi[i] = ((src[i] << left) >>> right) << dst;
    return;
  }
  for (let i = 0; i < n; i++) {
    const h = hi[i];
    const l = lo[i];
    let kh = 0;
    let kl = 0;
    for (let q = 0; q < s.length; q += 5) {
      const v = (((s[q] === 0 ? h : l) << s[q + 1]) >>> (32 - s[q + 2])) << s[q + 4];
      if (s[q + 3] === 0) kh |= v;
      else kl |= v;
    }
    keyHi[i] = kh;
    if (keyLo) keyLo[i] = kl;
  }
}

/** One fingerprint's key for a table, written into out[0] (keyHi) and out[1] (keyLo). */
export function extractKey(table: TableKey, h: number, l: number, out: Uint32Array): void {
  const s = table.segments;
  let kh = 0;
  let kl = 0;
  for (let q = 0; q < s.length; q += 5) {
    const v = (((s[q] === 0 ? h : l) << s[q + 1]) >>> (32 - s[q + 2])) << s[q + 4];
    if (s[q + 3] === 0) kh |= v;
    else kl |= v;
  }
  out[0] = kh;
  out[1] = kl;
}

/** Bit mask over block numbers of the blocks where two fingerprints agree (x = a XOR b halves). */
export function agreeingBlocks(layout: BlockLayout, xHi: number, xLo: number): number {
  const { maskHi, maskLo, blocks } = layout;
  let z = 0;
  for (let j = 0; j < blocks; j++) if (((xHi & maskHi[j]) | (xLo & maskLo[j])) === 0) z |= 1 << j;
  return z;
}

/** True when `table` is the one table that reports a pair agreeing on the blocks `agree`. */
export function ownsPair(table: TableKey, agree: number): boolean {
  return (agree & table.keyMask) === table.keyMask && (agree & table.mustDiffer) === 0;
}

/**
 * A table's key (its first 32 bits: all that grouping needs) as at most four runs of bits, 4 ints
 * each: the word (0 = hi, 1 = lo), the right shift, the mask, the left shift (an unused run has mask
 * 0), for the pair kernel's grouping pass; null for a key of more runs (`extractKeys` computes it).
 */
export function keyRuns(table: TableKey): Int32Array | null {
  const seg = table.segments;
  const runs = new Int32Array(16);
  let r = 0;
  for (let q = 0; q < seg.length; q += 5) {
    if (seg[q + 3] !== 0) continue;
    if (r === 4) return null;
    const len = seg[q + 2];
    runs[4 * r] = seg[q];
    runs[4 * r + 1] = 32 - seg[q + 1] - len;
    runs[4 * r + 2] = len === 32 ? -1 : (1 << len) - 1;
    runs[4 * r + 3] = seg[q + 4];
    r++;
  }
  return runs;
}
