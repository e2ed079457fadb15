/**
 * The search state behind a result, shared by the stage (near-duplicate-search.ts) and its measuring
 * (verify-candidates.ts): the corpus as searched, and the candidates of one radius.
 */
import type { PairList } from '../core/index/pair-list.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import type { ScanDocs, ScanResult } from './scan-result.ts';
import type { KnownPairs } from '../core/index/pair-list.ts';
import type { PackedSets, SpilledSets } from '../core/groups/packed-sets.ts';
import { SKETCH_BINS, sketchKnown } from '../core/groups/minhash-sketch.ts';

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
  /** The CLI: where the sets not kept were spilled (read back by the ingest threads instead of the files). */
  spilledSets?: SpilledSets;
  /**
   * Per doc: its feature set's size where known without the set (0: unknown), as a saved corpus keeps it
   * (the CLI's cache): verification's size bound then decides a pair without reading that document.
   */
  setSizes?: Uint32Array;
  /**
   * Per doc: its MinHash sketch (core/groups/minhash-sketch.ts, SKETCH_BINS entries each, all 0: not
   * known): verification's filter rejects a pair the two sketches rule out without reading either.
   */
  sketches?: Uint16Array;
  /** Sampled passages of fingerprinted documents (doc ids, ascending), for the containment search (contained-search.ts). */
  passages?: PackedSets;
  /** Exact containment counts measured so far for this corpus (contained-search.ts). */
  containment?: KnownContainment;
}

/** Exact containment counts measured so far (contained-search.ts), sorted by (a, b): |A ∩ B|, |A| and |B| of each pair. */
export interface KnownContainment {
  a: Uint32Array;
  b: Uint32Array;
  common: Uint32Array;
  sizeA: Uint32Array;
  sizeB: Uint32Array;
  count: number;
}

/**
 * `sketches` with each representative's sketch known where one of its exact copies has it (a copy a
 * worker fingerprinted while another, earlier by path, stands for the text): filled in place, same text, same sketch.
 */
export function sketchesOfReps(sketches: Uint16Array, representative: Int32Array): Uint16Array {
  for (let d = 0; d < representative.length; d++) {
    const r = representative[d];
    if (r < 0 || r === d || !sketchKnown(sketches, d) || sketchKnown(sketches, r)) continue;
    sketches.copyWithin(r * SKETCH_BINS, d * SKETCH_BINS, (d + 1) * SKETCH_BINS);
  }
  return sketches;
}

/** `setSizes` (0: unknown) with each representative's size known where one of its exact copies has it, in place (see `sketchesOfReps`). */
export function setSizesOfReps(setSizes: Uint32Array, representative: Int32Array): Uint32Array {
  for (let d = 0; d < representative.length; d++) {
    const r = representative[d];
    if (r >= 0 && r !== d && setSizes[r] === 0) setSizes[r] = setSizes[d];
  }
  return setSizes;
}

/** Candidates of one search radius. */
export interface Candidates {
  k: number;
  pairs: PairList;
  /** Exact Jaccard per pair, NaN until measured. */
  jaccard: Float64Array;
  histogram: Uint32Array;
  /**
   * Set when the pairs are only those a search accepted at this similarity threshold (a fast restore's
   * saved pairs), not every candidate within k: a regroup at a lower threshold must search again.
   */
  acceptedAt?: number;
}

/** True when `candidates` hold every pair a regroup at `k` and `similarityThreshold` could accept. */
export function candidatesServe(candidates: Candidates, k: number, similarityThreshold: number): boolean {
  return candidates.k === k && !(similarityThreshold < (candidates.acceptedAt ?? 0));
}

/** A result on show and the search state behind it; `adopted`: a result the session did not search. */
export type ShownSearch = { corpus: SearchCorpus; candidates: Candidates; result: ScanResult; adopted?: boolean };

/**
 * Search state for a result the session did not compute (a restored corpus): representatives from
 * the result, its verified pairs' Jaccards as the cache. No small-document feature sets are known,
 * so the short-document join only sees pairs the fingerprint search proposes.
 */
export function adoptResult(result: ScanResult): ShownSearch {
  const { docs } = result;
  const reps: number[] = [];
  for (let d = 0; d < docs.count; d++) if (result.representative[d] === d && docs.status[d] === DocStatus.ok) reps.push(d);
  const v = result.verified;
  const corpus: SearchCorpus = {
    docs,
    settings: result.settings,
    reps: Uint32Array.from(reps),
    representative: result.representative,
    smallSets: { docs: new Uint32Array(0), offsets: new Uint32Array(1), keys: new Uint32Array(0) },
    known: { a: v.a.slice(0, v.count), b: v.b.slice(0, v.count), jaccard: Float64Array.from(v.jaccard.subarray(0, v.count)), count: v.count },
  };
  // k = -1: never equal to a requested k, so the first regroup searches candidates.
  const candidates: Candidates = { k: -1, pairs: { a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), count: 0 }, jaccard: new Float64Array(0), histogram: result.histogram };
  return { corpus, candidates, result, adopted: true };
}

