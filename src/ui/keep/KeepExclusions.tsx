/**
 * Exclusions in the keep panel, as the CLI's --exclude, --min-size and --max-size (the same matcher):
 * the files they match are left out of the marks and the plan now, and every later scan leaves them
 * unread (scan/scan-exclusions.ts): for the saved corpus they are as files not in the folder. Saved.
 */
import { useId, useState } from 'react';
import { parseSize, patternProblem, type Exclusions } from '../../core/documents/exclusions.ts';

export interface KeepExclusionsProps {
  exclusions: Exclusions;
  onChange: (next: Exclusions) => void;
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

export function KeepExclusions({ exclusions, onChange }: KeepExclusionsProps) {
  const id = useId();
  const [patterns, setPatterns] = useState(exclusions.patterns.join('\n'));
  const [extensions, setExtensions] = useState(exclusions.extensions.join(', '));
  const [minSize, setMinSize] = useState(exclusions.minSize === null ? '' : String(exclusions.minSize));
  const [maxSize, setMaxSize] = useState(exclusions.maxSize === null ? '' : String(exclusions.maxSize));
  const [shownFor, setShownFor] = useState(exclusions);
  if (shownFor !== exclusions) {
    // The saved exclusions arrived (or changed elsewhere): show them.
    setShownFor(exclusions);
    setPatterns(exclusions.patterns.join('\n'));
    setExtensions(exclusions.extensions.join(', '));
    setMinSize(exclusions.minSize === null ? '' : String(exclusions.minSize));
    setMaxSize(exclusions.maxSize === null ? '' : String(exclusions.maxSize));
  }
  const size = (text: string) => (text.trim() === '' ? null : parseSize(text));
  const bad = [minSize, maxSize].some((t) => t.trim() !== '' && parseSize(t) === null);
  // A pattern the matcher cannot take as written (too long, braces, escapes) is named, never silently matching nothing.
  const refused = lines(patterns).map((p) => [p, patternProblem(p)] as const).find(([, problem]) => problem !== null);
  const commit = () => {
    if (bad || refused) return;
    onChange({
      patterns: lines(patterns),
      extensions: extensions.split(/[\s,]+/).map((e) => e.replace(/^\./, '')).filter((e) => e !== ''),
      minSize: size(minSize),
      maxSize: size(maxSize),
    });
  };
  return (
    <details className="keep-exclusions">
      <summary>Leave files out of the marks and the plan</summary>
      <p className="ss-muted">
        Files these match are left out of the marks and the plan at once, and the next scan does not read them: choosing the folder
        again takes them out of the saved corpus, as files no longer in it.
      </p>
      <div className="keep-exclusions__fields" onBlur={commit}>
        <div className="ss-field">
          <label htmlFor={`${id}-patterns`}>Patterns, one per line (*, **, ?; e.g. *.log, drafts/**)</label>
          <textarea id={`${id}-patterns`} rows={2} value={patterns} onChange={(e) => setPatterns(e.target.value)} />
        </div>
        <div className="ss-field">
          <label htmlFor={`${id}-ext`}>Extensions (log, tmp)</label>
          <input id={`${id}-ext`} className="ss-input" value={extensions} onChange={(e) => setExtensions(e.target.value)} />
        </div>
        <div className="ss-field">
          <label htmlFor={`${id}-min`}>Smaller than (bytes, 10k, 5MB)</label>
          <input id={`${id}-min`} className="ss-input" value={minSize} aria-invalid={minSize.trim() !== '' && parseSize(minSize) === null} onChange={(e) => setMinSize(e.target.value)} />
        </div>
        <div className="ss-field">
          <label htmlFor={`${id}-max`}>Larger than</label>
          <input id={`${id}-max`} className="ss-input" value={maxSize} aria-invalid={maxSize.trim() !== '' && parseSize(maxSize) === null} onChange={(e) => setMaxSize(e.target.value)} />
        </div>
        {bad && <p role="alert">A size must be a number of bytes, or with a unit: 10k, 5MB, 2MiB.</p>}
        {refused && <p role="alert">The pattern {refused[0].length > 60 ? `${refused[0].slice(0, 60)}…` : refused[0]} {refused[1]}.</p>}
      </div>
    </details>
  );
}
