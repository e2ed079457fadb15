/**
 * Owns the per-document MinHash sketch by one-permutation hashing (OPH) and the filter it gives
 * verification: a candidate pair whose sketches show it cannot reach the Jaccard threshold is rejected
 * before either feature set is decoded or either file read again.
 *
 * Sketch: the feature set's keys (the low halves of the feature hashes, uniform over 2^32: exactly the
 * keys exact Jaccard is measured on) fall into SKETCH_BINS = 64 bins by their top 6 bits; each bin
 * keeps the minimum of the key's next 15 bits, stored as that value + 1 (0: the bin is empty). 64 Uint16
 * per document, 128 bytes; a document whose 64 entries are all 0 has no known sketch (a document with
 * a fingerprint has at least one key, so at least one non-empty bin). Repeats do not change a minimum,
 * so the sketch is taken from the feature hashes as they come, without sorting or deduplicating.
 *
 * Filter: u = bins non-empty in either sketch, x = bins equal and non-empty in both. Within a bin the
 * union's minimum is equally likely to be any of the union's keys there, and the two sketches agree
 * whenever it lies in the intersection (truncating to 15 bits only adds agreements): each of the u bins
 * matches with probability J, the bins negatively dependent, so x's lower tail is at most that of
 * Binomial(u, J), itself at most Binomial(u, threshold)'s when J >= threshold. A pair is rejected only
 * when P(Binomial(u, threshold) <= x) < SKETCH_LOSS_BOUND = 1e-9: the chance that a pair at or above the
 * threshold is lost is below 1e-9 per pair. Small u (short documents) never rejects.
 */

/** Bins, and Uint16 entries, per document's sketch. */
export const SKETCH_BINS = 64;

/** The most probability that `sketchesAllow` rejects a pair whose Jaccard reaches the threshold. */
export const SKETCH_LOSS_BOUND = 1e-9;

const EMPTY = 0xffff;
// The sketch being built: value + 1 per bin, EMPTY until a key lands there (one compare per key).
const scratch = new Uint16Array(SKETCH_BINS);

/**
 * Writes the sketch of the keys `keys[0], keys[stride], ..., keys[(count - 1) * stride]` (any order,
 * repeats allowed) into `out[at .. at + 64)`. With stride 2 it reads the low halves of a little-endian
 * u64 hash array (the fingerprinter's `hashes`). One pass, no allocation.
 */
export function sketchKeys(keys: Uint32Array, count: number, stride: number, out: Uint16Array, at: number): void {
  scratch.fill(EMPTY);
  const end = count * stride;
  for (let i = 0; i < end; i += stride) {
    const key = keys[i];
    const bin = key >>> 26;
    const value = ((key >>> 11) & 0x7fff) + 1;
    if (value < scratch[bin]) scratch[bin] = value;
  }
  for (let b = 0; b < SKETCH_BINS; b++) out[at + b] = scratch[b] === EMPTY ? 0 : scratch[b];
}

/** Whether document `d`'s sketch in `sketches` (64 entries per document) is known (not all 0). */
export function sketchKnown(sketches: Uint16Array, d: number): boolean {
  const at = d * SKETCH_BINS;
  for (let b = 0; b < SKETCH_BINS; b++) if (sketches[at + b] !== 0) return true;
  return false;
}

/**
 * Per u = 0..64 bins non-empty in either sketch, the fewest matching bins a pair needs to be allowed at
 * `threshold`: the smallest x with P(Binomial(u, threshold) <= x) >= SKETCH_LOSS_BOUND. Computed once
 * per verification (65 x 65 terms). A threshold <= 0 allows everything.
 */
export function sketchMatchFloor(threshold: number): Uint8Array {
  const floor = new Uint8Array(SKETCH_BINS + 1);
  if (!(threshold > 0)) return floor;
  const t = Math.min(1, threshold);
  for (let u = 1; u <= SKETCH_BINS; u++) {
    let cdf = 0;
    let choose = 1; // C(u, x)
    let x = 0;
    for (; x < u; x++) {
      cdf += choose * t ** x * (1 - t) ** (u - x);
      if (cdf >= SKETCH_LOSS_BOUND) break;
      choose = (choose * (u - x)) / (x + 1);
    }
    floor[u] = x;
  }
  return floor;
}

/**
 * Whether the pair of documents whose sketches are at `a[atA ..]` and `b[atB ..]` may reach the
 * threshold `floor` was made for (`sketchMatchFloor`): false only when both sketches are known and
 * their matching bins are fewer than the floor for the bins either fills (see the file comment).
 */
export function sketchesAllow(a: Uint16Array, atA: number, b: Uint16Array, atB: number, floor: Uint8Array): boolean {
  let u = 0;
  let x = 0;
  let filledA = 0;
  let filledB = 0;
  for (let i = 0; i < SKETCH_BINS; i++) {
    const va = a[atA + i];
    const vb = b[atB + i];
    if (va !== 0) filledA++;
    if (vb !== 0) filledB++;
    if ((va | vb) !== 0) {
      u++;
      if (va === vb) x++;
    }
  }
  if (filledA === 0 || filledB === 0) return true;
  return x >= floor[u];
}
