/**
 * The SimHash settings a scan is run with (feature kind and size, weighting, stop words), their
 * short text form (`word3`, `word1`, `char5`) and validation.
 */

/** Which features a document is cut into. */
export type FeatureSpec = {
  /** `word-shingle`: n consecutive words; `word`: single words (n is 1); `char-ngram`: n consecutive characters. */
  kind: 'word-shingle' | 'word' | 'char-ngram';
  n: number;
};

/** How each distinct feature is weighted before the per-bit sums. */
export type WeightScheme = 'binary' | 'tf' | 'tfidf';

/** Everything that decides a document's fingerprint. */
export type SimHashSettings = {
  features: FeatureSpec;
  weights: WeightScheme;
  /** Drop English stop words before building features. */
  stopWords: boolean;
};

/** word3 shingles, binary weights, stop words kept. */
export const DEFAULT_SETTINGS: SimHashSettings = Object.freeze({
  features: Object.freeze({ kind: 'word-shingle', n: 3 }) as FeatureSpec,
  weights: 'binary',
  stopWords: false,
}) as SimHashSettings;

/** Largest n accepted for shingles and n-grams (beyond it features are whole sentences). */
export const MAX_FEATURE_N = 16;

const WEIGHTS: readonly WeightScheme[] = ['binary', 'tf', 'tfidf'];

/**
 * Parses `word3` (3-word shingles), `word1` (single words), `char5` (5-character n-grams).
 * Returns null for anything else, including n outside 1..MAX_FEATURE_N.
 */
export function parseFeatureSpec(text: string): FeatureSpec | null {
  const m = /^(word|char)([1-9][0-9]?)$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const n = Number(m[2]);
  if (n < 1 || n > MAX_FEATURE_N) return null;
  if (m[1] === 'char') return { kind: 'char-ngram', n };
  return n === 1 ? { kind: 'word', n: 1 } : { kind: 'word-shingle', n };
}

/** The short form of a feature spec: `word3`, `word1`, `char5`. */
export function formatFeatureSpec(spec: FeatureSpec): string {
  return spec.kind === 'char-ngram' ? `char${spec.n}` : `word${spec.kind === 'word' ? 1 : spec.n}`;
}

/** Parses `binary`, `tf` or `tfidf`; null for anything else. */
export function parseWeightScheme(text: string): WeightScheme | null {
  const t = text.trim().toLowerCase();
  return (WEIGHTS as readonly string[]).includes(t) ? (t as WeightScheme) : null;
}

/** Throws a RangeError naming the problem if `settings` cannot be fingerprinted with. */
export function validateSettings(settings: SimHashSettings): void {
  const { kind, n } = settings.features;
  if (kind !== 'word-shingle' && kind !== 'word' && kind !== 'char-ngram') {
    throw new RangeError(`unknown feature kind: ${String(kind)}`);
  }
  if (!Number.isInteger(n) || n < 1 || n > MAX_FEATURE_N) {
    throw new RangeError(`feature size must be an integer in 1..${MAX_FEATURE_N}, got ${n}`);
  }
  if (kind === 'word' && n !== 1) throw new RangeError('single-word features have n = 1');
  if (!WEIGHTS.includes(settings.weights)) throw new RangeError(`unknown weights: ${String(settings.weights)}`);
}
