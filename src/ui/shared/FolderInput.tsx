/**
 * A "choose a folder" button: the `webkitdirectory` folder input, in every browser. Not Chromium's
 * `showDirectoryPicker`: a directory handle never lists files whose names its File System Access
 * refuses (any of \ : * ? " < > |, a control or format character such as U+202E, a leading or
 * trailing space, dot or tilde: 2 of 18 such names were listed where the folder input listed all 18),
 * so a picked folder silently lost them, a wget crawl's `page.html?id=2` among them. The input
 * lists every file. Either way the source is a folder the saved corpus follows (`sync`).
 */
import type { ScanSource } from '../../scan/scan-session.ts';

export interface FolderInputProps {
  /** The button's text and the input's accessible name. */
  label: string;
  onSource(source: ScanSource): void;
}

/** The folder button; it ends in `onSource` with a folder source. */
export function FolderInput({ label, onSource }: FolderInputProps) {
  const pick = (input: HTMLInputElement) => {
    // A FileList is live: copy it before clearing the input (which lets the same folder be chosen again).
    const files = input.files ? Array.from(input.files) : [];
    input.value = '';
    if (files.length > 0) onSource({ kind: 'file-list', files, sync: true });
  };
  return (
    <label className="button">
      {label}
      <input
        className="visually-hidden"
        type="file"
        multiple
        // webkitdirectory is not in React's typings; it makes the input pick a whole folder.
        {...{ webkitdirectory: '' }}
        onChange={(e) => pick(e.currentTarget)}
      />
    </label>
  );
}
