/** The bit diff: two 64-bit fingerprints as rows of cells with the differing bits marked. */
import { useMemo } from 'react';
import { hamming, similarityEstimate, toHex } from '../../core/simhash/fingerprint64.ts';
import { differingBits, fingerprintBits } from './fingerprint-bits.ts';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';
import { compareLengths } from './pair-measures.ts';
import '../shared/theme.css';

/** Longest path beside a fingerprint row, in characters (the folder loses its middle first). */
const LABEL_CHARS = 96;

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
  /** Lengths in characters of the two texts (no size ratio when absent). */
  lengthA?: number;
  lengthB?: number;
  /** |A ∩ B| / min(|A|, |B|) of the feature sets, or null while unknown. */
  containment?: number | null;
}


/** Hex digits with the ones that differ from `other` marked. */
function HexDigits({ hex, other }: { hex: string; other: string }) {
  return Array.from(hex, (c, i) => (c === other[i] ? c : <mark key={i}>{c}</mark>));
}

// Cell geometry in SVG units; the SVG stretches horizontally, so every cell gets the same width.
const CELL = 8;
const GAP = 2;
const BYTE_GAP = 5;
const ROW_WIDTH = 64 * CELL + 63 * GAP + 7 * (BYTE_GAP - GAP);
const cellX = (i: number) => i * (CELL + GAP) + Math.floor(i / 8) * (BYTE_GAP - GAP);

function BitRow({ bits, diff, label }: { bits: Uint8Array; diff: Uint8Array; label: string }) {
  const cells = [];
  for (let i = 0; i < 64; i++) {
    const cls = (bits[i] ? 'on' : 'off') + (diff[i] ? ' diff' : '');
    cells.push(<rect key={i} className={cls} x={cellX(i)} y={0} width={CELL} height={20} rx={1.5} />);
  }
  return (
    <svg className="ss-bits-row" role="img" aria-label={label} viewBox={`0 0 ${ROW_WIDTH} 20`} preserveAspectRatio="none">
      {cells}
    </svg>
  );
}

function DiffMarks({ diff, label }: { diff: Uint8Array; label: string }) {
  const marks = [];
  for (let i = 0; i < 64; i++) {
    if (diff[i]) marks.push(<rect key={i} x={cellX(i)} y={1} width={CELL} height={5} rx={1} />);
  }
  return (
    <svg className="ss-bits-marks" role="img" aria-label={label} viewBox={`0 0 ${ROW_WIDTH} 7`} preserveAspectRatio="none">
      {marks}
    </svg>
  );
}

/** Both fingerprints bit by bit, their distance, Charikar's similarity estimate and the exact Jaccard. */
export function BitDiff({ hiA, loA, hiB, loB, labelA, labelB, jaccard, lengthA, lengthB, containment = null }: BitDiffProps) {
  const lengths = lengthA === undefined || lengthB === undefined ? null : compareLengths(lengthA, lengthB);
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
      <div className="ss-bits-grid ss-bits-grid--named">
        <span className="ss-bits-label">
          A · <PathName path={labelA} maxChars={LABEL_CHARS} />
        </span>
        <BitRow bits={bitsA} diff={diff} label={`Fingerprint of ${displayName(labelA)}: ${hexA}`} />
        <DiffMarks diff={diff} label={diffLabel} />
        <span className="ss-bits-label">
          B · <PathName path={labelB} maxChars={LABEL_CHARS} />
        </span>
        <BitRow bits={bitsB} diff={diff} label={`Fingerprint of ${displayName(labelB)}: ${hexB}`} />
      </div>
      <div className="ss-bits-grid">
        <span className="ss-bits-label">A</span>
        <code className="ss-bits-hex" aria-label={hexA}>
          <HexDigits hex={hexA} other={hexB} />
        </code>
        <span className="ss-bits-label">B</span>
        <code className="ss-bits-hex" aria-label={hexB}>
          <HexDigits hex={hexB} other={hexA} />
        </code>
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
        <div>
          <dt>Containment</dt>
          <dd title="Shared features ÷ features of the smaller document: 1 when one text's features all occur in the other">
            {containment === null || Number.isNaN(containment) ? '—' : containment.toFixed(3)}
          </dd>
        </div>
        {lengths && (
          <div>
            <dt>Size ratio</dt>
            <dd title={lengths.detail} className={lengths.uneven ? 'ss-bits-uneven' : undefined}>
              {lengths.ratioText}
            </dd>
          </div>
        )}
      </dl>
      {lengths?.uneven && (
        <p className="ss-bits-note" role="note">
          {lengths.detail}. Jaccard compares the sets of features, not how often they occur: a text repeated
          many times, or one that contains the other, can score high.
        </p>
      )}
    </section>
  );
}
