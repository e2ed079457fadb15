/** The first-visit screen: what SimSift does, where to drop files, and a one-click sample corpus. */
import type { ReactNode } from 'react';
import './theme.css';

export interface EmptyStateProps {
  /** The drop zone (rendered between the explanation and the sample button). */
  children?: ReactNode;
  /** Loads the bundled sample corpus; the button is shown when given. */
  onTrySample?: () => void;
  /** True while the sample corpus is loading (the button is disabled). */
  sampleLoading?: boolean;
  /** Why loading the sample failed, shown as an alert. */
  sampleError?: string | null;
}

/** A short explanation, the drop zone slot and the "Try a sample corpus" button. */
export function EmptyState({ children, onTrySample, sampleLoading = false, sampleError = null }: EmptyStateProps) {
  return (
    <section className="ss-panel ss-empty" aria-labelledby="ss-empty-title">
      <h2 id="ss-empty-title">Find near-duplicate texts in a folder</h2>
      <p>
        Drop a folder of texts and documents (notes, articles, code, Markdown, HTML, PDF, Word, OpenDocument,
        RTF, EPUB) and SimSift finds the ones that are copies or near-copies of each other, even after a word was changed, a sentence added or a paragraph
        moved. It shows them in groups, side by side with the differences marked.
      </p>
      <ol className="ss-empty-steps">
        <li>
          <strong>1. Fingerprint</strong>Every text becomes a 64-bit SimHash, in parallel workers.
        </li>
        <li>
          <strong>2. Match</strong>Fingerprints that differ in at most k bits are near-duplicates.
        </li>
        <li>
          <strong>3. Review</strong>Compare pairs, tune k, export the list as CSV.
        </li>
      </ol>
      {children}
      <div className="ss-empty-actions">
        {onTrySample && (
          <button
            type="button"
            className="ss-button ss-button-primary"
            onClick={onTrySample}
            disabled={sampleLoading}
            aria-busy={sampleLoading}
          >
            Try a sample corpus
          </button>
        )}
        {sampleLoading && <span role="status">Loading the sample corpus…</span>}
        {sampleError && <span role="alert">{sampleError}</span>}
        <span className="ss-muted ss-empty-privacy">
          Your files never leave this computer: nothing is uploaded, and the corpus is kept in this browser until you
          clear it.
        </span>
      </div>
    </section>
  );
}
