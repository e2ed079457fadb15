/**
 * The distance histogram: candidate pairs per Hamming distance, the verified near-duplicates apart from
 * those exact Jaccard rejected, on a y axis, with the threshold k and its control.
 */
import { useId, useMemo, useState } from 'react';
import { parseK } from '../shared/scan-settings.ts';
import { similarityEstimate } from '../../core/simhash/fingerprint64.ts';
import { describeRecall } from '../../core/quality/defaults.ts';
import { barHeights, describeChecks, describeRejected, pairsWithin, verifiedAndRejected, yTicks } from './distance-histogram.ts';
import type { KnownDecisions } from '../../core/groups/candidate-decisions.ts';
import '../shared/theme.css';

export interface DistanceHistogramProps {
  /** Pairs per Hamming distance: counts[d] for d = 0..(counts.length - 1); see distanceHistogram(). */
  counts: Uint32Array;
  /** Distances of the verified pairs of distinct texts (the relation's), the first `verifiedCount` of them. */
  verifiedDistance?: Uint8Array;
  verifiedCount?: number;
  /** How the candidates were decided (the caption and legend name them), or not known (a reload of pairs saved without the counts). */
  decided: KnownDecisions;
  /** The similarity (Jaccard) threshold in use: the recall note is stated for the pairs just above it. */
  similarity: number;
  /** The current threshold k (pairs at distance <= k are near-duplicates). */
  threshold: number;
  /** Largest k the control offers (the distance the pairs were searched up to). */
  maxThreshold: number;
  /** Called with the new k when the user changes it; the caller regroups without re-fingerprinting. */
  onThresholdChange: (k: number) => void;
}

/** Bars of pair counts by distance, the threshold marked, a slider and number field for k. */
export function DistanceHistogram({ counts, verifiedDistance, verifiedCount = 0, decided, similarity, threshold, maxThreshold, onThresholdChange }: DistanceHistogramProps) {
  const [scale, setScale] = useState<'linear' | 'log'>('log');
  // Show distances up to the searched range (at least a few columns past k so the cut is visible).
  const shown = Math.min(counts.length, Math.max(maxThreshold, threshold) + 1);
  const heights = useMemo(() => barHeights(counts.subarray(0, shown), scale), [counts, shown, scale]);
  const split = useMemo(
    () => verifiedAndRejected(counts.subarray(0, shown), verifiedDistance ?? new Uint8Array(0), verifiedDistance ? verifiedCount : 0),
    [counts, shown, verifiedDistance, verifiedCount],
  );
  // The verified part of a bar on the bars' own scale (its top reads off the same axis).
  const max = counts.subarray(0, shown).reduce((m, c) => Math.max(m, c), 0);
  const scaled = (n: number) => (max === 0 ? 0 : scale === 'log' ? Math.log1p(n) / Math.log1p(max) : n / max);
  const ticks = yTicks(max, scale);
  const within = pairsWithin(counts, threshold);

  const bars = [];
  const axis = [];
  for (let d = 0; d < shown; d++) {
    const cls = [d === 0 ? 'is-zero' : '', d > threshold ? 'is-beyond' : '', d === threshold ? 'is-threshold' : '']
      .filter(Boolean)
      .join(' ');
    const label =
      `Distance ${d}: ${counts[d].toLocaleString()} candidate ${counts[d] === 1 ? 'pair' : 'pairs'}` +
      (verifiedDistance ? `, ${split.verified[d].toLocaleString()} verified, ${split.rejected[d].toLocaleString()} rejected` : '');
    bars.push(
      <li key={d} className={cls} aria-label={label} title={label}>
        <span
          className={verifiedDistance ? 'ss-hist-candidates' : undefined}
          style={{ height: counts[d] > 0 ? `max(2px, ${(heights[d] * 100).toFixed(2)}%)` : 0 }}
        />
        {verifiedDistance && split.verified[d] > 0 && (
          <span className="ss-hist-verified" style={{ height: `max(2px, ${(scaled(split.verified[d]) * 100).toFixed(2)}%)` }} />
        )}
      </li>,
    );
    axis.push(<span key={d}>{d % 2 === 0 || shown <= 12 ? d : ''}</span>);
  }

  return (
    <section className="ss-panel ss-hist" aria-label="Distance histogram">
      <h2 className="ss-panel-title">Pairs by Hamming distance</h2>
      {verifiedDistance && (
        <p className="ss-hist-legend ss-muted">
          <span className="ss-hist-legend-item">
            <span className="ss-hist-key ss-hist-key--verified" /> verified near-duplicates
          </span>{' '}
          <span className="ss-hist-legend-item">
            <span className="ss-hist-key ss-hist-key--rejected" /> candidates rejected
            {describeRejected(within, decided)}
          </span>
        </p>
      )}
      <div className="ss-hist-plot">
        <div className="ss-hist-yaxis" aria-hidden="true">
          {ticks.map((t) => (
            <span key={t.value} style={{ bottom: `${(t.fraction * 100).toFixed(2)}%` }}>
              {t.value.toLocaleString('en')}
            </span>
          ))}
        </div>
        <ol className="ss-hist-bars" aria-label={`Pairs per Hamming distance (${scale === 'log' ? 'log' : 'linear'} scale)`}>
          {bars}
        </ol>
      </div>
      <div className="ss-hist-axis" aria-hidden="true">
        {axis}
      </div>
      <div className="ss-hist-controls">
        <ThresholdControl threshold={threshold} maxThreshold={maxThreshold} onThresholdChange={onThresholdChange} />
        <span className="ss-muted" role="status">
          {within.toLocaleString()} candidate {within === 1 ? 'pair' : 'pairs'} of distinct texts within k = {threshold}{' '}
          (similarity estimate ≥ {similarityEstimate(threshold).toFixed(3)})
          {describeChecks(within, verifiedDistance ? pairsWithin(split.verified, threshold) : null, decided)}
        </span>
        <span className="ss-muted ss-recall-note">{describeRecall(threshold, similarity, { maxK: maxThreshold })}</span>
        <label className="ss-muted" style={{ marginLeft: 'auto' }}>
          <input type="checkbox" checked={scale === 'log'} onChange={(e) => setScale(e.currentTarget.checked ? 'log' : 'linear')} />{' '}
          Log scale
        </label>
      </div>
    </section>
  );
}

