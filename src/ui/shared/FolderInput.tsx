/**
 * A "choose a folder" button: where the browser has `showDirectoryPicker` a click opens that picker and
 * the folder's handle is the source (the workers read the files themselves); elsewhere (or if that
 * picker fails) the labelled `webkitdirectory` input opens. Setting the input's files (automation)
 * gives its listing as always. Either way the source is a folder the saved corpus follows (`sync`).
 */
import { useRef, type MouseEvent } from 'react';
import type { ScanSource } from '../../scan/scan-session.ts';

/** The browser's folder picker that returns a directory handle (File System Access; Chromium), or null. */
type DirectoryPicker = (options?: { id?: string; mode?: 'read' }) => Promise<FileSystemDirectoryHandle>;
function directoryPicker(): DirectoryPicker | null {
  const picker = (window as Window & { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  return typeof picker === 'function' ? picker.bind(window) : null;
}

export interface FolderInputProps {
  /** The button's text and the input's accessible name. */
  label: string;
  onSource(source: ScanSource): void;
}

/** The folder button; every way in ends in `onSource` with a folder source. */
export function FolderInput({ label, onSource }: FolderInputProps) {
  const useInput = useRef(false);
  const chooseFolder = (event: MouseEvent<HTMLInputElement>) => {
    const picker = directoryPicker();
    if (!picker || useInput.current) return;
    // The label's click reaches the input: open the handle picker instead of the input's own.
    event.preventDefault();
    const input = event.currentTarget;
    picker({ id: 'simsift-folder', mode: 'read' }).then(
      (handle) => onSource({ kind: 'handles', handles: [handle], sync: true }),
      (error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') return; // the person closed the picker
        // Not allowed here (a system folder, a policy): the plain folder input does the job.
        useInput.current = true;
        input.click();
      },
    );
  };
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
        onClick={chooseFolder}
        onChange={(e) => pick(e.currentTarget)}
      />
    </label>
  );
}
