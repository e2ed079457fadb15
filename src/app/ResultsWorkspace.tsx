/**
 * The results workspace: a finished scan's summary, distance histogram, duplicate groups, the open
 * pair (bit diff and texts side by side), export, settings and the Skipped panel, put together.
 */
import { useMemo, useRef, useState } from 'react';
import { DocStatus } from '../core/documents/document-status.ts';
import { docBlob, docFile, isHandleDocument, type ScanResult } from '../scan/scan-result.ts';
import { Summary } from '../ui/summary/Summary.tsx';
import { DistanceHistogram } from '../ui/histogram/DistanceHistogram.tsx';
import { GroupList } from '../ui/groups/GroupList.tsx';
import { ContainedList } from '../ui/groups/ContainedList.tsx';
import { ExportButtons } from '../ui/export/ExportButtons.tsx';
import { BitDiff } from '../ui/bit-diff/BitDiff.tsx';
import { PairView } from '../ui/pair-view/PairView.tsx';
import { SettingsPanel } from '../ui/settings/SettingsPanel.tsx';
import { SkippedPanel } from '../ui/skipped/SkippedPanel.tsx';
import { changesFingerprints, MAX_K, type ScanSettings } from '../ui/shared/scan-settings.ts';
import { paramsOf, shownGroups, type GroupingParams, type ShownGroups } from './result-groups.ts';
import { usePairTexts } from './use-pair-texts.ts';
import { fileCounts } from './file-counts.ts';
import { ON_DISK_NOTE, RemoveFromCorpus } from '../ui/corpus/RemoveFromCorpus.tsx';
import { MissingContents } from '../ui/pair-view/MissingContents.tsx';
import { matchPickedFiles } from '../ui/pair-view/match-picked-files.ts';
import { NeighbourList } from '../ui/pair-view/NeighbourList.tsx';
import { neighboursOf } from '../core/groups/duplicate-relation.ts';
import { exportedPairCount } from '../core/export/csv.ts';
import { KeepPanel, type BuildPlan } from '../ui/keep/KeepPanel.tsx';
import { createKeepMarksStore, type KeepMarksStore } from '../corpus/keep-marks-store.ts';
import { useKeepMarksField } from '../ui/keep/use-keep-marks.ts';
import { flatPairs, isSeparated, separatedPartners, toggleSeparated } from '../core/keep/keep-marks.ts';
import { datedFileName, startDownload } from '../ui/export/download.ts';
import { exportWorker } from '../ui/export/export-client.ts';

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
  onRemove?: (positions: number[]) => void;
  /** Marks a document as the reference of its group (regroups without searching again). */
  onMakeReference?: (doc: number) => void;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** The two documents of the open pair, as the bit diff and the side-by-side texts. */
