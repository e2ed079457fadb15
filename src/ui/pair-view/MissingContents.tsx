/** Shown instead of the texts when a pair's file contents were not kept: says so and lets the person pick the files again. */
import { Fragment } from 'react';
import { PathName } from '../shared/PathName.tsx';

export interface MissingContentsProps {
  /** Paths of the pair's documents whose contents are missing. */
  paths: string[];
  /** The files the person picked (matched to the paths by the caller). */
  onPick: (files: File[]) => void;
  /** Set when picked files did not match the missing paths. */
  mismatch?: string | null;
}

/** A note that the contents were not kept, and a file input to read the file(s) from disk again. */
export function MissingContents({ paths, onPick, mismatch }: MissingContentsProps) {
  const one = paths.length === 1;
  return (
    <div role="group" aria-label="File contents not kept" className="ss-panel app-note">
      <p>
        The contents of {one ? 'this file were' : 'these files were'} not kept in this browser (“Keep file contents” was off, or the file was
        not read here: it came from a CLI result or was unchanged when its folder was chosen again), so the texts cannot be shown:{' '}
        {paths.map((p, i) => (
          <Fragment key={p}>
            {i > 0 && ', '}
            <PathName path={p} />
          </Fragment>
        ))}
        .
      </p>
      <label>
        Pick {one ? 'the file' : 'the files'} again to show the pair{' '}
        <input
          type="file"
          multiple
          onChange={(e) => {
            const files = e.currentTarget.files ? Array.from(e.currentTarget.files) : [];
            e.currentTarget.value = '';
            if (files.length > 0) onPick(files);
          }}
        />
      </label>
      {mismatch && <p role="alert">{mismatch}</p>}
    </div>
  );
}
