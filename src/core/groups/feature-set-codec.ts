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
 * a worker encode a batch's sets into one reused arena instead of two fresh arrays per document.
 */
export function encodeFeatureSetInto(keys: Uint32Array, out: Uint32Array, at: number): number {
  const n = keys.length;
  out[at] = n;
  out[at + 1] = 0;
  if (n === 0) return at + 2;
  const L = riceParameter(n, keys[n - 1]);
  out[at + 1] = L;
  let w = at + 2;
  let bit = 0;
  let word = 0;
  let previous = 0;
  const mask = L === 0 ? 0 : (2 ** L - 1) >>> 0;
  for (let i = 0; i < n; i++) {
    const gap = keys[i] - previous;
    previous = keys[i];
    // Unary quotient: q zeros (each finished word is written whole, zeros included), then a one.
    let q = Math.floor(gap / 2 ** L);
    while (q >= 32 - bit) {
      q -= 32 - bit;
      out[w++] = word;
      word = 0;
      bit = 0;
    }
    bit += q;
    word |= 1 << bit;
    bit++;
    if (bit === 32) {
      out[w++] = word;
      word = 0;
      bit = 0;
    }
    if (L > 0) {
      const r = (gap & mask) >>> 0;
      const room = 32 - bit;
      word |= r << bit;
      if (L < room) bit += L;
      else {
        out[w++] = word;
        // The bits of r that did not fit (none when L === room).
        word = L === room ? 0 : r >>> room;
        bit = L - room;
      }
    }
  }
  if (bit > 0) out[w++] = word;
  return w;
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