function OpenPair({
  result,
  a,
  b,
  jaccard,
  onClose,
  onRemove,
  onOpen,
  onMakeReference,
  marksStore,
}: {
  result: ScanResult;
  a: number;
  b: number;
  jaccard: number;
  /** The saved "not a duplicate" pairs: this pair's button toggles its own. */
  marksStore: KeepMarksStore;
  onClose: () => void;
  onRemove?: (positions: number[]) => void;
  /** Opens the pair (other, b) from the list of b's near-duplicates, which stays on show. */
  onOpen: (a: number, b: number) => void;
  onMakeReference?: (doc: number) => void;
}) {
  const neighbours = useMemo(() => neighboursOf(result.relation, b), [result.relation, b]);
  const separated = useKeepMarksField(marksStore, 'separated');
  const apart = isSeparated(separated, a, b);
  const isReference = result.relation.groups.reference[result.relation.groups.groupOf[b]] === b;
  const { docs } = result;
  // A contained pair (a inside b): the pair view marks the passage of b they share.
  const containedInB = useMemo(() => containmentOf(result, a, b), [result, a, b]);
  // Restored documents whose contents were not kept have an empty File: the person may pick them again.
  const [picked, setPicked] = useState<Map<string, File>>(() => new Map());
  const [mismatch, setMismatch] = useState<string | null>(null);
  // A document read through a directory handle is opened again by its path (a promise of its File).
  const fileOf = (d: number): Blob | Promise<Blob> | null =>
    isHandleDocument(docs, d) ? docBlob(docs, d) : docs.files[d]!.size > 0 ? docFile(docs, d) : (picked.get(docs.paths[d]!) ?? null);
  // Memoized: a restored document's Blob is sliced from its batch's record when asked for, a new Blob each time.
  const fileA = useMemo(() => fileOf(a), [docs, a, picked]);
  const fileB = useMemo(() => fileOf(b), [docs, b, picked]);
  const missing: string[] = [];
  if (!fileA) missing.push(docs.paths[a]!);
  if (!fileB) missing.push(docs.paths[b]!);
  const texts = usePairTexts(fileA, fileB, docs.paths[a]!, docs.paths[b]!, result.settings, jaccard);
  const pick = (files: File[]) => {
    const found = matchPickedFiles(missing, files);
    setPicked((old) => new Map([...old, ...found]));
    setMismatch(found.size === 0 ? `None of the picked files is named like ${missing.join(' or ')}.` : null);
  };
  return (
    <section className="app-pair" aria-label="Open pair">
      <BitDiff
        hiA={docs.hi[a]}
        loA={docs.lo[a]}
        hiB={docs.hi[b]}
        loB={docs.lo[b]}
        labelA={docs.paths[a]}
        labelB={docs.paths[b]}
        jaccard={texts.phase === 'ready' ? texts.jaccard : null}
        containment={texts.phase === 'ready' ? texts.containment : null}
        lengthA={texts.phase === 'ready' ? texts.textA.length : undefined}
        lengthB={texts.phase === 'ready' ? texts.textB.length : undefined}
      />
      {onRemove && (
        <div className="app-pair-remove" role="group" aria-label="Remove from the saved corpus">
          <RemoveFromCorpus path={docs.paths[a]} onRemove={() => onRemove([a])} noteId={`pair-${a}-${b}-on-disk`} />
          <RemoveFromCorpus path={docs.paths[b]} onRemove={() => onRemove([b])} noteId={`pair-${a}-${b}-on-disk`} />
          <small id={`pair-${a}-${b}-on-disk`} className="corpus-remove__note">
            {ON_DISK_NOTE}
          </small>
        </div>
      )}
      <div className="app-pair-mark" role="group" aria-label="This pair">
        <button type="button" className="ss-button" aria-pressed={apart} aria-describedby={`pair-${a}-${b}-apart`} onClick={() => marksStore.setSeparated(toggleSeparated(separated, a, b))}>
          Not duplicates of each other
        </button>
        <small id={`pair-${a}-${b}-apart`} className="ss-muted">
          {apart
            ? 'Marked: this pair is left out of the exported pairs and the counts (and of the plan, where one is its group’s reference); each file keeps its other matches.'
            : 'Leaves only this pair out of the exported pairs and the counts; each file keeps its other matches.'}
        </small>
      </div>
      <NeighbourList
        doc={b}
        neighbours={neighbours}
        paths={docs.paths}
        current={a}
        onOpen={(other) => onOpen(other, b)}
        onMakeReference={onMakeReference && (() => onMakeReference(b))}
        isReference={isReference}
      />
      {missing.length > 0 ? (
        <MissingContents paths={missing} onPick={pick} mismatch={mismatch} />
      ) : texts.phase === 'ready' ? (
        <PairView pathA={docs.paths[a]} pathB={docs.paths[b]} textA={texts.textA} textB={texts.textB} formatA={texts.formatA} formatB={texts.formatB} onClose={onClose} {...(containedInB !== undefined ? { containedInB } : {})} />
      ) : texts.phase === 'error' ? (
        <p role="alert" className="ss-panel app-note app-note--error">
          {texts.message}
        </p>
      ) : (
        <p role="status" className="ss-panel app-note">
          Reading the two documents…
        </p>
      )}
    </section>
  );
}

/** The relation's Jaccard of two documents (1 for identical texts), NaN when they are not a pair. */
function pairJaccard(result: ScanResult, a: number, b: number): number {
  for (const n of neighboursOf(result.relation, a)) if (n.doc === b) return n.jaccard;
  return Number.NaN;
}

