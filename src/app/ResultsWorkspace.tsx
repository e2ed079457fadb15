/**
 * The results workspace: a finished scan's summary, distance histogram, duplicate groups, the open
 * pair (bit diff and texts side by side), export, settings and the Skipped panel, put together.
 */
import { useMemo, useRef, useState } from 'react';
import { decisionsOf, type ScanResult } from '../scan/scan-result.ts';
import { Summary } from '../ui/summary/Summary.tsx';
import { DistanceHistogram } from '../ui/histogram/DistanceHistogram.tsx';
import { GroupList } from '../ui/groups/GroupList.tsx';
import { ContainedList } from '../ui/groups/ContainedList.tsx';
import { ExportButtons } from '../ui/export/ExportButtons.tsx';
import { SettingsPanel } from '../ui/settings/SettingsPanel.tsx';
import { SkippedPanel } from '../ui/skipped/SkippedPanel.tsx';
import { changesFingerprints, MAX_K, type ScanSettings } from '../ui/shared/scan-settings.ts';
import { paramsOf, shownGroups, type GroupingParams } from './result-groups.ts';
import { fileCounts } from './file-counts.ts';
import { KeepPanel, type BuildPlan } from '../ui/keep/KeepPanel.tsx';
import { datedFileName, startDownload } from '../ui/export/download.ts';
import { exportWorker } from '../ui/export/export-client.ts';
import { OpenPair, PairHint } from './OpenPair.tsx';
import { ChainedNote } from './ResultsLine.tsx';
import { useOpenPair, useRequestedParams } from './use-result-view.ts';
import { ResultsLine } from './ResultsLine.tsx';
import { useResultMarks } from './use-result-marks.ts';
import type { CorpusPersistence } from '../corpus/corpus-persistence.ts';
import type { DocId } from '../core/ids.ts';

export interface ResultsWorkspaceProps {
  result: ScanResult;
  /** Regroups in the workers at a new k, Jaccard threshold or grouping (no fingerprinting). */
  onRegroup: (params: GroupingParams) => void;
  /** Runs the scan again with new fingerprint settings. */
  onRescan: (settings: ScanSettings) => void;
  /** True while a new scan runs (settings cannot be applied meanwhile). */
  busy: boolean;
  /** True while a regroup runs in the workers. */
  regrouping: boolean;
  /** Removes documents (positions in `result.docs`) from the saved corpus; no remove buttons when absent. */
  onRemove?: (positions: DocId[]) => void;
  /** Marks a document as the reference of its group (regroups without searching again). */
  onMakeReference?: (doc: DocId) => void;
  /** The corpus's keep marks (per set of documents) and keep rules: it reads and saves them. */
  keep: Pick<CorpusPersistence, 'keepMarks' | 'keepRules'>;
}

