/**
 * "Move marked to quarantine" where the browser gives a writable folder (Chromium's directory picker, a
 * folder scanned through its handle): the person picks the quarantine folder, the marked files move there
 * through quarantine-move.ts's checks, and Undo puts them back. Elsewhere: the exact `simsift apply` command.
 */
import { useState } from 'react';
import type { PlanRow } from '../../core/export/plan.ts';
import { formatSize } from '../shared/format-size.ts';
import { checkPlaces, moveToQuarantine, undoQuarantine, type AppUndoEntry } from './quarantine-move.ts';

type Permissioned = FileSystemDirectoryHandle & {
  queryPermission?: (d: { mode: 'readwrite' }) => Promise<PermissionState>;
  requestPermission?: (d: { mode: 'readwrite' }) => Promise<PermissionState>;
};
type Picker = (options: { mode: 'readwrite'; id?: string }) => Promise<FileSystemDirectoryHandle>;

export interface QuarantineMoveProps {
  /** The scanned folder's name (the paths' first part). */
  folderName: string;
  /** The scanned folder's handle, when it was scanned through one (else the command is shown). */
  root: FileSystemDirectoryHandle | null;
  /** The plan as it stands (hashes of the bytes read now). */
  planRows: () => Promise<PlanRow[]>;
  /** The last exported plan's file name, for the command. */
  planName: string | null;
  marked: number;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

async function writable(handle: Permissioned): Promise<boolean> {
  if ((await handle.queryPermission?.({ mode: 'readwrite' })) === 'granted') return true;
  return (await handle.requestPermission?.({ mode: 'readwrite' })) === 'granted';
}

export function QuarantineMove({ folderName, root, planRows, planName, marked }: QuarantineMoveProps) {
  const [status, setStatus] = useState('');
  const [problems, setProblems] = useState<Array<{ path: string; why: string }>>([]);
  const [done, setDone] = useState<{ moved: AppUndoEntry[]; quarantine: FileSystemDirectoryHandle } | null>(null);
  const [busy, setBusy] = useState(false);
  const pickerOf = () => (window as Window & { showDirectoryPicker?: Picker }).showDirectoryPicker;
  const picker = pickerOf();
  if (!root || !picker) {
    return (
      <p className="ss-muted keep-panel__apply">
        To move the files marked for removal into a quarantine folder, export the plan, then run, in the folder that holds{' '}
        <bdi>{folderName}</bdi>: <code>simsift apply {planName ?? 'simsift-plan-….json'} --root . --into ../quarantine --dry-run</code>{' '}
        (<code>simsift</code> as the README installs it; the quarantine outside this folder), then without <code>--dry-run</code>. It moves only files whose bytes still
        match the plan, deletes nothing, and writes an undo log (<code>simsift apply --undo LOG</code> puts everything back).
      </p>
    );
  }
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') setStatus('No quarantine folder was picked: nothing moved.');
      else setStatus(`Could not move: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  const move = () =>
    run(async () => {
      // The picker first: it needs the click's user activation.
      // Looked up now (not at render): the page's picker is the one asked.
      const quarantine = await pickerOf()!({ mode: 'readwrite', id: 'simsift-quarantine' });
      const refused = await checkPlaces(root, quarantine);
      if (refused) {
        setStatus(refused);
        return;
      }
      if (!(await writable(root as Permissioned))) {
        setStatus(`SimSift was not allowed to change ${root.name}: nothing moved.`);
        return;
      }
      setStatus('Checking every marked file against the plan…');
      // The scan's own pipeline, loaded only now (it holds the document extractors).
      const { contentHashOf } = await import('../../workers/content-hash.ts');
      const outcome = await moveToQuarantine(await planRows(), root, quarantine, contentHashOf);
      setProblems(outcome.notMoved);
      setDone(outcome.moved.length > 0 ? { moved: outcome.moved, quarantine } : null);
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
      if (!(await writable(root as Permissioned))) {
        setStatus(`SimSift was not allowed to change ${root.name}: nothing put back.`);
        return;
      }
      const result = await undoQuarantine(done.moved, root, done.quarantine);
      setProblems(result.refused);
      setDone(result.refused.length > 0 ? done : null);
      setStatus(`Put back ${count(result.back, 'file', 'files')} of ${done.moved.length}; ${count(result.refused.length, 'file', 'files')} not.`);
    });
  return (
    <div className="keep-move" role="group" aria-label="Move to quarantine">
      <p className="ss-muted">
        Moves each file marked for removal into a folder you pick, outside <bdi>{root.name}</bdi>, only while its bytes still match
        and its kept file is there: it is copied, the copy read back and compared, then removed from <bdi>{root.name}</bdi>. Nothing is
        deleted; Undo puts the files back.
      </p>
      <button type="button" className="ss-button" disabled={busy || marked === 0} onClick={() => void move()}>
        Move marked to quarantine…
      </button>{' '}
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
