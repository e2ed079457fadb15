/**
 * "Move marked to quarantine" wherever the browser gives a writable folder (Chromium's File System
 * Access): the folder this scan read through its handle (picker or drop), else the handle kept with the
 * corpus (after a reload: permission asked again on a click), else the same folder picked again and
 * checked against the scan (a folder-input scan). The person picks the quarantine folder, the marked
 * files move there through quarantine-move.ts's checks, and Undo puts them back. A browser without a
 * folder picker is told so, with the exact `simsift apply` command.
 */
import { useState } from 'react';
import type { PlanRow } from '../../core/export/plan.ts';
import { formatSize } from '../shared/format-size.ts';
import { useScannedFolder } from './use-scanned-folder.ts';
import { checkPlaces, moveToQuarantine, notTheScannedFolder, openUnder, undoQuarantine, type AppUndoEntry, type TextHash } from './quarantine-move.ts';

type Picker = (options: { mode: 'readwrite'; id?: string }) => Promise<FileSystemDirectoryHandle>;

export interface QuarantineMoveProps {
  /** The scanned folder's name (the paths' first part). */
  folderName: string;
  /** The folder's handle when this scan read it through one (picker or drop), else null. */
  scanRoot: FileSystemDirectoryHandle | null;
  /** The documents on show: another scan's forget the folder picked for these (it may be another folder now). */
  scanned: object;
  /** The plan as it stands (hashes of the bytes read now; documents whose bytes were not kept, read through `reopen`). */
  planRows: (reopen?: (path: string) => Promise<Blob>) => Promise<PlanRow[]>;
  /** The last exported plan's file name, for the command. */
  planName: string | null;
  marked: number;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The page's folder picker, looked up when asked (not at render): the one the page has now. */
const pickerOf = () => (window as Window & { showDirectoryPicker?: Picker }).showDirectoryPicker;

/** The scan's own pipeline, loaded only when needed (it holds the document extractors). */
const textHash: TextHash = async (path, bytes) => (await import('../../workers/content-hash.ts')).contentHashOf(path, bytes);

export function QuarantineMove({ folderName, scanRoot, scanned, planRows, planName, marked }: QuarantineMoveProps) {
  const [status, setStatus] = useState('');
  const [problems, setProblems] = useState<Array<{ path: string; why: string }>>([]);
  const [done, setDone] = useState<{ moved: AppUndoEntry[]; quarantine: FileSystemDirectoryHandle; root: FileSystemDirectoryHandle } | null>(null);
  const [busy, setBusy] = useState(false);
  const folder = useScannedFolder(folderName, scanRoot, scanned);
  const { root, source, granted } = folder;
  if (!pickerOf()) return <ApplyCommandNote folderName={folderName} planName={planName} />;
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') setStatus('No folder was picked: nothing moved.');
      else setStatus(`Could not move: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  const pickScanned = () =>
    run(async () => {
      const picked = await pickerOf()!({ mode: 'readwrite', id: 'simsift-folder' });
      setStatus(`Checking that ${picked.name} is the folder that was scanned…`);
      const refused = await notTheScannedFolder(picked, folderName, await planRows((path) => openUnder(picked, path)), textHash);
      if (refused) {
        setStatus(refused);
        return;
      }
      folder.adopt(picked);
      setStatus(`${picked.name} is the folder that was scanned: its marked files are there as the scan read them.`);
    });
  const allow = () =>
    run(async () => {
      if (!root) return;
      // On the click: the browser asks the person.
      const granted = await folder.requestAccess();
      setStatus(granted ? '' : `SimSift was not allowed to change ${root.name}: nothing moved.`);
    });
  const move = () =>
    run(async () => {
      if (!root) return;
      // The picker first: it needs the click's user activation.
      const quarantine = await pickerOf()!({ mode: 'readwrite', id: 'simsift-quarantine' });
      const refused = await checkPlaces(root, quarantine);
      if (refused) {
        setStatus(refused);
        return;
      }
      setStatus('Checking every marked file against the plan…');
      const outcome = await moveToQuarantine(await planRows((path) => openUnder(root, path)), root, quarantine, textHash);
      setProblems(outcome.notMoved);
      setDone(outcome.moved.length > 0 ? { moved: outcome.moved, quarantine, root } : null);
      setStatus(
        `Moved ${count(outcome.moved.length, 'file', 'files')} (${formatSize(outcome.bytes) || '0 B'}) to ${quarantine.name}/${root.name}; ` +
          `${count(outcome.notMoved.length, 'file', 'files')} not moved.` +
          (outcome.logName ? ` Undo log: ${quarantine.name}/${outcome.logName}.` : '') +
          (outcome.moved.length > 0 ? ' The results still list them: scan again to see the folder as it is now.' : ''),
      );
    });
  const undo = () =>
    run(async () => {
      if (!done) return;
      const result = await undoQuarantine(done.moved, done.root, done.quarantine);
      setProblems(result.refused);
      setDone(result.refused.length > 0 ? done : null);
      setStatus(`Put back ${count(result.back, 'file', 'files')} of ${done.moved.length}; ${count(result.refused.length, 'file', 'files')} not.`);
    });
  return (
    <div className="keep-move" role="group" aria-label="Move to quarantine">
      <p className="ss-muted">
        Moves each file marked for removal into a folder you pick, outside <bdi>{folderName}</bdi>, only while its bytes still match
        and its kept file is there: it is copied, the copy read back and compared, then removed from <bdi>{folderName}</bdi>. Nothing is
        deleted; Undo puts the files back.
        {!root && (
          <>
            {' '}
            This page has no access to <bdi>{folderName}</bdi> itself (it was chosen through the folder input, or before this page was
            loaded): pick the same folder, and it is checked against the scan (every marked file at its path with the size and text the
            scan read) before anything moves.
          </>
        )}
        {root && !granted && source === 'kept' && (
          <> SimSift kept access to <bdi>{folderName}</bdi> with the saved corpus; the browser asks you again before anything in it changes.</>
        )}
      </p>
      {!root ? (
        <button type="button" className="ss-button" disabled={busy || marked === 0} onClick={() => void pickScanned()}>
          Pick the folder {folderName}…
        </button>
      ) : !granted ? (
        <button type="button" className="ss-button" disabled={busy || marked === 0} onClick={() => void allow()}>
          Allow changes to {folderName}…
        </button>
      ) : (
        <button type="button" className="ss-button" disabled={busy || marked === 0} onClick={() => void move()}>
          Move marked to quarantine…
        </button>
      )}{' '}
      {done && (
        <button type="button" className="ss-button" disabled={busy} onClick={() => void undo()}>
          Undo the move
        </button>
      )}
      <p role="status" aria-live="polite">
        {status}
      </p>
      {problems.length > 0 && (
        <ul aria-label="Not moved" className="keep-move__problems">
          {problems.slice(0, 50).map((p) => (
            <li key={p.path}>
              <bdi>{p.path}</bdi>: {p.why}
            </li>
          ))}
          {problems.length > 50 && <li>… and {problems.length - 50} more</li>}
        </ul>
      )}
    </div>
  );
}

/** What a browser without a writable folder picker is told: the `simsift apply` command that does the same. */
function ApplyCommandNote({ folderName, planName }: { folderName: string; planName: string | null }) {
  return (
    <p className="ss-muted keep-panel__apply">
      This browser cannot let a page move files (it has no folder picker with write access; Chromium-based browsers have one). To move the files
      marked for removal into a quarantine folder, export the plan, then run, in the folder that holds <bdi>{folderName}</bdi>:{' '}
      <code>simsift apply {planName ?? 'simsift-plan-….json'} --root . --into ../quarantine --dry-run</code> (<code>simsift</code> as the README installs
      it; the quarantine outside this folder), then without <code>--dry-run</code>. It moves only files whose bytes still match the plan, deletes
      nothing, and writes an undo log (<code>simsift apply --undo LOG</code> puts everything back).
    </p>
  );
}
