/** The export buttons: the pairs in view and the groups, as CSV files saved locally (Blob, no network). */
import { useId, useState } from 'react';
import { datedFileName, downloadText } from './download.ts';

export interface ExportButtonsProps {
  /** Builds the CSV of the pairs the view shows (called on click, so it can be large). */
  buildPairsCsv: () => string;
  /** Builds the CSV of the groups the view shows (group, path, role, distance to the reference). */
  buildGroupsCsv: () => string;
  /** How many pairs and groups the view shows (for the description and to disable empty exports). */
  pairCount: number;
  groupCount: number;
  disabled?: boolean;
}

/** "Export CSV" (pairs in view) and "Export groups CSV", each saving a dated .csv file. */
export function ExportButtons({ buildPairsCsv, buildGroupsCsv, pairCount, groupCount, disabled = false }: ExportButtonsProps) {
  const id = useId();
  const [status, setStatus] = useState('');
  const save = (build: () => string, stem: string, what: string) => {
    try {
      const name = datedFileName(stem);
      downloadText(build(), name);
      setStatus(`Saved ${what} as ${name}.`);
    } catch (error) {
      setStatus(`Could not export: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <div className="ss-export" role="group" aria-label="Export">
      <button
        type="button"
        className="ss-button"
        disabled={disabled || pairCount === 0}
        aria-describedby={`${id}-pairs`}
        onClick={() => save(buildPairsCsv, 'simsift-pairs', `${pairCount.toLocaleString()} pairs`)}
      >
        Export CSV
      </button>
      <span id={`${id}-pairs`} className="ss-visually-hidden">
        {pairCount.toLocaleString()} pairs in view
      </span>
      <button
        type="button"
        className="ss-button"
        disabled={disabled || groupCount === 0}
        aria-describedby={`${id}-groups`}
        onClick={() => save(buildGroupsCsv, 'simsift-groups', `${groupCount.toLocaleString()} groups`)}
      >
        Export groups CSV
      </button>
      <span id={`${id}-groups`} className="ss-visually-hidden">
        {groupCount.toLocaleString()} groups in view
      </span>
      <span className="ss-export-status" role="status">
        {status}
      </span>
    </div>
  );
}
