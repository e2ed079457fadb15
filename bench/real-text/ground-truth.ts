/**
 * Ground truth of the real-text evaluation: every pair of files whose feature sets (the very sets the
 * scan's verifier compares: read by the CLI's loadText, i.e. core documentText (decoding, the HTML rule), the core
 * fingerprinter's word 3-shingle keys) have an exact Jaccard >= the threshold, found without
 * comparing all pairs, plus each file's 64-bit fingerprint for the candidate-recall diagnostic.
 */
import { join } from 'node:path';
import { defaultSettings } from '../../src/cli/cli-common.ts';
import { loadText } from '../../src/cli/load-text.ts';
import { createFingerprinter } from '../../src/core/simhash/fingerprinter.ts';
import { intersectionSize } from '../../src/core/simhash/simhash.ts';
import { sizesAllow } from '../../src/core/groups/jaccard.ts';
import { pairKey } from './score-csv.ts';

export interface DocumentFeatures {
  /** Per file: its sorted distinct feature keys; empty when the file is empty, binary, unreadable or too short. */
  sets: Uint32Array[];
  /** Per file: the default-settings fingerprint (meaningless where the set is empty). */
  hi: Uint32Array;
  lo: Uint32Array;
}

/** Reads every file under `root` (paths '/'-separated, relative to it) through the CLI's pipeline with default settings. */
export async function documentFeatures(root: string, paths: readonly string[]): Promise<DocumentFeatures> {
  const settings = defaultSettings();
  const fingerprinter = createFingerprinter(settings);
  const n = paths.length;
  const out: DocumentFeatures = { sets: [], hi: new Uint32Array(n), lo: new Uint32Array(n) };
  for (let i = 0; i < n; i++) {
    const loaded = await loadText(join(root, ...paths[i]!.split('/')));
    if (!loaded.ok || loaded.bytes === 0) {
      out.sets.push(new Uint32Array(0));
      continue;
    }
    const text = loaded.text;
    const r = fingerprinter.fingerprint(text);
    out.hi[i] = r.hi;
    out.lo[i] = r.lo;
    out.sets.push(r.status === 'ok' ? fingerprinter.featureSet(text) : new Uint32Array(0));
  }
  return out;
}

export interface RealGroundTruth {
  /** Every document pair with Jaccard >= the threshold, keyed pairKey(a, b, n), with its Jaccard. */
  positives: Map<number, number>;
  /** Documents with at least one feature (the others are in no pair of the truth). */
  withFeatures: number;
  /** Distinct feature sets among them (files with identical sets are one class). */
  classes: number;
  /** Class pairs whose sets were intersected after the prefix and size filters. */
  merged: number;
}

/**
 * All pairs with Jaccard >= threshold, exactly. Files with identical feature sets form one class
 * (a class of c files gives C(c, 2) pairs at Jaccard 1); classes are compared with the prefix
 * filter: order each set's features rarest first (by how many classes hold them); if J(A, B) >= t
 * then |A ∩ B| >= t |A|, so A and B share a feature among the first |A| - ceil(t |A|) + 1 of A's
 * (and likewise of B's). An inverted index over those prefix features proposes every pair that can
 * qualify, and each is intersected in full. Common shingles ("of the kernel") rarely enter a prefix,
 * so this touches a small share of the pairs an index over all features would.
 */
