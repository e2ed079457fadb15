/**
 * "Open a CLI result": a `simsift scan DIR --bundle FILE` file read and checked here (nothing stored
 * changes until its folder is chosen and, when a corpus is saved, the person agrees to replace it),
 * then opened beside its folder by the saved corpus (corpus/open-bundle.ts).
 */
import { useState } from 'react';
import type { CorpusPersistence } from '../../corpus/corpus-persistence.ts';
import { BUNDLE_EXTENSION, BundleProblem, decodeScanBundle, foldersToChoose, type ScanBundle } from '../../core/export/scan-bundle.ts';
import { formatFeatureSpec } from '../../core/simhash/settings.ts';
import type { ScanSource } from '../../scan/scan-session.ts';
import { FolderInput } from '../shared/FolderInput.tsx';

/** One line saying what the bundle holds and how it was made. */
function describeBundle(b: ScanBundle): string {
  const n = (x: number, one: string) => `${x.toLocaleString('en')} ${one}${x === 1 ? '' : 's'}`;
  const when = new Date(b.scannedAt).toISOString().slice(0, 16).replace('T', ' ');
  return (
    `A scan of ${b.root} by SimSift ${b.simsift} on ${when} UTC: ${n(b.documents.count, 'document')}, ${n(b.pairs.count, 'verified pair')} of different texts; ` +
    `${formatFeatureSpec(b.settings.features)}, ${b.settings.weights}${b.settings.stopWords ? ', stop words' : ''}, k ${b.k}${b.kAuto ? ' (the default)' : ''}, ` +
    `Jaccard ≥ ${b.threshold}, ${b.grouping} grouping.`
  );
}

/** Which folder to choose, in words: the scanned one, or the one folder it held. */
function chooseWhich(b: ScanBundle): string {
  const [scanned, held] = foldersToChoose(b);
  return held === undefined ? `“${scanned}”` : `“${held}” (the one folder the scanned “${scanned}” holds) or “${scanned}” itself`;
}

export interface OpenCliResultProps {
  persistence: CorpusPersistence;
}

/** The file input for a bundle, then the folder beside it; problems are said and change nothing. */
export function OpenCliResult({ persistence }: OpenCliResultProps) {
  const [opened, setOpened] = useState<{ file: string; bundle: ScanBundle } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const read = async (file: File) => {
    setProblem(null);
    setDone(null);
    setOpened(null);
    try {
      setOpened({ file: file.name, bundle: await decodeScanBundle(new Uint8Array(await file.arrayBuffer())) });
    } catch (error) {
      const why = error instanceof BundleProblem ? error.message : `It could not be read (${error instanceof Error ? error.message : String(error)}).`;
      setProblem(`“${file.name}” cannot be opened as a CLI result. ${why} Nothing was changed.`);
    }
  };
  const open = async (source: ScanSource) => {
    if (!opened) return;
    setBusy(true);
    setProblem(null);
    const outcome = await persistence.openBundle(opened.bundle, source);
    setBusy(false);
    if (outcome.kind === 'refused') return setProblem(outcome.message);
    setOpened(null);
    setDone(outcome.kind === 'opened' ? `Opened ${opened.file} beside its folder.` : `The saved corpus was kept; ${opened.file} was not opened.`);
  };
  return (
    <div role="group" aria-label="Open a CLI result" className="corpus-panel__open">
      <div className="corpus-panel__actions">
        <label className="corpus-panel__file" title={`A file written by simsift scan DIR --bundle FILE${BUNDLE_EXTENSION}`}>
          Open a CLI result
          <input
            className="visually-hidden"
            type="file"
            accept={BUNDLE_EXTENSION}
            disabled={busy}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (file) void read(file);
            }}
          />
        </label>
      </div>
      {opened && (
        <div>
          <p>{describeBundle(opened.bundle)}</p>
          <p>
            Choose the folder it was made from on this machine, {chooseWhich(opened.bundle)}: the texts are read from it, never uploaded. Files whose
            size and modification time are the scan’s are not read again; the others are read and named.
          </p>
          <div className="corpus-panel__actions">
            {busy ? <span role="status">Opening…</span> : <FolderInput label="Choose the folder" onSource={(source) => void open(source)} />}
            <button type="button" disabled={busy} onClick={() => setOpened(null)}>
              Forget this CLI result
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p role="alert" className="corpus-panel__error">
          {problem}
        </p>
      )}
      {done && <p role="status">{done}</p>}
    </div>
  );
}
