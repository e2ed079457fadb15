/**
 * Exact verification of candidate pairs: every pair the fingerprint index proposes is confirmed (or
 * rejected) by the exact Jaccard similarity of the two documents' feature sets.
 */
import { DEFAULT_SIMILARITY_THRESHOLD } from '../quality/defaults.ts';
import type { ScoredPairs } from './group-table.ts';
import { jaccardSorted } from './jaccard.ts';

/** Candidate pairs as parallel typed arrays (the index's `PairList` fits). */
export interface PairArrays {
  a: Uint32Array;
  b: Uint32Array;
  count: number;
}

/** Returns a document's feature set: sorted, duplicate-free hashes. Called at most once per cached document. */
export type FeatureSetSource = (doc: number) => Uint32Array;

/** Per-pair verdicts, parallel to the input pairs. */
export interface VerifiedPairs {
  /** Exact Jaccard of each pair's feature sets (float32: for display; `keep` holds the exact verdict). */
  jaccard: Float32Array;
  /** 1 when the pair's Jaccard (computed in float64) is >= the threshold. */
  keep: Uint8Array;
  /** Number of pairs kept. */
  kept: number;
}

export interface VerifyOptions {
  /**
   * How many feature sets to keep in memory at once (default 4096). Pairs are visited grouped by their
   * first document, so each first document's set is built once; the cache serves the second documents.
   */
  cacheSize?: number;
}

/**
 * Computes the exact Jaccard of every candidate pair and keeps those >= `threshold`. `getFeatureSet`
 * may re-tokenize the document's text (in a worker), so only documents that appear in a pair are
 * ever touched, and each at most a few times.
 */
export function verifyPairs(
  pairs: PairArrays,
  getFeatureSet: FeatureSetSource,
  threshold: number = DEFAULT_SIMILARITY_THRESHOLD,
  options: VerifyOptions = {},
): VerifiedPairs {
  const n = pairs.count;
  const jaccard = new Float32Array(n);
  const keep = new Uint8Array(n);
  let kept = 0;
  if (n === 0) return { jaccard, keep, kept };

  const cache = new FeatureSetCache(getFeatureSet, options.cacheSize ?? 4096);
  const order = orderByFirst(pairs);
  for (let r = 0; r < n; r++) {
    const p = order[r]!;
    const setA = cache.get(pairs.a[p]!);
    const setB = cache.get(pairs.b[p]!);
    const j = jaccardSorted(setA, setB);
    jaccard[p] = j;
    if (j >= threshold) {
      keep[p] = 1;
      kept++;
    }
  }
  return { jaccard, keep, kept };
}

/**
 * The kept pairs as ScoredPairs (input order preserved), ready for grouping: for callers that verify
 * chunks of candidates themselves (e.g. spread over workers) instead of calling findNearDuplicates.
 */
export function keptPairs(pairs: PairArrays & { distance: Uint8Array }, verdicts: VerifiedPairs): ScoredPairs {
  const out: ScoredPairs = {
    a: new Uint32Array(verdicts.kept),
    b: new Uint32Array(verdicts.kept),
    distance: new Uint8Array(verdicts.kept),
    jaccard: new Float32Array(verdicts.kept),
    count: verdicts.kept,
  };
  for (let i = 0, w = 0; i < pairs.count; i++) {
    if (!verdicts.keep[i]) continue;
    out.a[w] = pairs.a[i];
    out.b[w] = pairs.b[i];
    out.distance[w] = pairs.distance[i];
    out.jaccard[w++] = verdicts.jaccard[i];
  }
  return out;
}

/** Pair indexes sorted by first document (counting sort), so a document's set is reused while hot. */
function orderByFirst(pairs: PairArrays): Uint32Array {
  const n = pairs.count;
  let maxDoc = 0;
  for (let i = 0; i < n; i++) if (pairs.a[i]! > maxDoc) maxDoc = pairs.a[i]!;
  const starts = new Uint32Array(maxDoc + 2);
  for (let i = 0; i < n; i++) starts[pairs.a[i] + 1]++;
  for (let d = 1; d < starts.length; d++) starts[d] += starts[d - 1];
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[starts[pairs.a[i]]++] = i;
  return order;
}

/** A bounded cache of feature sets (insertion-ordered Map: evicts the oldest entry). */
export class FeatureSetCache {
  private readonly sets = new Map<number, Uint32Array>();

  constructor(
    private readonly source: FeatureSetSource,
    private readonly capacity: number,
  ) {}

  /** The feature set of `doc`, built on first use. */
  get(doc: number): Uint32Array {
    let set = this.sets.get(doc);
    if (set === undefined) {
      set = this.source(doc);
      if (this.sets.size >= this.capacity) {
        const oldest = this.sets.keys().next().value as number;
        this.sets.delete(oldest);
      }
      this.sets.set(doc, set);
    }
    return set;
  }
}