/**
 * The threshold k's slider and number box. The box keeps what was typed; only a valid k is applied (a
 * typed 64 is refused and said so, never clamped to the largest k). It follows k when k changes
 * elsewhere (the slider, settings).
 */
function ThresholdControl({ threshold, maxThreshold, onThresholdChange }: Pick<DistanceHistogramProps, 'threshold' | 'maxThreshold' | 'onThresholdChange'>) {
  const id = useId();
  const [typed, setTyped] = useState(String(threshold));
  const [typedFor, setTypedFor] = useState(threshold);
  if (typedFor !== threshold) {
    setTypedFor(threshold);
    setTyped(String(threshold));
  }
  const parsed = parseK(typed, maxThreshold);
  const type = (text: string) => {
    setTyped(text);
    const k = parseK(text, maxThreshold);
    if (k.ok && k.k !== threshold) onThresholdChange(k.k);
  };
  const slide = (value: number) => {
    if (Number.isInteger(value) && value >= 0 && value <= maxThreshold) onThresholdChange(value);
  };
  return (
    <>
      <label htmlFor={`${id}-k`}>Threshold k</label>
      <input
        id={`${id}-k`}
        type="range"
        min={0}
        max={maxThreshold}
        step={1}
        value={threshold}
        onChange={(e) => slide(e.currentTarget.valueAsNumber)}
        aria-valuetext={`k = ${threshold}`}
      />
      <input
        className="ss-input ss-num"
        style={{ width: '4.5em' }}
        type="number"
        min={0}
        max={maxThreshold}
        value={typed}
        aria-label="Threshold k (number)"
        aria-invalid={parsed.ok ? undefined : true}
        aria-describedby={parsed.ok ? undefined : `${id}-k-error`}
        onChange={(e) => type(e.currentTarget.value)}
      />
      {!parsed.ok && (
        <span id={`${id}-k-error`} className="ss-settings-error" role="alert">
          {parsed.error} k stays {threshold}.
        </span>
      )}
    </>
  );
}
