/** The scan summary: what was scanned, what was skipped, what was found, and with which settings. */
import type { ReactNode } from 'react';
import { describeSettings, type ScanSettings } from '../shared/scan-settings.ts';
import '../shared/theme.css';

export interface SummaryProps {
  /** Files the scan dealt with: `compared + skipped`. */
  filesScanned: number;
  /** Files read and fingerprinted (or identical to one that was) and searched for duplicates. */
  compared: number;
  /** Files not used (binary, too short, empty, unreadable, hidden): the Skipped panel's rows. */
  skipped: number;
  /** Files never read because the scan was cancelled (0 or absent: none). */
  notRead?: number;
  /** Groups whose texts are all identical. */
  exactGroups: number;
  /** Groups of near-duplicates (at least one member differs from the reference). */
  nearGroups: number;
  /** Document pairs in the near-duplicate relation (identical texts included): the rows of Export CSV. */
  pairs: number;
  /** Of the relation's pairs, pairs of identical texts. */
  identicalPairs: number;
  /** Pairs left out of Export CSV because the person marked them (or a document of them) not a duplicate. */
  leftOutPairs?: number;
  /** The settings the scan used. */
  settings: ScanSettings;
  /** Opens the Skipped panel; the skipped count is a button when given. */
  onShowSkipped?: () => void;
}

function Stat({ label, value, children }: { label: string; value: number; children?: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children ?? value.toLocaleString()}</dd>
    </div>
  );
}

const files = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'file' : 'files'}`;

/** The sentence under the figures that says how they add up. */
export function filesSum(scanned: number, compared: number, skipped: number, notRead = 0): string {
  const sum = `${files(scanned)} scanned = ${compared.toLocaleString()} compared + ${skipped.toLocaleString()} skipped.`;
  return notRead > 0 ? `${sum} ${files(notRead)} not read (the scan was cancelled first).` : sum;
}

/** Counts from the last scan as a row of figures, plus the settings used. */
export function Summary({
  filesScanned,
  compared,
  skipped,
  notRead = 0,
  exactGroups,
  nearGroups,
  pairs,
  identicalPairs,
  leftOutPairs = 0,
  settings,
  onShowSkipped,
}: SummaryProps) {
  return (
    <section className="ss-panel" aria-label="Summary">
      <h2 className="ss-panel-title">Summary</h2>
      <dl className="ss-summary-stats">
        <Stat label="Files scanned" value={filesScanned} />
        <Stat label="Compared" value={compared} />
        <Stat label="Skipped" value={skipped}>
          {onShowSkipped && skipped > 0 ? (
            <button
              type="button"
              className="ss-link-button"
              onClick={onShowSkipped}
              aria-label={`Skipped: ${skipped.toLocaleString()} files, show the Skipped panel`}
            >
              {skipped.toLocaleString()}
            </button>
          ) : undefined}
        </Stat>
        <Stat label="Exact-duplicate groups" value={exactGroups} />
        <Stat label="Near-duplicate groups" value={nearGroups} />
        <Stat label="Duplicate pairs" value={pairs}>
          <span title="Every pair of documents that are identical or near-identical: one row each in Export CSV">
            {pairs.toLocaleString()}
          </span>
          <span className="ss-muted ss-summary-sub">
            {' '}
            ({identicalPairs.toLocaleString()} identical{leftOutPairs > 0 && `; ${leftOutPairs.toLocaleString()} more marked not a duplicate, left out`})
          </span>
        </Stat>
      </dl>
      <p className="ss-summary-sum">{filesSum(filesScanned, compared, skipped, notRead)}</p>
      <p className="ss-summary-settings">
        Settings: <code>{describeSettings(settings)}</code>
      </p>
    </section>
  );
}
