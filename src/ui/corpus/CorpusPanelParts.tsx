/** The saved-corpus panel's parts; each renders the controller's snapshot and calls its actions. */
import { useRef } from 'react';
import type { CorpusPersistence, PersistenceSnapshot } from '../../corpus/corpus-persistence.ts';
import { formatStorageBytes, interruptedMessage } from './format-storage.ts';
import { displayName } from '../shared/display-name.ts';
import { PathName } from '../shared/PathName.tsx';

interface PartProps {
  s: PersistenceSnapshot;
  persistence: CorpusPersistence;
}

/** What is saved: the restore's progress, the document count, storage used, the index, unmeasured pairs. */
export function CorpusFacts({ s }: { s: PersistenceSnapshot }) {
  return (
    <>
      {s.status === 'restoring' && (
        <p role="status">
          Restoring the saved corpus
          {s.restore
            ? `: ${s.restore.phase} (${Math.round((s.restore.nowMs - s.restore.phaseStartedMs) / 1000)} s in this step, ${Math.round((s.restore.nowMs - s.restore.startedMs) / 1000)} s in all)…`
            : '…'}
        </p>
      )}
      {s.status === 'off' && <p>This browser does not let SimSift save data: nothing is kept after a reload.</p>}
      {s.status !== 'off' && (
        <p aria-label="Saved documents">
          {s.documentCount.toLocaleString('en')} document{s.documentCount === 1 ? '' : 's'} saved in this browser
        </p>
      )}
      {s.status !== 'off' && s.saving && (
        <p className="corpus-panel__saving">saving…</p>
      )}
      {s.usage && (
        <p aria-label="Storage used">
          {s.usage.corpus !== null && (
            <>
              <span aria-label="Corpus storage">corpus {formatStorageBytes(s.usage.corpus)}</span>
              {s.usage.app ? ` + app for offline use ${formatStorageBytes(s.usage.app)}` : ''}:{' '}
            </>
          )}
          {formatStorageBytes(s.usage.usage)} of {formatStorageBytes(s.usage.quota)} used
          {s.usage.corpus === null ? ' (the corpus and the app’s offline copy)' : ''}
          {s.usage.persisted ? ' (persistent)' : ''}
        </p>
      )}
      {s.index && (
        <p aria-label="Index in use">
          {s.index.kind === 'tables'
            ? `index: permuted tables, ${s.index.tableCount} tables (k ≤ ${s.index.k})`
            : 'index: a scan of every fingerprint (at this k, faster than permuted tables)'}
        </p>
      )}
      {s.unmeasured > 0 && (
        <p aria-label="Pairs not measured">
          {s.unmeasured.toLocaleString('en')} possible pair{s.unmeasured === 1 ? '' : 's'} between new files and saved documents could not be
          measured: the saved files' contents are not kept. Scan those files again to measure them.
        </p>
      )}
    </>
  );
}

/** A storage error with its way out (Resume after a full quota, Reset local data), and a dismissable notice. */
export function CorpusAlerts({ s, persistence }: PartProps) {
  const resetOffered = s.error && (s.error.kind === 'corrupt' || s.error.kind === 'newer-version' || s.error.kind === 'other' || s.error.kind === 'failed' || s.error.kind === 'upgrade-failed');
  return (
    <>
      {s.error && (
        <div role="alert" className="corpus-panel__error">
          <p>{s.error.message}</p>
          {s.error.kind === 'quota' && s.storageFull?.canResume && (
            <button type="button" onClick={() => void persistence.resumeStopped()}>
              Resume
            </button>
          )}
          {resetOffered && (
            <button type="button" onClick={() => void persistence.resetLocalData()}>
              Reset local data
            </button>
          )}
        </div>
      )}
      {s.notice && (
        <p role="status" className="corpus-panel__notice">
          {s.notice}{' '}
          <button type="button" onClick={() => persistence.dismissNotice()}>
            Dismiss
          </button>
        </p>
      )}
    </>
  );
}

/** A scan that stopped before it was saved whole: Resume (choose the folder again) or keep what is there. */
export function InterruptedScan({ s, persistence }: PartProps) {
  const resumeInput = useRef<HTMLInputElement>(null);
  const folderProps = { webkitdirectory: '', directory: '' } as Record<string, string>;
  if (!s.interrupted) return null;
  return (
    <div role="group" aria-label="Interrupted scan" className="corpus-panel__interrupted">
      <p>{interruptedMessage(s.interrupted.committed, s.interrupted.total, s.interrupted.storageFull, s.interrupted.cancelled)}</p>
      <button type="button" onClick={() => resumeInput.current?.click()}>
        Resume
      </button>
      <input
        ref={resumeInput}
        type="file"
        multiple
        hidden
        aria-label="Choose the folder to resume"
        {...folderProps}
        onChange={(e) => {
          const files = e.currentTarget.files ? Array.from(e.currentTarget.files) : [];
          e.currentTarget.value = '';
          if (files.length > 0) void persistence.resume(files);
        }}
      />
      <button type="button" onClick={() => void persistence.keepInterrupted()}>
        Keep what is there
      </button>
    </div>
  );
}

/** Keep file contents, Check files against the corpus, Re-read every file, Clear corpus. */
export function CorpusActions({ s, persistence, onClear }: PartProps & { onClear: () => void }) {
  return (
    <div className="corpus-panel__actions">
      <label>
        <input type="checkbox" checked={s.keepContents} onChange={(e) => void persistence.setKeepContents(e.currentTarget.checked)} /> Keep file
        contents (the pair view works after a reload)
      </label>
      <label className="corpus-panel__file">
        Check files against the corpus
        <input
          className="visually-hidden"
          type="file"
          multiple
          disabled={s.documentCount === 0 || s.checking}
          onChange={(e) => {
            const files = e.currentTarget.files ? Array.from(e.currentTarget.files) : [];
            e.currentTarget.value = '';
            if (files.length > 0) void persistence.check(files);
          }}
        />
      </label>
      <button
        type="button"
        disabled={s.documentCount === 0 || s.rereadAll}
        aria-pressed={s.rereadAll}
        title="Choosing a folder again reads only files whose size or modification time changed. This makes the next choose read every file (for an edit that kept both)."
        onClick={() => persistence.rereadAll()}
      >
        Re-read every file
      </button>
      <button type="button" disabled={s.documentCount === 0} onClick={onClear}>
        Clear corpus
      </button>
    </div>
  );
}

/** The files checked against the corpus and what each one is of it. */
export function CheckResults({ checks }: { checks: NonNullable<PersistenceSnapshot['checks']> }) {
  return (
    <section aria-label="Check results">
      <h3>Check results</h3>
      <ul>
        {checks.map((c, i) => (
          <li key={i}>
            <strong>
              <PathName path={c.name} />
            </strong>
            :{' '}
            {c.problem
              ? c.problem
              : c.exact.length === 0 && c.near.length === 0
                ? 'no duplicate in the corpus'
                : [
                    ...c.exact.map((p) => `exact copy of ${displayName(p)}`),
                    ...c.near.map(
                      (n) => `near-duplicate of ${displayName(n.path)} (distance ${n.distance}${n.jaccard === null ? ', not verified: contents not kept' : `, Jaccard ${n.jaccard.toFixed(2)}`})`,
                    ),
                  ].join('; ')}{' '}
            <small>({c.ms.toFixed(0)} ms)</small>
          </li>
        ))}
      </ul>
    </section>
  );
}
