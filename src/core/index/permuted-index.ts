/**
 * The stored form of the permuted-table index: C(m, k) tables of fully sorted keys with their
 * document ids, as plain typed arrays (transferable to workers, storable as sorted binary shards),
 * plus one-fingerprint queries by binary search and merging in new documents.
 */
import { popcount32 } from '../simhash/fingerprint64.ts';
import { agreeingBlocks, blockLayout, extractKey, extractKeys, type BlockLayout } from './block-layout.ts';
import { chooseBlocks } from './search-cost.ts';

/**
 * One permuted table, sorted by key. keyHi holds the key's first 32 bits (MSB-aligned); keyLo the
 * next 32 and is empty when the key has at most 32 bits. Entries with equal keys are in document
 * order. A shard of the table is any contiguous range; `shardBounds` splits it by leading key bits.
 */
export interface PermutedTable {
  keyHi: Uint32Array;
  keyLo: Uint32Array;
  docs: Uint32Array;
}

/**
 * The permuted-table index over `count` documents (ids 0..count-1): their fingerprints (hi, lo by
 * id) and one table per key block set, in `blockLayout(k, blocks)` order. Plain data only.
 */
export interface PermutedIndex {
  k: number;
  blocks: number;
  count: number;
  hi: Uint32Array;
  lo: Uint32Array;
  tables: PermutedTable[];
}

/** Options for `buildIndex`. */
export interface BuildIndexOptions {
  /** Number of blocks m (> k). Chosen by `chooseBlocks(n, k)` when absent. */
  blocks?: number;
}

/** Documents matching a query, sorted by document id, with their distances. */
export interface QueryResult {
  docs: Uint32Array;
  distance: Uint8Array;
}

/**
 * Builds the index for fingerprints (hi[i], lo[i]) = document i, answering queries up to distance k.
 * The fingerprints are copied, so the caller's arrays stay usable (and transferable).
 */
export function buildIndex(
  hi: Uint32Array,
  lo: Uint32Array,
  k: number,
  options: BuildIndexOptions = {},
): PermutedIndex {
  if (hi.length !== lo.length) throw new RangeError(`hi and lo differ in length (${hi.length} vs ${lo.length})`);
  const n = hi.length;
  const blocks = options.blocks ?? chooseBlocks(n, k);
  const layout = blockLayout(k, blocks);
  const tables = layout.tables.map((_, t) => buildTable(layout, t, hi, lo, 0));
  return { k, blocks, count: n, hi: hi.slice(), lo: lo.slice(), tables };
}

/** One sorted table for documents firstId.. (hi/lo positions 0..). */
function buildTable(layout: BlockLayout, t: number, hi: Uint32Array, lo: Uint32Array, firstId: number): PermutedTable {
  const n = hi.length;
  const table = layout.tables[t];
  const wide = table.bits > 32;
  let keyHi = new Uint32Array(n);
  let keyLo = new Uint32Array(wide ? n : 0);
  let docs = new Uint32Array(n);
  extractKeys(table, hi, lo, n, keyHi, wide ? keyLo : null);
  for (let i = 0; i < n; i++) docs[i] = firstId + i;
  if (n < 2) return { keyHi, keyLo, docs };

  // LSD radix sort on 16-bit digits of the MSB-aligned key, skipping digits beyond its width.
  let tHi = new Uint32Array(n);
  let tLo = new Uint32Array(wide ? n : 0);
  let tDocs = new Uint32Array(n);
  const count = new Uint32Array(65537);
  const digits: Array<[0 | 1, number]> = [];
  if (table.bits > 48) digits.push([1, 0]);
  if (table.bits > 32) digits.push([1, 16]);
  if (table.bits > 16) digits.push([0, 0]);
  digits.push([0, 16]);
  for (const [word, shift] of digits) {
    const src = word === 0 ? keyHi : keyLo;
    count.fill(0);
    for (let i = 0; i < n; i++) count[((src[i] >>> shift) & 0xffff) + 1]++;
    for (let v = 1; v < 65537; v++) count[v] += count[v - 1];
    for (let i = 0; i < n; i++) {
      const p = count[(src[i] >>> shift) & 0xffff]++;
      tHi[p] = keyHi[i];
      if (wide) tLo[p] = keyLo[i];
      tDocs[p] = docs[i];
    }
    [keyHi, tHi] = [tHi, keyHi];
    [keyLo, tLo] = [tLo, keyLo];
    [docs, tDocs] = [tDocs, docs];
  }
  return { keyHi, keyLo, docs };
}

