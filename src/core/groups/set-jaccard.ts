/**
 * Owns exact Jaccard of a verification chunk's pairs, containment's counts of a chunk's pairs, and the
 * feature-set codec's encoder, in the WebAssembly kernel (kernels/set-jaccard.ts, compiled by
 * bin/build-kernels.js): the chunk's encoded sets are decoded once each into the kernel's memory, then
 * every pair is measured there by a branchless merge. Same values as `jaccardSorted` and
 * `intersectionAtLeast`.
 */
import { WASM_BASE64 } from './set-jaccard-wasm.ts';
import { neededCommon } from './contained-pairs.ts';
import { growMemoryTo } from '../wasm-memory.ts';
import { sharedSetWords, type SharedSets } from './packed-sets.ts';

interface SetJaccardExports {
  memory: WebAssembly.Memory;
  encodeSet(keys: number, n: number, L: number, out: number): number;
  decodeSet(src: number, dst: number): number;
  jaccardPairs(keys: number, offsets: number, a: number, b: number, count: number, out: number): void;
  containmentPairs(keys: number, offsets: number, a: number, b: number, need: number, count: number, out: number): void;
}

/**
 * A chunk's sets: encoded ones (feature-set-codec.ts) packed as set `docs[i]` = words[offsets[i] .. offsets[i + 1]),
 * and those named in shared memory (`shared`, packed-sets.ts), copied straight into the kernel's memory.
 */
export interface EncodedSets {
  docs: Uint32Array;
  offsets: Uint32Array;
  words: Uint32Array;
  shared?: SharedSets;
}

/** Pairs of set indexes. */
export interface SetPairs {
  a: Uint32Array;
  b: Uint32Array;
  count: number;
}

let compiled: WebAssembly.Module | undefined;
let kernel: SetJaccardExports | undefined;