/** Everything shown after a scan; threshold and grouping changes regroup in the workers, without fingerprinting. */
export function ResultsWorkspace({ result, onRegroup, onRescan, busy, regrouping, onRemove, onMakeReference, keep }: ResultsWorkspaceProps) {
  const { docs } = result;
  const { marksStore, notDuplicates, separatedFrom, exportedPairs } = useResultMarks(result, keep.keepMarks);
  const { requested, regroup } = useRequestedParams(result, onRegroup);
  const shown = useMemo(() => shownGroups(result), [result]);
  const [order, setOrder] = useState<Uint32Array>(() => new Uint32Array(0));
  const { selected, setSelected, selectedSlot } = useOpenPair(docs, shown.table);
  const skippedRef = useRef<HTMLDivElement>(null);

  const counts = useMemo(() => fileCounts(result), [result]);

  const settings: ScanSettings = { simhash: result.settings, ...paramsOf(result) };
  const apply = (next: ScanSettings) => {
    if (changesFingerprints(settings, next)) onRescan(next);
    else regroup({ k: next.k, similarityThreshold: next.similarityThreshold, grouping: next.grouping, containmentThreshold: next.containmentThreshold });
  };

  const table = shown.table;

  return (
    <section className="app-results" aria-label="Results">
      {result.partial && <p className="ss-panel app-note app-note--warn">The scan was cancelled: these results cover only the files finished before the cancel.</p>}
      <div className="app-overview">
        <Summary
          filesScanned={counts.scanned}
          compared={counts.compared}
          skipped={counts.skipped}
          notRead={counts.notRead}
          exactGroups={shown.exactGroups}
          nearGroups={shown.nearGroups}
          pairs={exportedPairs}
          identicalPairs={shown.identicalPairs}
          leftOutPairs={shown.pairs - exportedPairs}
          settings={settings}
          onShowSkipped={() => {
            skippedRef.current?.scrollIntoView({ block: 'start' });
            skippedRef.current?.focus();
          }}
        />
        <DistanceHistogram
          counts={result.histogram}
          verifiedDistance={result.relation.verified.distance}
          verifiedCount={result.relation.verified.count}
          decided={decisionsOf(result.verification)}
          similarity={requested.similarityThreshold}
          threshold={requested.k}
          maxThreshold={MAX_K}
          onThresholdChange={(k) => regroup({ ...requested, k })}
        />
      </div>

      <div className="app-columns">
        <div className="app-col app-col--groups">
          <p className="app-regrouping" role="status">
            {regrouping ? `Regrouping at k = ${requested.k}, Jaccard ≥ ${requested.similarityThreshold}…` : ''}
          </p>
          <GroupList
            table={table}
            exact={shown.exact}
            identical={shown.identical}
            outside={result.relation.outside}
            chained={shown.chained}
            separated={separatedFrom}
            paths={docs.paths}
            sizes={docs.sizes}
            selectedSlot={selectedSlot}
            onOpenPair={(group, slot) => setSelected({ a: table.members[table.offsets[group]] as DocId, b: table.members[slot] as DocId })}
            onViewChange={setOrder}
            height={560}
          />
          <ChainedNote count={shown.chainedCount} />
          {result.contained && result.contained.count > 0 && (
            <ContainedList contained={result.contained} paths={docs.paths} selected={selected} onOpenPair={(a, b) => setSelected({ a, b })} />
          )}
          <ExportButtons
            relation={result.relation}
            table={table}
            paths={docs.paths}
            order={order}
            identical={shown.identical}
            fingerprints={{ docs, representative: result.representative, settings: result.settings, k: result.k }}
            leftOut={notDuplicates?.docs}
            separated={notDuplicates?.pairs}
            exportedPairs={exportedPairs}
            {...(result.contained ? { contained: result.contained } : {})}
          />
        </div>
        <div className="app-col app-col--detail">
          {selected ? (
            <OpenPair
              key={`${selected.a}-${selected.b}`}
              result={result}
              a={selected.a}
              b={selected.b}
              onClose={() => setSelected(null)}
              onRemove={onRemove}
              onOpen={(a, b) => setSelected({ a, b })}
              onMakeReference={onMakeReference}
              marksStore={marksStore}
            />
          ) : (
            <PairHint />
          )}
        </div>
      </div>

      <KeepPanel relation={result.relation} readTimes={readFileTimes} buildPlan={buildPlan} marksStore={marksStore} rulesStore={keep.keepRules} docs={docs} onSave={saveFile} />
      <SettingsPanel value={settings} onApply={apply} disabled={busy} />
      {(result.skipped.length > 0 || result.notes.length > 0) && (
        <div ref={skippedRef} tabIndex={-1} className="ss-panel app-skipped">
          <SkippedPanel skipped={result.skipped} notes={result.notes} />
        </div>
      )}
      <ResultsLine result={result} compared={counts.compared} />
    </section>
  );
}

/** Files' modification times, read in the export worker (a File's first metadata read blocks the thread it runs on). */
const readFileTimes = (files: Blob[]) => exportWorker.call(undefined, (api) => api.fileTimes(files));

/** The keep plan's file, built in the export worker (its rows and text were long tasks on the main thread). */
const buildPlan: BuildPlan = (relation, docs, decision, format, root) => exportWorker.call(undefined, (api) => api.plan(relation, docs, decision, format, root));

/** Downloads a file the keep panel made (a plan, a script), named with today's date; returns the name. */
function saveFile(file: Blob, stem: string, ext: string): string {
  const name = datedFileName(stem, new Date(), ext);
  startDownload(file, name);
  return name;
}
