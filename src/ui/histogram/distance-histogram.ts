/** Counting near-duplicate pairs per Hamming distance, for the distance histogram, and the words that say how they were decided. */
import type { CandidateDecisions, KnownDecisions } from '../../core/groups/candidate-decisions.ts';

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

/**
 * Each distance's candidate pairs split into the verified near-duplicates (the relation's verified pairs,
 * the first `count` entries of `verifiedDistance`) and those exact Jaccard rejected. Never below zero:
 * a merged corpus can hold verified pairs its last search did not count as candidates.
 */
export function verifiedAndRejected(candidates: Uint32Array, verifiedDistance: Uint8Array, count: number): { verified: Uint32Array; rejected: Uint32Array } {
  const verified = distanceHistogram(verifiedDistance, count, candidates.length - 1);
  const rejected = new Uint32Array(candidates.length);
  for (let d = 0; d < candidates.length; d++) rejected[d] = Math.max(0, candidates[d] - verified[d]);
  return { verified, rejected };
}

/** A tick of the y axis: the count and its height as a fraction of the axis (the bars' scale). */
export interface AxisTick {
  value: number;
  fraction: number;
}

/** The least distance between two y labels, as a fraction of the axis: a 10px label and 2px over the 84px overview plot (app.css). */
export const Y_LABEL_GAP = 12 / 84;

/**
 * The y axis for bars up to `max` on `scale` (barHeights' scale): on the log scale 0 and the powers of
 * ten up to `max` (and `max` itself when the last power is low on the axis), a label too close to the one
 * above it left out; on the linear scale 0 and multiples of the smallest round step (1, 2 or 5 × 10^n) that gives at most four.
 */
export function yTicks(max: number, scale: 'linear' | 'log'): AxisTick[] {
  if (max <= 0) return [{ value: 0, fraction: 0 }];
  const values = [0];
  if (scale === 'log') {
    for (let v = 1; v <= max; v *= 10) values.push(v);
    const ticks = values.map((value) => ({ value, fraction: Math.log1p(value) / Math.log1p(max) }));
    // Few powers of ten below a small maximum: the top of the axis is labelled too, where it has room.
    if (ticks[ticks.length - 1]!.fraction <= 0.8) ticks.push({ value: max, fraction: 1 });
    // Under a large maximum 1 sits a few pixels above 0 and the two labels overlap: the lower one gives way.
    const kept = [ticks[ticks.length - 1]!];
    for (let i = ticks.length - 2; i >= 0; i--) if (kept[0]!.fraction - ticks[i]!.fraction >= Y_LABEL_GAP) kept.unshift(ticks[i]!);
    return kept;
  }
  const power = 10 ** Math.floor(Math.log10(Math.max(1, max / 4)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => max / s <= 4) ?? 10 * power;
  for (let v = step; v <= max; v += step) values.push(v);
  return values.map((value) => ({ value, fraction: value / max }));
}

/** The decision counts when they are of the `within` candidates (with a merge's, those decided before), else null: not known (a reload of pairs saved without them) or of another search. */
function decisionsWithin(within: number, decided: KnownDecisions): CandidateDecisions | null {
  return decided !== 'not known' && decided.candidates + (decided.decidedBefore ?? 0) === within ? decided : null;
}

/** Whether every candidate was decided by its exact Jaccard (nothing ruled out by a bound, decided before or left unmeasured). */
function byJaccardOnly(d: CandidateDecisions): boolean {
  return d.sizeRejected + d.sketchRejected + (d.decidedBefore ?? 0) + (d.unmeasured ?? 0) === 0;
}

/** The legend's words after "candidates rejected": by exact Jaccard only when the caption says each was checked so. */
export function describeRejected(within: number, decided: KnownDecisions): string {
  const d = decisionsWithin(within, decided);
  if (d !== null && byJaccardOnly(d)) return ' by exact Jaccard';
  // Candidates that could not be measured are grey too, rejected by nothing.
  return (d?.unmeasured ?? 0) > 0 ? ' (by set sizes, sketches or exact Jaccard) or not measured' : ' (by set sizes, sketches or exact Jaccard)';
}

/**
 * How the `within` candidates were decided, for the caption after "N candidate pairs ... within k":
 * the set sizes and MinHash sketches rule pairs out without measuring them, so "each checked by exact
 * Jaccard" is said only when the counts show neither did. Counts not known (a reload of pairs saved
 * without them) or from another search (not `within` candidates) say only what is always true.
 */
export function describeChecks(within: number, verified: number | null, decided: KnownDecisions): string {
  const tail = verified === null ? '' : `: ${verified.toLocaleString('en')} verified`;
  const d = decisionsWithin(within, decided);
  if (d === null) return `, each decided by the feature-set sizes, MinHash sketches or exact Jaccard${tail}`;
  if (byJaccardOnly(d)) return `, each checked by exact Jaccard${tail}`;
  const { sizeRejected, sketchRejected, decidedBefore = 0, unmeasured = 0 } = d;
  const by = [
    sizeRejected > 0 ? `${sizeRejected.toLocaleString('en')} by their feature-set sizes` : '',
    sketchRejected > 0 ? `${sketchRejected.toLocaleString('en')} by their MinHash sketches` : '',
  ].filter(Boolean);
  const parts = [
    by.length > 0 ? `${by.join(' and ')} ruled out without measuring` : '',
    decidedBefore > 0 ? `${decidedBefore.toLocaleString('en')} of saved documents decided before` : '',
    unmeasured > 0 ? `${unmeasured.toLocaleString('en')} not measured (a file's contents not at hand)` : '',
  ].filter(Boolean);
  return `: ${parts.join(', ')}, the other ${(within - sizeRejected - sketchRejected - decidedBefore - unmeasured).toLocaleString('en')} checked by exact Jaccard${tail}`;
}
