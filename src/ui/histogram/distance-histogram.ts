/** Counting near-duplicate pairs per Hamming distance, for the distance histogram. */

/**
 * Pairs per Hamming distance: `counts[d]` is the number of the first `count` entries of `distance`
 * equal to d, for d in 0..bits. Distances above `bits` (corrupt input) are ignored.
 */
export function distanceHistogram(distance: Uint8Array, count = distance.length, bits = 64): Uint32Array {
  const counts = new Uint32Array(bits + 1);
  const n = Math.min(count, distance.length);
  for (let i = 0; i < n; i++) {
    const d = distance[i];
    if (d <= bits) counts[d]++;
  }
  return counts;
}

/** Number of pairs at distance <= k. */
export function pairsWithin(counts: Uint32Array, k: number): number {
  let total = 0;
  for (let d = 0; d <= k && d < counts.length; d++) total += counts[d];
  return total;
}

/**
 * Height of each bar as a fraction of the tallest, on a linear or logarithmic (log1p) scale; the
 * log scale keeps a few small counts visible next to a large count of exact duplicates.
 */
export function barHeights(counts: Uint32Array, scale: 'linear' | 'log'): Float64Array {
  const out = new Float64Array(counts.length);
  let max = 0;
  for (let d = 0; d < counts.length; d++) {
    out[d] = scale === 'log' ? Math.log1p(counts[d]) : counts[d];
    if (out[d] > max) max = out[d];
  }
  if (max > 0) for (let d = 0; d < out.length; d++) out[d] /= max;
  return out;
}
