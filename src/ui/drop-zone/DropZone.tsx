/** The drop zone: accepts dropped folders and files, and offers "Choose folder" and "Choose files". */
import { useState, type DragEvent } from 'react';
import { snapshotDataTransfer } from '../../scan/collect-files.ts';
import type { ScanSource } from '../../scan/scan-session.ts';
import { FolderInput } from '../shared/FolderInput.tsx';

export interface DropZoneProps {
  onSource(source: ScanSource): void;
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Drop target plus the two pickers; every way in ends in `onSource`. "Choose folder" is one button
 * (ui/shared/FolderInput.tsx: the folder input, which lists every file).
 */
export function DropZone({ onSource }: DropZoneProps) {
  const [over, setOver] = useState(false);
  const pick = (input: HTMLInputElement) => {
    // A FileList is live: copy it before clearing the input (which lets the same folder be chosen again).
    const files = input.files ? Array.from(input.files) : [];
    input.value = '';
    if (files.length > 0) onSource({ kind: 'file-list', files });
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
      <p className="drop-zone__hint">Drop a folder or files here</p>
      <div className="drop-zone__buttons">
        <FolderInput label="Choose folder" onSource={onSource} />
        <label className="button">
          Choose files
          <input className="visually-hidden" type="file" multiple onChange={(e) => pick(e.currentTarget)} />
        </label>
      </div>
      <p className="drop-zone__note">Hidden files and folders (.git, node_modules, dotfiles) are skipped. Nothing is uploaded.</p>
    </section>
  );
}
