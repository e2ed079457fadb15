/** The bit diff: two 64-bit fingerprints as rows of cells with the differing bits marked. */
import { useMemo } from 'react';
import { hamming, similarityEstimate, toHex } from '../../core/simhash/fingerprint64.ts';
import { differingBits, fingerprintBits } from './fingerprint-bits.ts';

export interface BitDiffProps {
  /** Fingerprint of document A as uint32 halves. */
  hiA: number;
  loA: number;
  /** Fingerprint of document B as uint32 halves. */
  hiB: number;
  loB: number;
  /** Short names for the two rows (file paths). */
  labelA: string;
  labelB: string;
  /** Exact Jaccard similarity of the two feature sets, or null while unknown. */
  jaccard: number | null;
}

function BitRow({ bits, diff, label }: { bits: Uint8Array; diff: Uint8Array; label: string }) {
  const cells = [];
  for (let i = 0; i < 64; i++) {
    cells.push(<span key={i} className={(bits[i] ? 'on' : '') + (diff[i] ? ' diff' : '')} />);
  }
  return (
    <div className="ss-bits-row" role="img" aria-label={label}>
      {cells}
    </div>
  );
}

/** Both fingerprints bit by bit, their distance, Charikar's similarity estimate and the exact Jaccard. */
export function BitDiff({ hiA, loA, hiB, loB, labelA, labelB, jaccard }: BitDiffProps) {
  const { bitsA, bitsB, diff, differing } = useMemo(() => {
    const a = fingerprintBits(hiA, loA);
    const b = fingerprintBits(hiB, loB);
    const d = new Uint8Array(64);
    for (let i = 0; i < 64; i++) d[i] = a[i] ^ b[i];
    return { bitsA: a, bitsB: b, diff: d, differing: differingBits(hiA, loA, hiB, loB) };
  }, [hiA, loA, hiB, loB]);
  const distance = hamming(hiA, loA, hiB, loB);
  const estimate = similarityEstimate(distance);
  const hexA = toHex(hiA, loA);
  const hexB = toHex(hiB, loB);
  const diffLabel =
    distance === 0 ? 'No bits differ' : `Differing bits (63 = leftmost): ${differing.join(', ')}`;

  return (
    <section className="ss-panel ss-bits" aria-label="Bit diff">
      <h2 className="ss-panel-title">Fingerprints</h2>
      <div className="ss-bits-grid">
        <span className="ss-bits-label" title={labelA}>{labelA}</span>
        <BitRow bits={bitsA} diff={diff} label={`Fingerprint of ${labelA}: ${hexA}`} />
        <span className="ss-bits-label" aria-hidden="true" />
        <div className="ss-bits-row ss-bits-marks" role="img" aria-label={diffLabel}>
          {Array.from(diff, (d, i) => (
            <span key={i} className={d ? 'diff' : ''} />
          ))}
        </div>
        <span className="ss-bits-label" title={labelB}>{labelB}</span>
        <BitRow bits={bitsB} diff={diff} label={`Fingerprint of ${labelB}: ${hexB}`} />
      </div>
      <div className="ss-bits-grid">
        <span className="ss-bits-label">A</span>
        <code className="ss-bits-hex">{hexA}</code>
        <span className="ss-bits-label">B</span>
        <code className="ss-bits-hex">{hexB}</code>
      </div>
      <dl className="ss-bits-stats">
        <div>
          <dt>Hamming distance</dt>
          <dd>
            {distance} <span className="ss-muted" style={{ fontSize: 13, fontWeight: 400 }}>of 64 bits</span>
          </dd>
        </div>
        <div>
          <dt>Similarity estimate</dt>
          <dd title="Charikar's estimate of the cosine similarity: cos(π·d/64)">{estimate.toFixed(3)}</dd>
        </div>
        <div>
          <dt>Exact Jaccard</dt>
          <dd title="Shared features ÷ all features of the two documents">
            {jaccard === null || Number.isNaN(jaccard) ? '—' : jaccard.toFixed(3)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
