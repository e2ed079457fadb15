/** The saved-corpus panel: document count, storage used, keep-contents, check files, re-read, clear, resume, reset. */
import { useState } from 'react';
import type { CorpusPersistence } from '../../corpus/corpus-persistence.ts';
import { useCorpusPersistence } from './use-corpus-persistence.ts';
import { CheckResults, CorpusActions, CorpusAlerts, CorpusFacts, InterruptedScan } from './CorpusPanelParts.tsx';
import { OpenCliResult } from './OpenCliResult.tsx';

export interface CorpusPanelProps {
  persistence: CorpusPersistence;
}

/** Renders the controller's snapshot and turns clicks into its actions. */
export function CorpusPanel({ persistence }: CorpusPanelProps) {
  const s = useCorpusPersistence(persistence);
  const [confirming, setConfirming] = useState(false);
  return (
    <section className="corpus-panel" aria-label="Saved corpus" aria-busy={s.saving}>
      <h2>Saved corpus</h2>
      <CorpusFacts s={s} />
      <CorpusAlerts s={s} persistence={persistence} />
      <InterruptedScan s={s} persistence={persistence} />
      <CorpusActions s={s} persistence={persistence} onClear={() => setConfirming(true)} />
      <OpenCliResult persistence={persistence} />
      {confirming && (
        <div role="dialog" aria-modal="true" aria-labelledby="clear-corpus-title" className="corpus-panel__dialog">
          <h3 id="clear-corpus-title">Clear the saved corpus?</h3>
          <p>
            All {s.documentCount.toLocaleString('en')} saved documents, their contents and groups are removed from this browser. Your files on
            disk are not touched.
          </p>
          <button
            type="button"
            onClick={() => {
              setConfirming(false);
              void persistence.clear();
            }}
          >
            Clear
          </button>
          <button type="button" autoFocus onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {s.confirmation && (
        <div role="dialog" aria-modal="true" aria-labelledby="corpus-confirm-title" className="corpus-panel__dialog">
          <h3 id="corpus-confirm-title">{s.confirmation.confirm}?</h3>
          <p>{s.confirmation.message}</p>
          <button type="button" onClick={() => persistence.answer(true)}>
            {s.confirmation.confirm}
          </button>
          <button type="button" autoFocus onClick={() => persistence.answer(false)}>
            {s.confirmation.cancel}
          </button>
        </div>
      )}
      {s.checking && <p role="status">Checking…</p>}
      {s.checks && <CheckResults checks={s.checks} />}
    </section>
  );
}
