/** The drop zone: accepts dropped folders and files, and offers "Choose folder" and "Choose files". */
import { useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { snapshotDataTransfer } from '../../scan/collect-files.ts';
import type { ScanSource } from '../../scan/scan-session.ts';

export interface DropZoneProps {
  onSource(source: ScanSource): void;
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** The browser's folder picker that returns a directory handle (File System Access; Chromium), or null. */
type DirectoryPicker = (options?: { id?: string; mode?: 'read' }) => Promise<FileSystemDirectoryHandle>;
function directoryPicker(): DirectoryPicker | null {
  const picker = (window as Window & { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  return typeof picker === 'function' ? picker.bind(window) : null;
}

/**
 * Drop target plus the two pickers; every way in ends in `onSource`. "Choose folder" is one button:
 * where the browser has `showDirectoryPicker` a click opens that picker, and the folder's handle goes
 * to the workers, which read the files themselves; elsewhere (or if that picker fails) the labelled
 * `webkitdirectory` input opens as before. Setting the input's files (automation) scans them as always.
 */
export function DropZone({ onSource }: DropZoneProps) {
  const [over, setOver] = useState(false);
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
    // A folder chosen (not files): the saved corpus follows it, files gone from it leave.
    if (files.length > 0) onSource({ kind: 'file-list', files, ...(input.webkitdirectory ? { sync: true } : {}) });
  };
  return (
    <section
      className={over ? 'drop-zone drop-zone--over' : 'drop-zone'}
      aria-label="Drop zone"
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
        setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        // Items are only readable during the event: capture them now.
        const drop = snapshotDataTransfer(e.dataTransfer);
        if (drop.entries.length + drop.looseFiles.length > 0) onSource({ kind: 'drop', drop });
      }}
    >
      <p className="drop-zone__hint">Drop a folder or text files here</p>
      <div className="drop-zone__buttons">
        <label className="button">
          Choose folder
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
        <label className="button">
          Choose files
          <input className="visually-hidden" type="file" multiple onChange={(e) => pick(e.currentTarget)} />
        </label>
      </div>
      <p className="drop-zone__note">Hidden files and folders (.git, node_modules, dotfiles) are skipped. Nothing is uploaded.</p>
    </section>
  );
}
