/**
 * Owns the compact, lossless form of a feature set kept from fingerprinting for exact verification:
 * the sorted distinct uint32 keys as Rice-coded gaps. The keys are low halves of hashes, spread
 * evenly over 2^32, so a set of n keys costs about log2(2^32 / n) + 2.4 bits a key (about 2.9 bytes a
 * key for a 10 kB document's ~1,500 word 3-shingles, against 4 bytes raw) and decodes back exactly.
 *
 * Layout, in 32-bit words (never stored or sent off this machine in this form, so the platform's
 * byte order does not matter): word 0 the key count n, word 1 the Rice parameter L, then the bit
 * stream, least significant bit first: per key, the gap to the previous key (the first key's gap is
 * the key) as (gap >>> L) zeros and a one, then the gap's low L bits.
 */
import { encodeSetWords } from './set-jaccard.ts';

/** The Rice parameter for n keys up to `max`: the gaps average about (max + 1) / n. */
function riceParameter(n: number, max: number): number {
  const mean = (max + 1) / n;
  return mean < 2 ? 0 : Math.min(31, Math.floor(Math.log2(mean)));
}

/** The most words `encodeFeatureSet` of `keys` (sorted, duplicate-free) can take: room to encode it into. */
export function encodedWordsBound(keys: Uint32Array): number {
  const n = keys.length;
  if (n === 0) return 2;
  const L = riceParameter(n, keys[n - 1]);
  // Bits: n * (L + 1) for the ones and low bits, plus the zeros, which sum to at most max >>> L.
  const bits = n * (L + 1) + Math.floor(keys[n - 1] / 2 ** L) + 1;
  return 2 + Math.ceil(bits / 32);
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
 * bit stream is written by the WebAssembly kernel (set-jaccard.ts), whose decoder reads it back.
 */
export function encodeFeatureSetInto(keys: Uint32Array, out: Uint32Array, at: number): number {
  const n = keys.length;
  if (n === 0) {
    out[at] = 0;
    out[at + 1] = 0;
    return at + 2;
  }
  const words = encodeSetWords(keys, riceParameter(n, keys[n - 1]), encodedWordsBound(keys));
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
  const mask = L === 0 ? 0 : (2 ** L - 1) >>> 0;
  let w = 2;
  let bit = 0;
  let previous = 0;
  const scale = 2 ** L;
  for (let i = 0; i < n; i++) {
    // Unary quotient: count zeros up to the next one.
    let q = 0;
    for (;;) {
      const rest = encoded[w] >>> bit;
      if (rest !== 0) {
        const zeros = 31 - Math.clz32(rest & -rest);
        q += zeros;
        bit += zeros + 1;
        break;
      }
      q += 32 - bit;
      bit = 0;
      w++;
    }
    if (bit === 32) {
      bit = 0;
      w++;
    }
    let r = 0;
    if (L > 0) {
      const room = 32 - bit;
      r = encoded[w] >>> bit;
      if (L < room) {
        r = (r & mask) >>> 0;
        bit += L;
      } else {
        w++;
        bit = L - room;
        if (bit > 0) r = (r | ((encoded[w] & ((1 << bit) - 1)) << room)) >>> 0;
        r = r >>> 0;
      }
    }
    previous += q * scale + r;
    out[i] = previous;
  }
  return out;
}
