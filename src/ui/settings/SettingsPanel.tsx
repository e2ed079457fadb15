/** The settings panel: features, weights, k and the Jaccard cut, with short explanations. */
import { useId, useState, type FormEvent } from 'react';
import { similarityEstimate } from '../../core/simhash/fingerprint64.ts';
import type { FeatureSpec, WeightScheme } from '../../core/simhash/settings.ts';
import {
  DEFAULT_N,
  DEFAULT_SCAN_SETTINGS,
  MAX_K,
  changesFingerprints,
  fromDraft,
  settingsKey,
  toDraft,
  type ScanSettings,
  type SettingsDraft,
} from '../shared/scan-settings.ts';
import '../shared/theme.css';

export interface SettingsPanelProps {
  /** The settings currently in effect. */
  value: ScanSettings;
  /** Called with valid settings when the user applies the form. */
  onApply: (settings: ScanSettings) => void;
  /** Disables applying (e.g. during a scan). */
  disabled?: boolean;
}

const FEATURES: { kind: FeatureSpec['kind']; label: string; help: string }[] = [
  {
    kind: 'word-shingle',
    label: 'Word shingles',
    help: 'Runs of n consecutive words. Best for prose: sensitive to word order, robust to small edits.',
  },
  { kind: 'word', label: 'Single words', help: 'Each word on its own. Ignores order; finds texts about the same thing.' },
  {
    kind: 'char-ngram',
    label: 'Character n-grams',
    help: 'Runs of n characters. Good for short texts, typos and languages written without spaces.',
  },
];

const WEIGHTS: { value: WeightScheme; label: string; help: string }[] = [
  { value: 'binary', label: 'Binary', help: 'Every distinct feature counts once. The robust default.' },
  { value: 'tf', label: 'Term frequency', help: 'Features that repeat in a document count more.' },
  { value: 'tfidf', label: 'TF-IDF', help: 'Features common across the whole corpus count less.' },
];

/** A number field for a threshold from 0 to 1, as typed. */
function FractionField({ label, value, invalid, describedBy, onChange }: { label: string; value: string; invalid: boolean; describedBy?: string; onChange: (value: string) => void }) {
  return (
    <label className="ss-field">
      {label}
      <input
        className="ss-input"
        type="number"
        min={0}
        max={1}
        step={0.05}
        value={value}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </label>
  );
}

/** What each part of the form is given: the draft, its errors, and how to change it. */
interface FieldsetProps {
  id: string;
  draft: SettingsDraft;
  errors: Partial<Record<keyof SettingsDraft, string>>;
  set: (patch: Partial<SettingsDraft>) => void;
}

/** A form that edits ScanSettings and emits them on "Apply". */
export function SettingsPanel({ value, onApply, disabled = false }: SettingsPanelProps) {
  const id = useId();
  const [draft, setDraft] = useState<SettingsDraft>(() => toDraft(value));
  // What the person typed is replaced only when the settings in effect change (an apply, the histogram's
  // k), never because the same settings arrived in a new object: that reset typed "64" to 16 unseen.
  const key = settingsKey(value);
  const [draftFor, setDraftFor] = useState(key);
  if (draftFor !== key) {
    setDraftFor(key);
    setDraft(toDraft(value));
  }
  const parsed = fromDraft(draft);
  const errors = parsed.ok ? {} : parsed.errors;
  const set = (patch: Partial<SettingsDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const refingerprint = parsed.ok && changesFingerprints(value, parsed.settings);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parsed.ok && !disabled) onApply(parsed.settings);
  };

  return (
    <form className="ss-panel ss-settings" aria-label="Settings" onSubmit={submit} noValidate>
      <h2 className="ss-panel-title">Settings</h2>
      <div className="ss-settings-body">
        <FeaturesFieldset id={id} draft={draft} errors={errors} set={set} />
        <WeightsFieldset id={id} draft={draft} errors={errors} set={set} />
        <MatchingFieldset id={id} draft={draft} errors={errors} set={set} kept={value.k} />
      </div>
      {refingerprint && (
        <p className="ss-settings-help">Changing features or weights fingerprints every document again.</p>
      )}
      <div className="ss-settings-actions">
        <button type="submit" className="ss-button ss-button-primary" disabled={!parsed.ok || disabled}>
          Apply settings
        </button>
        <button type="button" className="ss-button" onClick={() => setDraft(toDraft(DEFAULT_SCAN_SETTINGS))}>
          Reset to defaults
        </button>
      </div>
    </form>
  );
}

