/**
 * The export buttons: every duplicate pair and the groups the list shows as CSV files, and every
 * document's fingerprint as Parquet. The export worker builds each file off the main thread and
 * writes it in chunks to the file the person picks (where the browser offers a save picker), or
 * builds a Blob from chunks for a download (elsewhere). Nothing goes over the network.
 */
import type { ContainedRelation } from '../../core/groups/contained-pairs.ts';
import { useId, useState } from 'react';
import type { DuplicateRelation } from '../../core/groups/duplicate-relation.ts';
import type { SimHashSettings } from '../../core/simhash/settings.ts';
import type { ScanDocs } from '../../scan/scan-result.ts';
import { FINGERPRINT_COLUMNS, pickDocColumns, type FingerprintColumnName } from '../../core/documents/doc-columns.ts';
import type { ExportGroups, ExportOutcome, ExportTarget } from '../../workers/export-api.ts';
import { datedFileName, pickSaveFile, startDownload } from './download.ts';
import { exportWorker } from './export-client.ts';
import '../shared/theme.css';

/** What "Export fingerprints" reads from a scan result. */
export interface FingerprintExportSource {
  docs: Pick<ScanDocs, 'count' | 'paths' | FingerprintColumnName>;
  /** Per doc: the doc whose text stands for it, or -1 (copies carry their original's fingerprint). */
  representative: Int32Array;
  settings: SimHashSettings;
  k: number;
}

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
  /** Per document, 1 when the person said it is not a duplicate (the keep panel): left out of both CSVs. */
  leftOut?: Uint8Array;
  /** Pairs the person said are not duplicates of each other (a0, b0, a1, b1, …): left out of the pairs CSV. */
  separated?: Uint32Array;
  /** The rows the pairs CSV holds after those marks (the relation's pair count when absent). */
  exportedPairs?: number;
  /** Documents contained in others: rows of the pairs CSV after the near-duplicate pairs (relation `contained`). */
  contained?: ContainedRelation;
  disabled?: boolean;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** One export: the file's stem and extension, what it holds (for the status line), and how the worker builds it. */
interface ExportJob {
  stem: string;
  ext: 'csv' | 'parquet';
  what: string;
  run: (target: ExportTarget) => Promise<ExportOutcome>;
}

/** "Export CSV" (all pairs), "Export groups CSV" (groups in view) and "Export fingerprints" (Parquet). */
export function ExportButtons({ relation, table, paths, order, identical, fingerprints, leftOut, separated, exportedPairs, contained, disabled = false }: ExportButtonsProps) {
  const id = useId();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const pairCount = (exportedPairs ?? relation.pairCount) + (contained?.count ?? 0);
  let ignored = 0;
  if (leftOut) for (let d = 0; d < leftOut.length; d++) ignored += leftOut[d]!;
  const apart = separated ? separated.length / 2 : 0;
  const marked = [ignored > 0 ? count(ignored, 'document', 'documents') : '', apart > 0 ? count(apart, 'pair', 'pairs') : ''].filter(Boolean).join(' and ');
  const without = marked ? ` (${count(relation.pairCount - pairCount, 'pair', 'pairs')} left out: ${marked} marked not a duplicate)` : '';
  const groupCount = order.length;
  const save = async (job: ExportJob) => {
    const name = datedFileName(job.stem, new Date(), job.ext);
    setBusy(true);
    try {
      // The picker first: it needs the click's user activation.
      const target = await pickSaveFile(name, job.ext === 'csv' ? 'CSV file' : 'Parquet file', job.ext === 'csv' ? 'text/csv' : 'application/vnd.apache.parquet', job.ext);
      setStatus(`Exporting ${job.what}…`);
      const outcome = await job.run(target);
      if (target) {
        setStatus(`Saved ${job.what} as ${target.name}.`);
      } else if (outcome.blob) {
        startDownload(outcome.blob, name);
        // Only the browser knows when a download is complete: the page never claims it is saved.
        setStatus(`Downloading ${job.what} as ${name}; your browser shows when the download is complete.`);
      }
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') setStatus('Export cancelled: nothing was saved.');
      else setStatus(`Could not export: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="ss-export" role="group" aria-label="Export" aria-busy={busy}>
      <button
        type="button"
        className="ss-button"
        disabled={disabled || busy || pairCount === 0}
        aria-describedby={`${id}-pairs`}
        onClick={() =>
          void save({
            stem: 'simsift-pairs',
            ext: 'csv',
            what: count(pairCount, 'pair', 'pairs') + without,
            run: (target) => exportWorker.call(undefined, (api) => api.pairsCsv(relation, paths, target, leftOut, separated, contained)),
          })
        }
      >
        Export CSV
      </button>
      <span id={`${id}-pairs`} className="ss-visually-hidden">
        {marked ? '' : 'all '}
        {count(pairCount, 'duplicate pair', 'duplicate pairs')}, one row each{without}
      </span>
      <button
        type="button"
        className="ss-button"
        disabled={disabled || busy || groupCount === 0}
        aria-describedby={`${id}-groups`}
        onClick={() =>
          void save({
            stem: 'simsift-groups',
            ext: 'csv',
            what: count(groupCount, 'group', 'groups') + without,
            run: (target) =>
              exportWorker.call(undefined, (api) =>
                api.groupsCsv({ count: table.count, offsets: table.offsets, members: table.members, distanceToReference: table.distanceToReference }, paths, order, identical, target, leftOut),
              ),
          })
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
            onClick={() => {
              const { docs, representative, settings, k } = fingerprints;
              void save({
                stem: 'simsift-fingerprints',
                ext: 'parquet',
                what: count(docs.count, 'fingerprint row', 'fingerprint rows'),
                // Only the columns the file holds cross to the worker (not the scan's Files or handles).
                run: (target) =>
                  exportWorker.call(undefined, (api) =>
                    api.fingerprintsParquet(
                      { count: docs.count, paths: docs.paths, ...pickDocColumns(docs, FINGERPRINT_COLUMNS), representative, settings, k },
                      target,
                    ),
                  ),
              });
            }}
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
