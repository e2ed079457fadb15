/** A file path as shown everywhere in the app: isolated (<bdi>), bidi controls escaped, long folders shortened in the middle (styles: theme.css .ss-path). */
import { displayPath } from './display-name.ts';

export interface PathNameProps {
  path: string;
  /** Longest shown length in characters; the folder loses its middle first, the file name never. */
  maxChars?: number;
  className?: string;
}

/**
 * The path in a <bdi> (its right-to-left letters cannot reorder the text around it), with every bidi
 * control written as ⟨U+XXXX⟩ and the full (escaped) path in the title. The <bdi> is an inline flex
 * box, so a narrow column shrinks the folder before the name; its two parts being flex items, a
 * button or heading named by its content should carry an aria-label made with `displayName`.
 */
export function PathName({ path, maxChars, className }: PathNameProps) {
  const p = displayPath(path, maxChars);
  return (
    <bdi className={`ss-path${className ? ` ${className}` : ''}`} title={p.full}>
      {p.dir && (
        <span className="ss-path-dir">
          <bdi>{p.dir}</bdi>
        </span>
      )}
      <span className="ss-path-name">{p.name}</span>
    </bdi>
  );
}