/** The features: their kind, n, and stop words. */
function FeaturesFieldset({ id, draft, errors, set }: FieldsetProps) {
  return (
    <fieldset>
      <legend>Features</legend>
      {FEATURES.map((f) => (
        <label key={f.kind} className="ss-settings-choice">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={draft.kind === f.kind}
            onChange={() => set({ kind: f.kind, n: String(DEFAULT_N[f.kind]) })}
          />
          <span>{f.label}</span>
          <small>{f.help}</small>
        </label>
      ))}
      {draft.kind !== 'word' && (
        <div className="ss-settings-row">
          <label className="ss-field">
            {draft.kind === 'char-ngram' ? 'Characters per n-gram (n)' : 'Words per shingle (n)'}
            <input
              className="ss-input"
              type="number"
              min={draft.kind === 'char-ngram' ? 1 : 2}
              max={16}
              value={draft.n}
              aria-invalid={errors.n ? true : undefined}
              aria-describedby={errors.n ? `${id}-n-error` : undefined}
              onChange={(e) => set({ n: e.currentTarget.value })}
            />
          </label>
          {errors.n && (
            <span id={`${id}-n-error`} className="ss-settings-help" role="alert">
              {errors.n}
            </span>
          )}
        </div>
      )}
      <label className="ss-settings-choice">
        <input type="checkbox" checked={draft.stopWords} onChange={(e) => set({ stopWords: e.currentTarget.checked })} />
        <span>Remove English stop words</span>
        <small>Drops words such as “the” and “of” before building features.</small>
      </label>
    </fieldset>
  );
}

/** How features are weighted. */
function WeightsFieldset({ id, draft, set }: FieldsetProps) {
  return (
    <fieldset>
      <legend>Weights</legend>
      {WEIGHTS.map((w) => (
        <label key={w.value} className="ss-settings-choice">
          <input
            type="radio"
            name={`${id}-weights`}
            checked={draft.weights === w.value}
            onChange={() => set({ weights: w.value })}
          />
          <span>{w.label}</span>
          <small>{w.help}</small>
        </label>
      ))}
    </fieldset>
  );
}

/** k, the similarity and containment thresholds, and the grouping; `kept` is the k in effect. */
function MatchingFieldset({ id, draft, errors, set, kept }: FieldsetProps & { kept: number }) {
  return (
    <fieldset>
      <legend>Matching</legend>
      <div className="ss-settings-row">
        <label className="ss-field">
          Threshold k (bits)
          <input
            className="ss-input"
            type="number"
            min={0}
            max={MAX_K}
            value={draft.k}
            aria-invalid={errors.k ? true : undefined}
            aria-describedby={errors.k ? `${id}-k-error` : undefined}
            onChange={(e) => set({ k: e.currentTarget.value })}
          />
        </label>
        <FractionField label="Similarity threshold" value={draft.similarityThreshold} invalid={!!errors.similarityThreshold} onChange={(v) => set({ similarityThreshold: v })} />
        <FractionField
          label="Contained documents (0: off)"
          value={draft.containmentThreshold}
          invalid={!!errors.containmentThreshold}
          describedBy={`${id}-containment-help`}
          onChange={(v) => set({ containmentThreshold: v })}
        />
      </div>
      <div className="ss-settings-row" role="radiogroup" aria-label="Grouping">
        <label className="ss-settings-choice">
          <input
            type="radio"
            name={`${id}-grouping`}
            checked={draft.grouping === 'reference'}
            onChange={() => set({ grouping: 'reference' })}
          />
          <span>Around a reference</span>
          <small>Every member is a near-duplicate of its group’s reference document.</small>
        </label>
        <label className="ss-settings-choice">
          <input
            type="radio"
            name={`${id}-grouping`}
            checked={draft.grouping === 'components'}
            onChange={() => set({ grouping: 'components' })}
          />
          <span>Connected components</span>
          <small>Links chains of near-duplicates (A~B, B~C) into one group, even when A and C differ more.</small>
        </label>
      </div>
      <p className="ss-settings-help">
        Fingerprints that differ in at most k of 64 bits are candidates
        {errors.k ? '.' : ` (estimated similarity ${similarityEstimate(Number(draft.k)).toFixed(3)} or more).`} Each candidate
        is then checked exactly: it counts as a near-duplicate when the Jaccard similarity of the two feature sets
        (shared features ÷ all features) reaches the similarity threshold. A larger k finds looser rewrites but
        checks more candidates.
      </p>
      {errors.k && (
        <p id={`${id}-k-error`} className="ss-settings-help ss-settings-error" role="alert">
          {errors.k} Nothing changes until it is valid: k stays {kept}.
        </p>
      )}
      {errors.similarityThreshold && (
        <p className="ss-settings-help ss-settings-error" role="alert">
          {errors.similarityThreshold}
        </p>
      )}
      <p id={`${id}-containment-help`} className="ss-settings-help">
        A document is listed as contained in another (an excerpt in its whole) when this share of its features lies in
        the other’s and the two are not near-duplicates. Changing it regroups without fingerprinting again.
      </p>
      {errors.containmentThreshold && (
        <p className="ss-settings-help ss-settings-error" role="alert">
          {errors.containmentThreshold}
        </p>
      )}
    </fieldset>
  );
}
