/** The settings a scan is run with, as the settings panel edits them, with defaults and validation. */
import {
  DEFAULT_SETTINGS,
  MAX_FEATURE_N,
  formatFeatureSpec,
  type FeatureSpec,
  type SimHashSettings,
  type WeightScheme,
} from '../../core/simhash/settings.ts';
import { DEFAULT_K, DEFAULT_SIMILARITY_THRESHOLD } from '../../core/quality/defaults.ts';
import type { Grouping } from '../../scan/scan-result.ts';
import { CONTAINMENT_DEFAULT_SETTING } from '../../core/groups/contained-pairs.ts';

/** Fingerprint settings plus the thresholds that decide which pairs are near-duplicates. */
export interface ScanSettings {
  simhash: SimHashSettings;
  /** Largest Hamming distance between near-duplicate fingerprints. */
  k: number;
  /** Smallest exact Jaccard (0..1) of two feature sets for a candidate pair to count as near-duplicates. */
  similarityThreshold: number;
  /** Reference-centred groups never chain; components may (A~B~C with A far from C). */
  grouping: Grouping;
  /** "A is contained in B" when |A ∩ B| / |A| reaches this (0: contained documents are not searched). */
  containmentThreshold: number;
}

/** Largest k the panel offers (the permuted tables need more blocks than k; beyond 16 they stop paying off). */
export const MAX_K = 16;

/** The core's defaults: word3 shingles, binary weights, k and similarity threshold from the quality benchmark. */
export const DEFAULT_SCAN_SETTINGS: ScanSettings = {
  simhash: DEFAULT_SETTINGS,
  k: DEFAULT_K,
  similarityThreshold: DEFAULT_SIMILARITY_THRESHOLD,
  grouping: 'reference',
  containmentThreshold: CONTAINMENT_DEFAULT_SETTING,
};

/** Default n for each feature kind, used when the user switches kinds. */
export const DEFAULT_N: Record<FeatureSpec['kind'], number> = { 'word-shingle': 3, word: 1, 'char-ngram': 5 };

/** What the form holds while being edited (numbers as typed, so half-typed values are allowed). */
export interface SettingsDraft {
  kind: FeatureSpec['kind'];
  n: string;
  weights: WeightScheme;
  stopWords: boolean;
  k: string;
  similarityThreshold: string;
  grouping: Grouping;
  containmentThreshold: string;
}

/** The form's starting values for given settings. */
export function toDraft(s: ScanSettings): SettingsDraft {
  return {
    kind: s.simhash.features.kind,
    n: String(s.simhash.features.n),
    weights: s.simhash.weights,
    stopWords: s.simhash.stopWords,
    k: String(s.k),
    similarityThreshold: String(s.similarityThreshold),
    grouping: s.grouping,
    containmentThreshold: String(s.containmentThreshold),
  };
}

export type DraftResult =
  | { ok: true; settings: ScanSettings }
  | { ok: false; errors: Partial<Record<'n' | 'k' | 'similarityThreshold' | 'containmentThreshold', string>> };

function intIn(text: string, lo: number, hi: number): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const v = Number(t);
  return v >= lo && v <= hi ? v : null;
}

/**
 * A typed k: the number when it is a whole number from 0 to `max`, else why it is refused. Never
 * clamped: a typed 64 is an error to show, not a 16 to apply.
 */
export function parseK(text: string, max = MAX_K): { ok: true; k: number } | { ok: false; error: string } {
  const k = intIn(text, 0, max);
  if (k !== null) return { ok: true, k };
  const typed = text.trim();
  return {
    ok: false,
    error: /^\d+$/.test(typed)
      ? `k = ${typed} is out of range: enter a whole number from 0 to ${max}.`
      : `k must be a whole number from 0 to ${max}${typed === '' ? '' : `, not “${typed}”`}.`,
  };
}

/** Validates a draft: settings when every field is valid, else one message per bad field. */
export function fromDraft(d: SettingsDraft): DraftResult {
  const errors: Partial<Record<'n' | 'k' | 'similarityThreshold' | 'containmentThreshold', string>> = {};
  const n = d.kind === 'word' ? 1 : intIn(d.n, d.kind === 'char-ngram' ? 1 : 2, MAX_FEATURE_N);
  if (n === null) {
    errors.n = `Enter a whole number from ${d.kind === 'char-ngram' ? 1 : 2} to ${MAX_FEATURE_N}.`;
  }
  const parsedK = parseK(d.k);
  const k = parsedK.ok ? parsedK.k : null;
  if (!parsedK.ok) errors.k = parsedK.error;
  const j = Number(d.similarityThreshold.trim());
  const jOk = d.similarityThreshold.trim() !== '' && Number.isFinite(j) && j >= 0 && j <= 1;
  if (!jOk) errors.similarityThreshold = 'Enter a number from 0 to 1.';
  const c = Number(d.containmentThreshold.trim());
  const cOk = d.containmentThreshold.trim() !== '' && Number.isFinite(c) && c >= 0 && c <= 1;
  if (!cOk) errors.containmentThreshold = 'Enter a number from 0 to 1 (0 turns contained documents off).';
  if (n === null || k === null || !jOk || !cOk) return { ok: false, errors };
  return {
    ok: true,
    settings: {
      simhash: { features: { kind: d.kind, n }, weights: d.weights, stopWords: d.stopWords },
      k,
      similarityThreshold: j,
      grouping: d.grouping,
      containmentThreshold: c,
    },
  };
}

/**
 * A key that changes exactly when the settings' values change (not when the same values arrive in a
 * new object): the settings panel resets what the person typed only when the settings in effect change.
 */
export function settingsKey(s: ScanSettings): string {
  const f = s.simhash.features;
  return [f.kind, f.n, s.simhash.weights, s.simhash.stopWords, s.k, s.similarityThreshold, s.grouping, s.containmentThreshold].join('|');
}

/** One line describing settings, e.g. `word3 · binary · k = 10 · Jaccard ≥ 0.8`. */
export function describeSettings(s: ScanSettings): string {
  const parts = [formatFeatureSpec(s.simhash.features), s.simhash.weights];
  if (s.simhash.stopWords) parts.push('stop words removed');
  parts.push(`k = ${s.k}`);
  parts.push(`Jaccard ≥ ${s.similarityThreshold}`);
  if (s.grouping === 'components') parts.push('components');
  // Said only when on (off is the default), so the usual line stays short.
  if (s.containmentThreshold > 0) parts.push(`contained ≥ ${s.containmentThreshold}`);
  return parts.join(' · ');
}

/**
 * True when applying `b` over `a` means fingerprinting again: other fingerprints. Containment turned on
 * over a scan that ran without it regroups: its passages are sampled from the feature sets (kept, or
 * the contents read again) in the workers (scan/contained-search.ts).
 */
export function changesFingerprints(a: ScanSettings, b: ScanSettings): boolean {
  return (
    a.simhash.features.kind !== b.simhash.features.kind ||
    a.simhash.features.n !== b.simhash.features.n ||
    a.simhash.weights !== b.simhash.weights ||
    a.simhash.stopWords !== b.simhash.stopWords
  );
}
