/**
 * Near-duplicates of short documents by an exact set-similarity join (prefix filtering), because a
 * fingerprint of a few dozen features is too noisy to find them or to vouch for them.
 */
import { DEFAULT_SIMILARITY_THRESHOLD } from '../quality/defaults.ts';
import { createDocumentFrequencyCounter } from '../simhash/document-frequencies.ts';
import { jaccardSorted, type FeatureSetSource } from './jaccard.ts';

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
 * a feature among the first |x| - ceil(t|x|) + 1 features of each set in one global order, so only
 * those prefixes are indexed and probed, and each candidate is then measured. The global order is
 * rarest feature first (document frequency among `docs`), which keeps the probed posting lists short:
 * common phrases sit at the end of every set, outside the prefixes.
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
  const sets = rarestFirst(Array.from({ length: m }, (_, i) => getFeatureSet(docs[i])));
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
 * Renames every feature to its rank in the order (document frequency, key) and sorts each set by rank.
 * A bijection on features, so Jaccard values do not change.
 */
function rarestFirst(sets: Uint32Array[]): Uint32Array[] {
  const counter = createDocumentFrequencyCounter();
  for (const set of sets) counter.add(set);
  const { keys, counts } = counter.result();
  const byRarity = Array.from(keys.keys()).sort((x, y) => counts[x] - counts[y] || x - y);
  const rank = new Uint32Array(keys.length);
  byRarity.forEach((keyIndex, r) => (rank[keyIndex] = r));
  return sets.map((set) => {
    const renamed = new Uint32Array(set.length);
    for (let i = 0; i < set.length; i++) renamed[i] = rank[indexOfKey(keys, set[i])];
    return renamed.sort();
  });
}

/** Position of `key` in the sorted `keys` (it is always present). */
function indexOfKey(keys: Uint32Array, key: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
