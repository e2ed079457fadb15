/** The application shell: the one place where SimSift's features are put together. */
import { useCallback, useDeferredValue, useSyncExternalStore, type ReactNode } from 'react';
import { createScanStore, type ScanState } from '../scan/scan-store.ts';
import { createScanWorkers } from '../workers/scan-workers.ts';
import { createCorpusPersistence } from '../corpus/corpus-persistence.ts';
import { CorpusPanel } from '../ui/corpus/CorpusPanel.tsx';
import { useCorpusPersistence } from '../ui/corpus/use-corpus-persistence.ts';
import { DropZone } from '../ui/drop-zone/DropZone.tsx';
import { ScanProgress } from '../ui/progress/ScanProgress.tsx';
import { ThemeSwitch } from '../ui/theme/ThemeSwitch.tsx';
import { EmptyState } from '../ui/shared/EmptyState.tsx';
import { useSampleCorpus } from '../ui/shared/use-sample-corpus.ts';
import type { ScanSettings } from '../ui/shared/scan-settings.ts';
import { ResultsWorkspace } from './ResultsWorkspace.tsx';
import { canOfferSample } from './sample-offer.ts';
import type { GroupingParams } from './result-groups.ts';

// One scan session per page: the store is shared state, the workers start on the first scan.
const scanStore = createScanStore();
const scanWorkers = createScanWorkers();
// The saved corpus and its scan session: batches are committed as the scan goes, and restored
// (data-scan-state 'done') on load.
const corpusPersistence = createCorpusPersistence(scanStore, scanWorkers);
const scanSession = corpusPersistence.session;
void corpusPersistence.start();

export function App() {
  // Everything but the progress: a progress tick renders the progress panel alone (LiveScanProgress).
  const scan = useSyncExternalStore(scanStore.subscribe, scanStore.getShell);
  // Results are big: render them in an interruptible (time-sliced) pass so the page never stalls.
  const result = useDeferredValue(scan.result);
  // Fingerprint settings need a new scan; the thresholds and grouping go with it.
  const rescan = (settings: ScanSettings) => {
    const { k, kAuto } = scanStore.getSnapshot();
    scanStore.update({ k: settings.k, kAuto: kAuto && settings.k === k, similarityThreshold: settings.similarityThreshold, grouping: settings.grouping, containmentThreshold: settings.containmentThreshold });
    void scanSession.rescan(settings.simhash);
  };
  const regroup = (params: GroupingParams) => void scanSession.regroup(params);
  const firstVisit = scan.state === 'idle' && !result;
  const dropZone = <DropZone onSource={(source) => void scanSession.start(source)} />;
  return (
    <div className="app" data-scan-state={scan.state}>
      <header className="app-header">
        <h1>SimSift</h1>
        <p>Find near-duplicate texts with SimHash. Your files never leave this machine.</p>
        <ThemeSwitch />
      </header>
      <main className="app-main">
        {firstVisit ? (
          <FirstVisit>{dropZone}</FirstVisit>
        ) : (
          <div className="app-scanbar">{dropZone}</div>
        )}
        <LiveScanProgress state={scan.state} stopped={scan.stopped} />
        <CorpusPanel persistence={corpusPersistence} />
        {scan.rescanNote && (
          <p role="status" className="ss-panel app-note app-note--warn">
            {scan.rescanNote}
          </p>
        )}
        {scan.state === 'error' && (
          <p role="alert" className="app-error">
            {scan.error}
          </p>
        )}
        {result && (
          <ResultsWorkspace
            result={result}
            onRegroup={regroup}
            onRescan={rescan}
            busy={scan.state === 'scanning'}
            regrouping={scan.regrouping}
            onRemove={(positions) => void corpusPersistence.remove(positions)}
            onMakeReference={(doc) => void scanSession.regroup({ pinned: [...scanStore.getSnapshot().pinned.filter((d) => d !== doc), doc] })}
            keep={corpusPersistence}
          />
        )}
      </main>
    </div>
  );
}

/** The progress panel, the one part of the page that follows the scan's progress. */
function LiveScanProgress({ state, stopped }: { state: ScanState; stopped: string | null }) {
  const progress = useSyncExternalStore(scanStore.subscribe, () => scanStore.getSnapshot().progress);
  return <ScanProgress state={state} progress={progress} stopped={stopped} onCancel={cancelScan} />;
}

const cancelScan = () => scanSession.cancel();

/**
 * The first-visit explanation and the sample button. It alone follows the saved corpus (the sample is
 * never offered on top of one): subscribing App would re-render the results on every saved batch.
 */
function FirstVisit({ children }: { children: ReactNode }) {
  const saved = useCorpusPersistence(corpusPersistence);
  const sample = useSampleCorpus(useCallback((files: File[]) => void scanSession.start({ kind: 'file-list', files }), []));
  return (
    <EmptyState onTrySample={canOfferSample(saved) ? sample.load : undefined} sampleLoading={sample.loading} sampleError={sample.error}>
      {children}
    </EmptyState>
  );
}