function instance(): SetJaccardExports {
  if (!kernel) {
    const text = atob(WASM_BASE64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    // Compiled once per thread, synchronously (a few hundred bytes: allowed on any thread).
    compiled ??= new WebAssembly.Module(bytes);
    kernel = new WebAssembly.Instance(compiled, {}).exports as unknown as SetJaccardExports;
  }
  return kernel;
}

/** Where the regions start: the kernel keeps no data of its own, but a page stays free below. */
const BASE = 65536;

/**
 * The codec's words for `keys` (sorted, distinct, at least one) with `L` low bits a key, which take at
 * most `boundWords`, written by the kernel: a view of its memory, valid until its next call.
 */
export function encodeSetWords(keys: Uint32Array, L: number, boundWords: number): Uint32Array {
  const k = instance();
  const outAt = BASE + 4 * keys.length;
  const end = outAt + 4 * boundWords;
  growMemoryTo(k.memory, end);
  new Uint32Array(k.memory.buffer, BASE, keys.length).set(keys);
  const words = k.encodeSet(BASE, keys.length, L, outAt);
  return new Uint32Array(k.memory.buffer, outAt, words);
}

/**
 * Decodes a chunk's sets into the kernel's memory (set s: the encoded set of `encoded` naming it, else
 * `decoded[s]`, else empty), each once however many pairs it is in, with the pairs after them and room
 * for `outBytes` of results: the addresses the kernel's pair loops take, and each set's size.
 */
function loadChunk(count: number, encoded: EncodedSets | undefined, decoded: ReadonlyArray<Uint32Array | null | undefined>, pairs: SetPairs, outBytes: number): { k: SetJaccardExports; keysAt: number; offsetsAt: number; aAt: number; bAt: number; outAt: number; sizes: Uint32Array } {
  const k = instance();
  const keyOffsets = new Uint32Array(count + 1);
  // Where each set's encoded words start in the kernel's memory (in words; -1: none), the packed ones first, then the shared ones.
  const fromEncoded = new Int32Array(count).fill(-1);
  let words = encoded?.words.length ?? 0;
  if (encoded) for (let i = 0; i < encoded.docs.length; i++) fromEncoded[encoded.docs[i]] = encoded.offsets[i];
  const shared = encoded?.shared;
  if (shared) {
    for (let i = 0; i < shared.docs.length; i++) {
      fromEncoded[shared.docs[i]] = words;
      words += shared.length[i];
    }
  }
  const encodedAt = BASE;
  growMemoryTo(k.memory, encodedAt + 4 * words);
  const encodedWords = new Uint32Array(k.memory.buffer, encodedAt, words);
  if (encoded) encodedWords.set(encoded.words);
  if (shared) for (let i = 0; i < shared.docs.length; i++) encodedWords.set(sharedSetWords(shared, i), fromEncoded[shared.docs[i]]);
  for (let s = 0; s < count; s++) {
    const e = fromEncoded[s];
    // An encoded set's word 0 is its key count.
    keyOffsets[s + 1] = keyOffsets[s] + (e >= 0 ? encodedWords[e] : (decoded[s]?.length ?? 0));
  }
  const keysAt = encodedAt + 4 * words;
  const offsetsAt = keysAt + 4 * keyOffsets[count];
  const aAt = offsetsAt + 4 * (count + 1);
  const bAt = aAt + 4 * pairs.count;
  // f64 results 8-byte aligned.
  const outAt = (bAt + 4 * pairs.count + 7) & ~7;
  const end = outAt + outBytes;
  growMemoryTo(k.memory, end);
  const buffer = k.memory.buffer;
  new Uint32Array(buffer, offsetsAt, count + 1).set(keyOffsets);
  new Uint32Array(buffer, aAt, pairs.count).set(pairs.a.subarray(0, pairs.count));
  new Uint32Array(buffer, bAt, pairs.count).set(pairs.b.subarray(0, pairs.count));
  const keys = new Uint32Array(buffer, keysAt, keyOffsets[count]);
  for (let s = 0; s < count; s++) {
    const e = fromEncoded[s];
    if (e >= 0) k.decodeSet(encodedAt + 4 * e, keysAt + 4 * keyOffsets[s]);
    else if (decoded[s]) keys.set(decoded[s]!, keyOffsets[s]);
  }
  const sizes = new Uint32Array(count);
  for (let s = 0; s < count; s++) sizes[s] = keyOffsets[s + 1] - keyOffsets[s];
  return { k, keysAt, offsetsAt, aAt, bAt, outAt, sizes };
}

/**
 * The exact Jaccard of each pair over `count` sets: set s is the encoded set of `encoded` naming it,
 * else `decoded[s]` (sorted, duplicate-free keys), else empty (an unreadable document: Jaccard 0).
 * Each encoded set is decoded once however many pairs it is in; no allocation per pair.
 */
export function chunkJaccards(count: number, encoded: EncodedSets | undefined, decoded: ReadonlyArray<Uint32Array | null | undefined>, pairs: SetPairs): Float64Array {
  const { k, keysAt, offsetsAt, aAt, bAt, outAt } = loadChunk(count, encoded, decoded, pairs, 8 * pairs.count);
  k.jaccardPairs(keysAt, offsetsAt, aAt, bAt, pairs.count, outAt);
  return new Float64Array(k.memory.buffer, outAt, pairs.count).slice();
}

/**
 * Containment's counts of a chunk's pairs at `threshold` (three a pair: |A ∩ B|, |A|, |B|; an empty or
 * missing set counts 0), from the same kernel, sets decoded in its memory: |A ∩ B| is exact when the
 * smaller set's containment reaches the threshold, else the merge stops as soon as it cannot and gives
 * `COUNT_BELOW | an upper bound` (core `intersectionAtLeast`; threshold 0: every count exact).
 */
export function chunkContainmentCounts(count: number, encoded: EncodedSets | undefined, decoded: ReadonlyArray<Uint32Array | null | undefined>, pairs: SetPairs, threshold: number): Uint32Array {
  const n = pairs.count;
  const { k, keysAt, offsetsAt, aAt, bAt, outAt, sizes } = loadChunk(count, encoded, decoded, pairs, 8 * n);
  // The counts asked for go after the results (4 bytes each of the 8 reserved a pair).
  const needAt = outAt + 4 * n;
  const need = new Uint32Array(k.memory.buffer, needAt, n);
  for (let p = 0; p < n; p++) need[p] = neededCommon(threshold, Math.min(sizes[pairs.a[p]], sizes[pairs.b[p]]));
  k.containmentPairs(keysAt, offsetsAt, aAt, bAt, needAt, n, outAt);
  const common = new Uint32Array(k.memory.buffer, outAt, n);
  const counts = new Uint32Array(3 * n);
  for (let p = 0; p < n; p++) {
    const sizeA = sizes[pairs.a[p]];
    const sizeB = sizes[pairs.b[p]];
    counts[3 * p] = sizeA > 0 && sizeB > 0 ? common[p] : 0;
    counts[3 * p + 1] = sizeA;
    counts[3 * p + 2] = sizeB;
  }
  return counts;
}