/** The containment of `a` in `b` when the result lists a as contained in b, else undefined. */
function containmentOf(result: ScanResult, a: number, b: number): number | undefined {
  const c = result.contained;
  for (let i = 0; c && i < c.count; i++) if (c.inner[i] === a && c.outer[i] === b) return c.containment[i];
  return undefined;
}

/** The list row of member `b` in the group whose reference is `a` (the open pair's row), or null. */
function slotOf(table: ShownGroups['table'], a: number, b: number): number | null {
  for (let g = 0; g < table.count; g++) {
    if (table.members[table.offsets[g]] !== a) continue;
    for (let s = table.offsets[g] + 1; s < table.offsets[g + 1]; s++) if (table.members[s] === b) return s;
  }
  return null;
}

/** Everything shown after a scan; threshold and grouping changes regroup in the workers, without fingerprinting. */
export function ResultsWorkspace({ result, onRegroup, onRescan, busy, regrouping, onRemove, onMakeReference }: ResultsWorkspaceProps) {
  const { docs } = result;
  // The person's marks and "not a duplicate" lists, shared by the keep panel and the pair view.
  const marksStore = useMemo(() => createKeepMarksStore(docs.paths), [docs.paths]);
  const ignoredDocs = useKeepMarksField(marksStore, 'ignored');
  const separatedPairs = useKeepMarksField(marksStore, 'separated');
  // The "not a duplicate" documents (1 per document) and pairs: the CSV exports leave those out.
  const notDuplicates = useMemo(() => {
    if (ignoredDocs.size === 0 && separatedPairs.length === 0) return undefined;
    const flags = new Uint8Array(docs.count);
    for (const d of ignoredDocs) flags[d] = 1;
    return { docs: flags, pairs: flatPairs(separatedPairs) };
  }, [ignoredDocs, separatedPairs, docs.count]);
  // Each document's "not duplicates of each other" partners: the group list tags those rows.
  const separatedFrom = useMemo(() => separatedPartners(separatedPairs), [separatedPairs]);
  // The rows Export CSV writes after those marks: the summary and the Export caption say this number.
  const exportedPairs = useMemo(
    () => (notDuplicates ? exportedPairCount(result.relation, notDuplicates.docs, notDuplicates.pairs) : result.relation.pairCount),
    [result.relation, notDuplicates],
  );
  // What the user asked for last: the controls follow it at once, the groups when the regroup lands.
  const [requested, setRequested] = useState<GroupingParams>(() => paramsOf(result));
  const [requestedFor, setRequestedFor] = useState(result);
  if (requestedFor !== result) {
    setRequestedFor(result);
    setRequested(paramsOf(result));
  }
  const shown = useMemo(() => shownGroups(result), [result]);
  const [order, setOrder] = useState<Uint32Array>(() => new Uint32Array(0));
  // The open pair, as two documents: from a group row (reference, member) or from a document's list of
  // near-duplicates. It stays open through regroups and saves (the documents are the same); a scan of
  // other documents closes it.
  const [selected, setSelected] = useState<{ a: number; b: number } | null>(null);
  const [selectionDocs, setSelectionDocs] = useState(docs);
  if (selectionDocs !== docs && selectionDocs.paths !== docs.paths) {
    setSelectionDocs(docs);
    setSelected(null);
  }
  const selectedSlot = useMemo(() => (selected === null ? null : slotOf(shown.table, selected.a, selected.b)), [shown.table, selected]);
  const skippedRef = useRef<HTMLDivElement>(null);

  const counts = useMemo(() => fileCounts(result), [result]);
  const stats = useMemo(() => {
    let distinct = 0;
    for (let i = 0; i < docs.count; i++) if (docs.status[i] === DocStatus.ok && result.representative[i] === i) distinct++;
    return { ok: counts.compared, distinct };
  }, [docs, result.representative, counts]);

  const settings: ScanSettings = { simhash: result.settings, ...paramsOf(result) };
  const regroup = (next: GroupingParams) => {
    setRequested(next);
    onRegroup(next);
  };
  const apply = (next: ScanSettings) => {
    if (changesFingerprints(settings, next)) onRescan(next);
    else regroup({ k: next.k, similarityThreshold: next.similarityThreshold, grouping: next.grouping, containmentThreshold: next.containmentThreshold });
  };

  const table = shown.table;
  const pair = selected === null ? null : { ...selected, jaccard: pairJaccard(result, selected.a, selected.b) };

  return (
    <section className="app-results" aria-label="Results">
      {result.partial && (
        <p className="ss-panel app-note app-note--warn">
          The scan was cancelled: these results cover only the files finished before the cancel.
        </p>
      )}
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
            onOpenPair={(group, slot) => setSelected({ a: table.members[table.offsets[group]], b: table.members[slot] })}
            onViewChange={setOrder}
            height={560}
          />
          {shown.chainedCount > 0 && (
            <p className="ss-panel app-note app-note--warn" role="note">
              {shown.chainedCount.toLocaleString('en')} {shown.chainedCount === 1 ? 'group chains' : 'groups chain'} (tagged
              “chains”): its members are linked through others, but not all of them are near-duplicates of each other.
              Grouping around a reference (in Settings) never chains.
            </p>
          )}
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
          {pair ? (
            <OpenPair
              key={`${pair.a}-${pair.b}`}
              result={result}
              a={pair.a}
              b={pair.b}
              jaccard={pair.jaccard}
              onClose={() => setSelected(null)}
              onRemove={onRemove}
              onOpen={(a, b) => setSelected({ a, b })}
              onMakeReference={onMakeReference}
              marksStore={marksStore}
            />
          ) : (
            <div className="ss-panel app-pair-hint">
              <h2 className="ss-panel-title">Compare a pair</h2>
              <p className="ss-muted">
                Select a document in a group (click it, or use the arrow keys and Enter in the list) to see its
                fingerprint next to the group’s reference, bit by bit, and the two texts side by side with the
                differences marked.
              </p>
            </div>
          )}
        </div>
      </div>

      <KeepPanel
        relation={result.relation}
        readTimes={readFileTimes}
        buildPlan={buildPlan}
        marksStore={marksStore}
        docs={docs}
        onSave={(file, stem, ext) => {
          const name = datedFileName(stem, new Date(), ext);
          startDownload(file, name);
          return name;
        }}
      />
      <SettingsPanel value={settings} onApply={apply} disabled={busy} />
      {(result.skipped.length > 0 || result.notes.length > 0) && (
        <div ref={skippedRef} tabIndex={-1} className="ss-panel app-skipped">
          <SkippedPanel skipped={result.skipped} notes={result.notes} />
        </div>
      )}
      <div className="app-results-line">
        <p>
          {stats.ok.toLocaleString('en')} documents compared ({stats.distinct.toLocaleString('en')} distinct texts)
        </p>
        <p className="results__timings ss-muted">
          {/* A restore, or a second scan whose files were all unchanged, read nothing: said so, not "Reading 0.00 s". */}
          {result.timings.readingMs === 0 && result.timings.fingerprintingMs === 0 ? (
            'No file read (the saved corpus stood for every file)'
          ) : (
            <>
              Reading {seconds(result.timings.readingMs)} (fingerprinting alongside) · fingerprinting the rest {seconds(result.timings.fingerprintingMs)}
            </>
          )}{' '}
          · indexing {seconds(result.timings.indexingMs)} · grouping {seconds(result.timings.groupingMs)} · total {seconds(result.timings.totalMs)}
        </p>
      </div>
    </section>
  );
}

/** Files' modification times, read in the export worker (a File's first metadata read blocks the thread it runs on). */
const readFileTimes = (files: Blob[]) => exportWorker.call(undefined, (api) => api.fileTimes(files));

/** The keep plan's file, built in the export worker (its rows and text were long tasks on the main thread). */
const buildPlan: BuildPlan = (relation, docs, decision, format, root) => exportWorker.call(undefined, (api) => api.plan(relation, docs, decision, format, root));
