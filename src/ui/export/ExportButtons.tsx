/** The export buttons: the pairs and groups the list shows, as CSV files saved locally (Blob, no network). */
import { useId, useState } from 'react';
import { datedFileName, downloadText } from './download.ts';
import { pairCountInView, viewGroupsCsv, viewPairsCsv, type ExportGroups } from './export-csv.ts';
import '../shared/theme.css';

export interface ExportButtonsProps {
  /** The groups (the core's GroupTable, or the merged near + exact table the list shows). */
  table: ExportGroups;
  /** Path of each document id. */
  paths: readonly string[];
  /** The shown groups in display order (GroupList's onViewChange). */
  order: Uint32Array;
  /** Per group, 1 for an exact-duplicate group (role `exact-duplicate` in the groups CSV). */
  exact?: Uint8Array;
  disabled?: boolean;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "Export CSV" (pairs in view) and "Export groups CSV", each saving a dated .csv file. */
export function ExportButtons({ table, paths, order, exact, disabled = false }: ExportButtonsProps) {
  const id = useId();
  const [status, setStatus] = useState('');
  const pairCount = pairCountInView(table, order);
  const groupCount = order.length;
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
        onClick={() =>
          save(() => viewPairsCsv(table, paths, order), 'simsift-pairs', count(pairCount, 'pair', 'pairs'))
        }
      >
        Export CSV
      </button>
      <span id={`${id}-pairs`} className="ss-visually-hidden">
        {count(pairCount, 'pair', 'pairs')} in view
      </span>
      <button
        type="button"
        className="ss-button"
        disabled={disabled || groupCount === 0}
        aria-describedby={`${id}-groups`}
        onClick={() =>
          save(() => viewGroupsCsv(table, paths, order, exact), 'simsift-groups', count(groupCount, 'group', 'groups'))
        }
      >
        Export groups CSV
      </button>
      <span id={`${id}-groups`} className="ss-visually-hidden">
        {count(groupCount, 'group', 'groups')} in view
      </span>
      <span className="ss-export-status" role="status">
        {status}
      </span>
    </div>
  );
}
