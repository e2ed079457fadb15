/**
 * The export buttons: every duplicate pair and the groups the list shows as CSV files, and every
 * document's fingerprint as Parquet, saved locally (Blob, no network).
 */
import { useId, useState } from 'react';
import type { DuplicateRelation } from '../../core/groups/duplicate-relation.ts';
import { datedFileName, downloadBytes, downloadText } from './download.ts';
import type { FingerprintExportSource } from './export-fingerprints.ts';
import { relationCsvParts, viewGroupsCsv, type ExportGroups } from './export-csv.ts';
import '../shared/theme.css';

export interface ExportButtonsProps {
  /** The near-duplicate relation: "Export CSV" writes every one of its pairs. */
  relation: DuplicateRelation;
  /** The groups the list shows (the relation's GroupTable). */
  table: ExportGroups;
  /** Path of each document id. */
  paths: readonly string[];
  /** The shown groups in display order (GroupList's onViewChange), for the groups CSV. */
  order: Uint32Array;
  /** Per member slot, 1 when identical to its reference (role `exact-duplicate` in the groups CSV). */
  identical?: Uint8Array;
  /** The scan's documents, settings and k: "Export fingerprints" writes them as Parquet. */
  fingerprints?: FingerprintExportSource;
  disabled?: boolean;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "Export CSV" (all pairs) and "Export groups CSV" (groups in view), each saving a dated .csv file. */
export function ExportButtons({ relation, table, paths, order, identical, fingerprints, disabled = false }: ExportButtonsProps) {
  const id = useId();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const pairCount = relation.pairCount;
  const groupCount = order.length;
  const save = async (build: () => string | string[] | Promise<string[] | Uint8Array[]>, stem: string, what: string, ext = 'csv') => {
    setBusy(true);
    try {
      const name = datedFileName(stem, new Date(), ext);
      const built = await build();
      if (typeof built !== 'string' && built[0] instanceof Uint8Array) downloadBytes(built as Uint8Array[], name);
      else downloadText(built as string | string[], name);
      setStatus(`Saved ${what} as ${name}.`);
    } catch (error) {
      setStatus(`Could not export: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="ss-export" role="group" aria-label="Export">
      <button
        type="button"
        className="ss-button"
        disabled={disabled || busy || pairCount === 0}
        aria-describedby={`${id}-pairs`}
        onClick={() => void save(() => relationCsvParts(relation, paths), 'simsift-pairs', count(pairCount, 'pair', 'pairs'))}
      >
        Export CSV
      </button>
      <span id={`${id}-pairs`} className="ss-visually-hidden">
        all {count(pairCount, 'duplicate pair', 'duplicate pairs')}, one row each
      </span>
      <button
        type="button"
        className="ss-button"
        disabled={disabled || busy || groupCount === 0}
        aria-describedby={`${id}-groups`}
        onClick={() =>
          void save(() => viewGroupsCsv(table, paths, order, identical), 'simsift-groups', count(groupCount, 'group', 'groups'))
        }
      >
        Export groups CSV
      </button>
      <span id={`${id}-groups`} className="ss-visually-hidden">
        {count(groupCount, 'group', 'groups')} in view
      </span>
      {fingerprints && (
        <>
          <button
            type="button"
            className="ss-button"
            disabled={disabled || busy || fingerprints.docs.count === 0}
            aria-describedby={`${id}-fingerprints`}
            onClick={() =>
              // The Parquet writer loads on first use: it stays out of the page's main chunk.
              void save(async () => (await import('./export-fingerprints.ts')).fingerprintParquetParts(fingerprints), 'simsift-fingerprints', count(fingerprints.docs.count, 'fingerprint row', 'fingerprint rows'), 'parquet')
            }
          >
            Export fingerprints
          </button>
          <span id={`${id}-fingerprints`} className="ss-visually-hidden">
            every document's 64-bit fingerprint, path and status as a Parquet file
          </span>
        </>
      )}
      <span className="ss-export-status" role="status">
        {status}
      </span>
    </div>
  );
}
