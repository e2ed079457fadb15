/**
 * Owns the compact, lossless form of a feature set kept from fingerprinting for exact verification:
 * the sorted distinct uint32 keys Elias-Fano coded. The keys are low halves of hashes, spread evenly
 * over 2^32, so a set of n keys costs about log2(2^32 / n) + 2 bits a key (about 2.9 bytes a key for a
 * 10 kB document's ~1,500 word 3-shingles, against 4 bytes raw) and decodes back exactly. Unlike
 * Rice-coded gaps (this codec's layout before, the same size), no key's place in the bits depends on
 * the one before's code: a decoder's keys do not wait on each other.
 *
 * Layout, in 32-bit words (never stored or sent off this machine in this form, so the platform's
 * byte order does not matter): word 0 the key count n, word 1 the low bits a key L, then the low part,
 * ceil(n * L / 32) words holding key i's low L bits at bit i * L, then the high part, a bit a key at
 * (key >>> L) + i (so a run of zeros before each key's one, as many as its high bits grew), all least
 * significant bit first.
 */
import { encodeSetWords } from './set-jaccard.ts';

/** The low bits a key for n keys up to `max`: the keys are about (max + 1) / n apart. */
function lowBits(n: number, max: number): number {
  const mean = (max + 1) / n;
  return mean < 2 ? 0 : Math.min(31, Math.floor(Math.log2(mean)));
}

/** The words of the low part and of the high part of n keys up to `max` with L low bits a key. */
function partWords(n: number, max: number, L: number): { low: number; high: number } {
  return { low: Math.ceil((n * L) / 32), high: Math.ceil((Math.floor(max / 2 ** L) + n) / 32) };
}

/** The words `encodeFeatureSet` of `keys` (sorted, duplicate-free) takes: room to encode it into. */
export function encodedWordsBound(keys: Uint32Array): number {
  const n = keys.length;
  if (n === 0) return 2;
  const max = keys[n - 1];
  const { low, high } = partWords(n, max, lowBits(n, max));
  return 2 + low + high;
}

/** Encodes a sorted, duplicate-free set of uint32 keys (see the file comment); `decodeFeatureSet` gives it back. */
export function encodeFeatureSet(keys: Uint32Array): Uint32Array {
  const out = new Uint32Array(encodedWordsBound(keys));
  const w = encodeFeatureSetInto(keys, out, 0);
  return w === out.length ? out : out.slice(0, w);
}

/**
 * `encodeFeatureSet` written into `out` from word `at` (room: `encodedWordsBound(keys)` words; every
 * word of the code is written, so `out` need not be zero): returns the index after its last word. Lets
 * a worker encode a batch's sets into one reused arena instead of two fresh arrays per document. The
 * parts are written by the WebAssembly kernel (set-jaccard.ts), whose decoder reads them back.
 */
export function encodeFeatureSetInto(keys: Uint32Array, out: Uint32Array, at: number): number {
  const n = keys.length;
  if (n === 0) {
    out[at] = 0;
    out[at + 1] = 0;
    return at + 2;
  }
  const words = encodeSetWords(keys, lowBits(n, keys[n - 1]), encodedWordsBound(keys));
  out.set(words, at);
  return at + words.length;
}

/** How many keys an encoded set holds. */
export function encodedSetSize(encoded: Uint32Array): number {
  return encoded[0];
}

/** Decodes an `encodeFeatureSet` result into its sorted keys (into `into` when it is large enough). */
export function decodeFeatureSet(encoded: Uint32Array, into?: Uint32Array): Uint32Array {
  const n = encoded[0];
  const L = encoded[1];
  const out = into && into.length >= n ? into.subarray(0, n) : new Uint32Array(n);
  if (n === 0) return out;
  const lowMask = L === 0 ? 0 : (2 ** L - 1) >>> 0;
  const scale = 2 ** L;
  let word = 2 + partWords(n, 0, L).low;
  // As the kernel's decodeSet: a key a set bit of the high part, its high bits that bit's place less i.
  let base = 0;
  let lowBit = 0;
  for (let i = 0; i < n; word++, base += 32) {
    let x = encoded[word];
    while (x !== 0) {
      const t = 31 - Math.clz32(x & -x);
      x &= x - 1;
      const w = 2 + (lowBit >>> 5);
      const shift = lowBit & 31;
      // Low bits across two words: the second only when they reach it (a shift by 32 is one by 0 in JS).
      let lo = encoded[w] >>> shift;
      if (shift + L > 32) lo |= encoded[w + 1] << (32 - shift);
      out[i] = (base + t - i) * scale + ((lo & lowMask) >>> 0);
      lowBit += L;
      i++;
    }
  }
  return out;
}
