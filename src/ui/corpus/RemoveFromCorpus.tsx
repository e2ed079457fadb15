/** "Remove from corpus" for one document: a button that asks for confirmation before removing it. */
import { useState } from 'react';

export interface RemoveFromCorpusProps {
  /** The document's path, named in the button's label and the question. */
  path: string;
  /** Removes the document (after the person confirmed). */
  onRemove: () => void;
  disabled?: boolean;
}

/** Renders the button and, once clicked, the confirmation dialog. */
export function RemoveFromCorpus({ path, onRemove, disabled }: RemoveFromCorpusProps) {
  const [confirming, setConfirming] = useState(false);
  const titleId = `remove-${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <>
      {/* The path is in the visible text (not only an aria-label): the pair view has two of these buttons. */}
      <button type="button" className="ss-button corpus-remove" title={path} disabled={disabled} onClick={() => setConfirming(true)}>
        Remove <span className="corpus-remove__path">{path}</span> from corpus
      </button>
      {confirming && (
        <div role="dialog" aria-modal="true" aria-labelledby={titleId} className="corpus-panel__dialog">
          <h3 id={titleId}>Remove this document from the saved corpus?</h3>
          <p>
            <strong>{path}</strong> is removed from this browser (its fingerprint, contents and groups). The file on disk is not
            touched; scanning it again adds it back.
          </p>
          <button
            type="button"
            className="ss-button ss-button-primary"
            onClick={() => {
              setConfirming(false);
              onRemove();
            }}
          >
            Remove
          </button>
          <button type="button" className="ss-button" autoFocus onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
    </>
  );
}