export function realGroundTruth(sets: readonly Uint32Array[], threshold: number): RealGroundTruth {
  const n = sets.length;
  // Classes of identical sets.
  const classOf = new Map<string, number>();
  const members: number[][] = [];
  const classSets: Uint32Array[] = [];
  for (let d = 0; d < n; d++) {
    const set = sets[d]!;
    if (set.length === 0) continue;
    const key = Buffer.from(set.buffer, set.byteOffset, set.byteLength).toString('latin1');
    let c = classOf.get(key);
    if (c === undefined) {
      classOf.set(key, (c = classSets.length));
      classSets.push(set);
      members.push([]);
    }
    members[c]!.push(d);
  }
  const m = classSets.length;

  const { ranked, distinct } = rarestFirst(classSets);
  const prefixOf = (size: number) => size - Math.ceil(threshold * size - 1e-9) + 1; // the slack keeps ceil exact when t |A| is an integer (0.8 * 5)
  // Posting lists as linked lists in typed arrays (head per feature rank, next per entry): hundreds of
  // thousands of small JS arrays cost more than the join itself.
  let entries = 0;
  for (const set of classSets) entries += prefixOf(set.length);
  const head = new Int32Array(distinct).fill(-1);
  const next = new Int32Array(entries);
  const owner = new Uint32Array(entries);
  const classPairs = new Map<number, number>(); // pairKey over classes -> Jaccard
  const seen = new Int32Array(m).fill(-1);
  let merged = 0;
  let e = 0;
  for (let c = 0; c < m; c++) {
    const set = classSets[c]!;
    const ordered = ranked[c]!;
    const prefix = prefixOf(set.length);
    for (let p = 0; p < prefix; p++) {
      const f = ordered[p]!;
      for (let at = head[f]!; at >= 0; at = next[at]!) {
        const other = owner[at]!;
        if (seen[other] === c) continue;
        seen[other] = c;
        const o = classSets[other]!;
        if (!sizesAllow(set.length, o.length, threshold)) continue;
        merged++;
        const common = intersectionSize(set, o);
        // Computed in float64 as the verifier does (core/groups/jaccard.ts jaccardSorted), so both draw the line alike.
        const j = common / (set.length + o.length - common);
        if (j >= threshold) classPairs.set(pairKey(other, c, m), j);
      }
      owner[e] = c;
      next[e] = head[f]!;
      head[f] = e++;
    }
  }

  // Expand classes to documents: identical files pair at 1, and every member of two similar classes pairs.
  const positives = new Map<number, number>();
  let withFeatures = 0;
  for (const list of members) {
    withFeatures += list.length;
    for (let i = 0; i < list.length; i++) for (let k = i + 1; k < list.length; k++) positives.set(pairKey(list[i]!, list[k]!, n), 1);
  }
  for (const [key, j] of classPairs) {
    const a = Math.floor(key / m);
    const b = key % m;
    for (const x of members[a]!) for (const y of members[b]!) positives.set(pairKey(x, y, n), j);
  }
  return { positives, withFeatures, classes: m, merged };
}

/**
 * Each set rewritten as ranks in one global order, rarest feature first (fewest sets holding it, ties
 * by key), sorted ascending: a set's prefix in that order is then its first entries. Done with typed
 * sort over all keys at once and a counting sort on frequencies; a comparator looking frequencies up
 * in a Map took seconds.
 */
function rarestFirst(sets: readonly Uint32Array[]): { ranked: Uint32Array[]; distinct: number } {
  let total = 0;
  for (const s of sets) total += s.length;
  const all = new Uint32Array(total);
  let at = 0;
  for (const s of sets) {
    all.set(s, at);
    at += s.length;
  }
  all.sort();
  // Distinct keys (ascending) and how many sets hold each (a set holds a key at most once).
  const keys: number[] = [];
  const freq: number[] = [];
  for (let i = 0; i < total; ) {
    let e = i + 1;
    while (e < total && all[e] === all[i]) e++;
    keys.push(all[i]!);
    freq.push(e - i);
    i = e;
  }
  const distinct = Uint32Array.from(keys);
  // Ranks by (frequency, key): a counting sort on the frequency, stable, and keys are already ascending.
  const start = new Uint32Array(sets.length + 2);
  for (const f of freq) start[f + 1]!++;
  for (let f = 1; f < start.length; f++) start[f]! += start[f - 1]!;
  const rankOf = new Uint32Array(distinct.length);
  for (let i = 0; i < freq.length; i++) rankOf[i] = start[freq[i]!]!++;
  const ranked = sets.map((s) => {
    const out = new Uint32Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = rankOf[indexOf(distinct, s[i]!)]!;
    return out.sort();
  });
  return { ranked, distinct: distinct.length };
}

/** Position of `key` in the sorted array (which holds it). */
function indexOf(sorted: Uint32Array, key: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Checks the truth against brute force over all pairs of a random sample of documents (every pair of
 * the sample, intersected in full unless their sizes alone rule it out), returning the number of sample pairs on which the two disagree.
 */
export function bruteForceDisagreements(sets: readonly Uint32Array[], truth: ReadonlyMap<number, number>, sample: readonly number[], threshold: number): number {
  const n = sets.length;
  let wrong = 0;
  for (let i = 0; i < sample.length; i++) {
    for (let k = i + 1; k < sample.length; k++) {
      const a = sets[sample[i]!]!;
      const b = sets[sample[k]!]!;
      let near = false;
      if (a.length > 0 && b.length > 0 && sizesAllow(a.length, b.length, threshold)) {
        const common = intersectionSize(a, b);
        near = common / (a.length + b.length - common) >= threshold;
      }
      if (near !== truth.has(pairKey(sample[i]!, sample[k]!, n))) wrong++;
    }
  }
  return wrong;
}