/** First position in `table` whose key is >= (kh, kl). */
function lowerBound(table: PermutedTable, kh: number, kl: number): number {
  const { keyHi, keyLo } = table;
  const wide = keyLo.length > 0;
  let lo = 0;
  let hi = keyHi.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const h = keyHi[mid];
    if (h < kh || (wide && h === kh && keyLo[mid] < kl)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every stored document within distance k (<= index.k) of the fingerprint (hi, lo), each once,
 * sorted by document id: binary search of each table for the query's key, then an exact distance
 * check of the run of equal keys.
 */
export function queryIndex(index: PermutedIndex, hi: number, lo: number, k: number = index.k): QueryResult {
  if (!Number.isInteger(k) || k < 0 || k > index.k) {
    throw new RangeError(`query distance must be an integer in 0..${index.k} (the index's k), got ${k}`);
  }
  const layout = layoutOf(index);
  const qh = hi >>> 0;
  const ql = lo >>> 0;
  const key = new Uint32Array(2);
  // Packed as doc * 128 + distance so one numeric typed-array sort orders the result by document.
  let found = new Float64Array(16);
  let count = 0;
  for (let t = 0; t < layout.tables.length; t++) {
    const spec = layout.tables[t];
    const table = index.tables[t];
    extractKey(spec, qh, ql, key);
    const kh = key[0];
    const kl = key[1];
    const wide = table.keyLo.length > 0;
    for (let p = lowerBound(table, kh, kl); p < table.keyHi.length; p++) {
      if (table.keyHi[p] !== kh || (wide && table.keyLo[p] !== kl)) break;
      const doc = table.docs[p];
      const xh = (qh ^ index.hi[doc]) >>> 0;
      const xl = (ql ^ index.lo[doc]) >>> 0;
      const d = popcount32(xh) + popcount32(xl);
      if (d > k) continue;
      const agree = agreeingBlocks(layout, xh, xl);
      if ((agree & spec.mustDiffer) !== 0) continue; // an earlier table already reported it
      if (count === found.length) {
        const grown = new Float64Array(found.length * 2);
        grown.set(found);
        found = grown;
      }
      found[count++] = doc * 128 + d;
    }
  }
  const sorted = found.subarray(0, count).sort();
  const docs = new Uint32Array(count);
  const distance = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    docs[i] = Math.floor(sorted[i] / 128);
    distance[i] = sorted[i] % 128;
  }
  return { docs, distance };
}

/**
 * A new index holding the documents of `index` plus the fingerprints (hi[i], lo[i]) as documents
 * index.count + i: the new documents' tables are sorted and merged into each existing table.
 */
export function mergeIndex(index: PermutedIndex, hi: Uint32Array, lo: Uint32Array): PermutedIndex {
  if (hi.length !== lo.length) throw new RangeError(`hi and lo differ in length (${hi.length} vs ${lo.length})`);
  const layout = layoutOf(index);
  const n = index.count + hi.length;
  const allHi = new Uint32Array(n);
  const allLo = new Uint32Array(n);
  allHi.set(index.hi.subarray(0, index.count));
  allHi.set(hi, index.count);
  allLo.set(index.lo.subarray(0, index.count));
  allLo.set(lo, index.count);
  const tables = layout.tables.map((_, t) =>
    mergeTables(index.tables[t], buildTable(layout, t, hi, lo, index.count)),
  );
  return { k: index.k, blocks: index.blocks, count: n, hi: allHi, lo: allLo, tables };
}

/** Merges two sorted tables; on equal keys entries of `a` come first (they have smaller ids). */
export function mergeTables(a: PermutedTable, b: PermutedTable): PermutedTable {
  const na = a.keyHi.length;
  const nb = b.keyHi.length;
  const wide = a.keyLo.length > 0 || b.keyLo.length > 0;
  const keyHi = new Uint32Array(na + nb);
  const keyLo = new Uint32Array(wide ? na + nb : 0);
  const docs = new Uint32Array(na + nb);
  let i = 0;
  let j = 0;
  let o = 0;
  while (i < na && j < nb) {
    const ah = a.keyHi[i];
    const bh = b.keyHi[j];
    const takeB = bh < ah || (wide && bh === ah && b.keyLo[j] < a.keyLo[i]);
    if (takeB) {
      keyHi[o] = bh;
      if (wide) keyLo[o] = b.keyLo[j];
      docs[o++] = b.docs[j++];
    } else {
      keyHi[o] = ah;
      if (wide) keyLo[o] = a.keyLo[i];
      docs[o++] = a.docs[i++];
    }
  }
  for (; i < na; i++, o++) {
    keyHi[o] = a.keyHi[i];
    if (wide) keyLo[o] = a.keyLo[i];
    docs[o] = a.docs[i];
  }
  for (; j < nb; j++, o++) {
    keyHi[o] = b.keyHi[j];
    if (wide) keyLo[o] = b.keyLo[j];
    docs[o] = b.docs[j];
  }
  return { keyHi, keyLo, docs };
}

/**
 * Splits a sorted table by the leading `shardBits` bits of the key: shard s is the entry range
 * [bounds[s], bounds[s + 1]). Shards in order concatenate back to the table.
 */
export function shardBounds(table: PermutedTable, shardBits: number): Uint32Array {
  if (!Number.isInteger(shardBits) || shardBits < 0 || shardBits > 16) {
    throw new RangeError(`shardBits must be an integer in 0..16 (got ${shardBits})`);
  }
  const shards = 2 ** shardBits;
  const bounds = new Uint32Array(shards + 1);
  const keys = table.keyHi;
  if (shardBits === 0) {
    bounds[1] = keys.length;
    return bounds;
  }
  const shift = 32 - shardBits;
  for (let i = 0; i < keys.length; i++) bounds[(keys[i] >>> shift) + 1]++;
  for (let s = 1; s <= shards; s++) bounds[s] += bounds[s - 1];
  return bounds;
}

/** The block layout an index was built with. */
export function layoutOf(index: PermutedIndex): BlockLayout {
  const layout = blockLayout(index.k, index.blocks);
  if (layout.tables.length !== index.tables.length) {
    throw new RangeError(`index has ${index.tables.length} tables; k=${index.k}, blocks=${index.blocks} needs ${layout.tables.length}`);
  }
  return layout;
}
