/**
 * The search state behind a result, shared by the stage (near-duplicate-search.ts) and its measuring
 * (verify-candidates.ts): the corpus as searched, and the candidates of one radius.
 */
import type { PairList } from '../core/index/pair-list.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { KnownPairs } from '../workers/index-api.ts';
import type { PackedSets } from '../workers/ingest-protocol.ts';
import type { ScanDocs } from './scan-result.ts';

/** What the near-duplicate stage needs from a finished fingerprinting pass (kept for regroups). */
export interface SearchCorpus {
  docs: ScanDocs;
  settings: SimHashSettings;
  /** Representatives with a fingerprint (distinct texts, status ok), ascending doc ids. */
  reps: Uint32Array;
  /** Per doc: the doc whose text stands for it (exact copies share one), -1 when not ok. */
  representative: Int32Array;
  /** Feature sets of small documents (doc ids), from the ingest workers. */
  smallSets: PackedSets;
  /** Exact Jaccards measured so far for this corpus (sorted by (a, b)); grows with every regroup. */
  known: KnownPairs;
  /**
   * Per doc: its feature set kept from fingerprinting, encoded (core/groups/feature-set-codec.ts), or
   * undefined (not kept: over the scan's budget, a restored corpus): verification reads the file then.
   */
  keptSets?: ReadonlyArray<Uint32Array | undefined>;
}

/** Candidates of one search radius. */
export interface Candidates {
  k: number;
  pairs: PairList;
  /** Exact Jaccard per pair, NaN until measured. */
  jaccard: Float64Array;
  histogram: Uint32Array;
}

