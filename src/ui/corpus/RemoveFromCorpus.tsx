/** "Remove from corpus" for one document: a button that asks for confirmation before removing it. */
import { useId, useState } from 'react';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';

export interface RemoveFromCorpusProps {
  /** The document's path, named in the button's label and the question. */
  path: string;
  /** Removes the document (after the person confirmed). */
  onRemove: () => void;
  disabled?: boolean;
  /**
   * Id of an element already showing ON_DISK_NOTE (two buttons side by side share one); without it the
   * component shows the note itself.
   */
  noteId?: string;
}

/** What removing never does, said beside the button and in the dialog. */
export const ON_DISK_NOTE = 'The file on disk is untouched: nothing is deleted from your computer.';

/** Renders the button (with the note that files on disk are untouched) and, once clicked, the confirmation dialog. */
export function RemoveFromCorpus({ path, onRemove, disabled, noteId: sharedNoteId }: RemoveFromCorpusProps) {
  const [confirming, setConfirming] = useState(false);
  const id = useId();
  const titleId = `${id}-title`;
  const noteId = sharedNoteId ?? `${id}-note`;
  return (
    <>
      {/* The path is in the visible text (not only an aria-label): the pair view has two of these buttons. */}
      <button
        type="button"
        className="ss-button corpus-remove"
        aria-label={`Remove ${displayName(path)} from corpus`}
        aria-describedby={noteId}
        disabled={disabled}
        onClick={() => setConfirming(true)}
      >
        Remove <PathName path={path} maxChars={40} className="corpus-remove__path" /> from corpus
      </button>
      {!sharedNoteId && (
        <small id={noteId} className="corpus-remove__note">
          {ON_DISK_NOTE}
        </small>
      )}
      {confirming && (
        <div role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={`${id}-what`} className="corpus-panel__dialog">
          <h3 id={titleId}>Remove this document from the saved corpus?</h3>
          <p id={`${id}-what`}>
            <strong>
              <PathName path={path} />
            </strong>{' '}
            is removed from this browser only (its fingerprint, saved contents and groups). <strong>{ON_DISK_NOTE}</strong>{' '}
            Scanning it again adds it back.
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
