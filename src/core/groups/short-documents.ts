/**
 * Near-duplicates of short documents by an exact set-similarity join (prefix filtering), because a
 * fingerprint of a few dozen features is too noisy to find them or to vouch for them.
 */
import { DEFAULT_SIMILARITY_THRESHOLD } from '../quality/defaults.ts';
import { jaccardSorted } from './jaccard.ts';
import type { FeatureSetSource } from './verify.ts';

/** Pairs found by the join (a < b), each with its exact Jaccard >= threshold. */
export interface JoinedPairs {
  a: Uint32Array;
  b: Uint32Array;
  jaccard: Float32Array;
  count: number;
}

// Guards ceil(t * size) against float error (0.55 * 100 = 55.00000000000001): erring towards a longer
// prefix and a looser size bound only adds candidates, never loses a pair.
const EPS = 1e-9;

/**
 * Every pair among `docs` whose feature sets have Jaccard >= threshold, exactly (Bayardo et al.'s
 * All-Pairs with prefix filtering): sets are visited by increasing size; a pair with J >= t must share
 * a feature among the first |x| - ceil(t|x|) + 1 features of each set (in one global order, here the
 * hash order), so only those prefixes are indexed and probed, and each candidate is then measured.
 * Empty sets are skipped. Meant for the short documents of a corpus (and the few documents small
 * enough to match them), whose sets are small.
 */
export function similarityJoin(
  docs: ArrayLike<number>,
  getFeatureSet: FeatureSetSource,
  threshold: number = DEFAULT_SIMILARITY_THRESHOLD,
): JoinedPairs {
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold must be in (0, 1], got ${threshold}`);
  const m = docs.length;
  const sets: Uint32Array[] = new Array(m);
  for (let i = 0; i < m; i++) sets[i] = getFeatureSet(docs[i]);
  const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => sets[x].length - sets[y].length || docs[x] - docs[y]);

  const postings = new Map<number, number[]>();
  const seen = new Int32Array(m).fill(-1);
  const outA: number[] = [];
  const outB: number[] = [];
  const outJ: number[] = [];
  for (const x of order) {
    const X = sets[x];
    if (X.length === 0) continue;
    const prefix = X.length - Math.ceil(threshold * X.length - EPS) + 1;
    const minSize = threshold * X.length - EPS;
    for (let p = 0; p < prefix; p++) {
      const list = postings.get(X[p]);
      if (list === undefined) continue;
      for (const y of list) {
        if (seen[y] === x || sets[y].length < minSize) continue;
        seen[y] = x;
        const j = jaccardSorted(X, sets[y]);
        if (j >= threshold) {
          const dx = docs[x];
          const dy = docs[y];
          outA.push(dx < dy ? dx : dy);
          outB.push(dx < dy ? dy : dx);
          outJ.push(j);
        }
      }
    }
    for (let p = 0; p < prefix; p++) {
      const list = postings.get(X[p]);
      if (list === undefined) postings.set(X[p], [x]);
      else list.push(x);
    }
  }
  return {
    a: Uint32Array.from(outA),
    b: Uint32Array.from(outB),
    jaccard: Float32Array.from(outJ),
    count: outA.length,
  };
}

/**
 * The documents the short-document join must cover: every short document (fewer than `shortWords`
 * words, with at least one feature) and every document whose feature count is small enough to reach
 * `threshold` against one of them (J <= min/max of the set sizes).
 */
export function shortJoinMembers(
  words: ArrayLike<number>,
  featureCount: ArrayLike<number>,
  shortWords: number,
  threshold: number = DEFAULT_SIMILARITY_THRESHOLD,
): Uint32Array {
  const n = words.length;
  let largestShort = 0;
  for (let d = 0; d < n; d++) if (words[d] < shortWords && featureCount[d] > largestShort) largestShort = featureCount[d];
  if (largestShort === 0) return new Uint32Array(0);
  const limit = largestShort / threshold + EPS;
  const out: number[] = [];
  for (let d = 0; d < n; d++) {
    if (featureCount[d] > 0 && (words[d] < shortWords || featureCount[d] <= limit)) out.push(d);
  }
  return Uint32Array.from(out);
}
