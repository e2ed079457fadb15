/** The application shell: the one place where SimSift's features are put together. */
import { useDeferredValue, useSyncExternalStore } from 'react';
import { createScanStore } from '../scan/scan-store.ts';
import { createScanSession } from '../scan/scan-session.ts';
import { createScanWorkers } from '../workers/scan-workers.ts';
import { createCorpusPersistence } from '../scan/corpus-persistence.ts';
import { CorpusPanel } from '../ui/corpus/CorpusPanel.tsx';
import { DropZone } from '../ui/drop-zone/DropZone.tsx';
import { ScanProgress } from '../ui/progress/ScanProgress.tsx';
import { SkippedPanel } from '../ui/skipped/SkippedPanel.tsx';
import { ResultsView } from '../ui/results/ResultsView.tsx';

// One scan session per page: the store is shared state, the workers start on the first scan.
const scanStore = createScanStore();
const scanWorkers = createScanWorkers();
// The saved corpus: batches are committed as the scan goes, and restored (data-scan-state 'done') on load.
const corpusPersistence = createCorpusPersistence(scanStore, scanWorkers);
const scanSession = createScanSession(scanStore, scanWorkers, corpusPersistence.hooks);
corpusPersistence.attach(scanSession);
void corpusPersistence.start();

export function App() {
  const scan = useSyncExternalStore(scanStore.subscribe, scanStore.getSnapshot);
  // Results are big: render them in an interruptible (time-sliced) pass so the page never stalls.
  const result = useDeferredValue(scan.result);
  return (
    <div className="app" data-scan-state={scan.state}>
      <header className="app-header">
        <h1>SimSift</h1>
        <p>Find near-duplicate texts with SimHash. Your files never leave this machine.</p>
      </header>
      <main>
        <DropZone onSource={(source) => void scanSession.start(source)} />
        <ScanProgress state={scan.state} progress={scan.progress} onCancel={() => scanSession.cancel()} />
        <CorpusPanel persistence={corpusPersistence} />
        {scan.state === 'error' && (
          <p role="alert" className="app-error">
            {scan.error}
          </p>
        )}
        {result && <ResultsView result={result} />}
        {result && <SkippedPanel skipped={result.skipped} />}
      </main>
    </div>
  );
}
