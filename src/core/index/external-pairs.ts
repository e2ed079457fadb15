/**
 * Candidate pairs found outside this process (DuckDB here, Spark or Trino on a cluster) as the
 * scan's candidates: matched to the scanned documents by path (row numbers depend on how the
 * fingerprints were listed; paths are what survive a cluster), then reduced to pairs of distinct
 * texts, as the in-process search reports them, so verification and grouping cannot tell the two
 * sources apart. What does not fit (a path the scan does not have, a distance the scan's
 * fingerprints do not give) is counted with a few examples, for a clear refusal.
 */
import { hamming } from '../simhash/fingerprint64.ts';
import { createPairList, sortPairs, type PairList } from './pair-list.ts';

/** Examples kept per kind of problem (enough to show what went wrong). */
const EXAMPLES = 5;

/** Pairs by path, as a pairs file holds them. */
export interface PathPairs {
  pathA: readonly string[];
  pathB: readonly string[];
  /** The Hamming distance the file reports per pair. */
  distance: ArrayLike<number>;
}

/** Pairs of doc ids, and the paths that named no scanned document. */
export interface MatchedPairs {
  pairs: PairList;
  /** Distinct paths of the file that are not among the scanned documents, and a few of them. */
  missing: { count: number; examples: string[] };
}

/**
 * Looks up both paths of every pair (`docOf` gives the doc id, or -1); pairs with a path the scan
 * does not have are left out and their paths counted once each.
 */
export function matchPairsByPath(input: PathPairs, docOf: (path: string) => number): MatchedPairs {
  const n = input.pathA.length;
  const pairs = createPairList(n);
  const missing = new Set<string>();
  const examples: string[] = [];
  const lookUp = (path: string): number => {
    const d = docOf(path);
    if (d < 0 && !missing.has(path)) {
      missing.add(path);
      if (examples.length < EXAMPLES) examples.push(path);
    }
    return d;
  };
  for (let p = 0; p < n; p++) {
    const a = lookUp(input.pathA[p]);
    const b = lookUp(input.pathB[p]);
    if (a < 0 || b < 0) continue;
    const i = pairs.count++;
    pairs.a[i] = a;
    pairs.b[i] = b;
    pairs.distance[i] = input.distance[p];
  }
  return { pairs, missing: { count: missing.size, examples } };
}

/** A pair the scan's fingerprints contradict: a document without one, or another distance. */
export interface PairMismatch {
  a: number;
  b: number;
  /** The distance the pairs file gave. */
  given: number;
  /** The distance of the scan's fingerprints, or -1 when one of the two has none. */
  actual: number;
}

/** External pairs reduced to candidates, and the ones the scan's fingerprints contradict. */
export interface ExternalCandidates {
  /** Pairs of representatives (a < b, sorted by a then b, each once), distance from the fingerprints. */
  candidates: PairList;
  mismatched: { count: number; examples: PairMismatch[] };
}

/**
 * Turns pairs of documents into the candidates the in-process search would give: each document
 * stands for its exact-duplicate class (`representative`, -1 when it has no fingerprint), pairs
 * inside one class are dropped (exact copies are grouped by content hash, not searched), and each
 * pair of representatives is kept once. A pair whose document has no fingerprint, or whose given
 * distance is not the fingerprints' Hamming distance, was computed from other fingerprints (other
 * settings, other files): it is counted, not kept. `hi`/`lo` are per doc (copies resolved).
 */
export function candidatesFromPairs(pairs: PairList, representative: Int32Array, hi: Uint32Array, lo: Uint32Array): ExternalCandidates {
  const out = createPairList(pairs.count);
  const examples: PairMismatch[] = [];
  let mismatches = 0;
  for (let p = 0; p < pairs.count; p++) {
    const da = pairs.a[p];
    const db = pairs.b[p];
    const ra = representative[da];
    const rb = representative[db];
    const actual = ra < 0 || rb < 0 ? -1 : hamming(hi[ra], lo[ra], hi[rb], lo[rb]);
    if (actual !== pairs.distance[p]) {
      if (examples.length < EXAMPLES) examples.push({ a: da, b: db, given: pairs.distance[p], actual });
      mismatches++;
      continue;
    }
    if (ra === rb) continue;
    const i = out.count++;
    out.a[i] = Math.min(ra, rb);
    out.b[i] = Math.max(ra, rb);
    out.distance[i] = actual;
  }
  const sorted = sortPairs(out);
  // One pair of representatives can come from several pairs of documents (exact copies): keep it once.
  let w = 0;
  for (let p = 0; p < sorted.count; p++) {
    if (w > 0 && sorted.a[w - 1] === sorted.a[p] && sorted.b[w - 1] === sorted.b[p]) continue;
    sorted.a[w] = sorted.a[p];
    sorted.b[w] = sorted.b[p];
    sorted.distance[w] = sorted.distance[p];
    w++;
  }
  const candidates: PairList = { a: sorted.a.slice(0, w), b: sorted.b.slice(0, w), distance: sorted.distance.slice(0, w), count: w };
  return { candidates, mismatched: { count: mismatches, examples } };
}
