/**
 * The near-duplicate pipeline over a fingerprinted corpus: candidate pairs within Hamming distance k
 * from the permuted-table index, exact Jaccard verification, and the exact join for short documents.
 */
import { allPairs } from '../index/all-pairs.ts';
import type { PairList } from '../index/pair-list.ts';
import { hamming } from '../simhash/fingerprint64.ts';
import { DEFAULT_K, DEFAULT_SIMILARITY_THRESHOLD, SHORT_DOCUMENT_WORDS } from '../quality/defaults.ts';
import { UNKNOWN_DISTANCE, type ScoredPairs } from './group-table.ts';
import { shortJoinMembers, similarityJoin } from './short-documents.ts';
import { verifyPairs, type FeatureSetSource } from './verify.ts';

/** A fingerprinted corpus of n documents (parallel arrays indexed by document id). */
export interface NearDuplicateInput {
  hi: Uint32Array;
  lo: Uint32Array;
  /** 1 when the document has a fingerprint (fingerprinter status 'ok'); 0 for too-short, binary, failed. */
  hasFingerprint: Uint8Array;
  /** Word tokens per document (decides "short"). */
  words: ArrayLike<number>;
  /** Distinct features per document (the size of its feature set). */
  featureCount: ArrayLike<number>;
  /** Sorted, duplicate-free feature set of a document (may re-tokenize its text). */
  getFeatureSet: FeatureSetSource;
}

export interface NearDuplicateOptions {
  /** Maximum fingerprint distance of candidate pairs (default DEFAULT_K). */
  k?: number;
  /** Exact-Jaccard threshold (default DEFAULT_SIMILARITY_THRESHOLD). */
  threshold?: number;
  /**
   * Verify fingerprint candidates by exact Jaccard (default true). When false, a candidate between two
   * documents that are not short is accepted on its distance alone (Jaccard NaN); pairs with a short
   * document are verified regardless.
   */
  verify?: boolean;
  /** Documents with fewer words than this are short (default SHORT_DOCUMENT_WORDS). */
  shortWords?: number;
  /** Number of index blocks m (default: the index's own choice). */
  blocks?: number;
  /** Candidate pairs already found (e.g. by index workers in parallel), in document ids; skips allPairs. */
  candidates?: PairList;
}

export interface NearDuplicateResult {
  /** Accepted near-duplicate pairs in (a, b) order. */
  pairs: ScoredPairs;
  /** Per document: 1 when it is short (its near-duplicates come from the exact join). */
  short: Uint8Array;
  /** Fingerprint candidates within k, and how many of them were accepted. */
  candidates: number;
  acceptedCandidates: number;
  /** Pairs from the short-document join, and how many of those the fingerprint index had missed. */
  joinPairs: number;
  joinOnly: number;
}

/**
 * Finds every near-duplicate pair of the corpus. Candidates come from the permuted-table index
 * (fingerprints within k) and, for short documents, from an exact set-similarity join; every
 * candidate is confirmed by exact Jaccard >= threshold (unless `verify` is false, see the option).
 */
export function findNearDuplicates(input: NearDuplicateInput, options: NearDuplicateOptions = {}): NearDuplicateResult {
  const k = options.k ?? DEFAULT_K;
  const threshold = options.threshold ?? DEFAULT_SIMILARITY_THRESHOLD;
  const shortWords = options.shortWords ?? SHORT_DOCUMENT_WORDS;
  const verify = options.verify ?? true;
  const n = input.hi.length;
  const short = new Uint8Array(n);
  for (let d = 0; d < n; d++) if (input.words[d] < shortWords) short[d] = 1;

  const candidates = options.candidates ?? fingerprintCandidates(input, k, options.blocks);

  // Which candidates need exact verification: all of them, or (verify off) those with a short member.
  let toVerify = candidates;
  if (!verify) {
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < candidates.count; i++) {
      if (short[candidates.a[i]] || short[candidates.b[i]]) {
        a.push(candidates.a[i]);
        b.push(candidates.b[i]);
      }
    }
    toVerify = { a: Uint32Array.from(a), b: Uint32Array.from(b), distance: new Uint8Array(0), count: a.length };
  }
  const verdicts = verifyPairs(toVerify, input.getFeatureSet, threshold);

  const join = similarityJoin(shortJoinMembers(input.words, input.featureCount, shortWords, threshold), input.getFeatureSet, threshold);
  const joinKeys = new Set<number>();
  for (let i = 0; i < join.count; i++) joinKeys.add(join.a[i] * n + join.b[i]);

  const out = new PairAccumulator(candidates.count + join.count);
  let accepted = 0;
  let v = 0;
  for (let i = 0; i < candidates.count; i++) {
    const a = candidates.a[i];
    const b = candidates.b[i];
    const needsVerdict = verify || short[a] === 1 || short[b] === 1;
    let jac = Number.NaN;
    if (needsVerdict) {
      const ok = verdicts.keep[v] === 1;
      jac = verdicts.jaccard[v++];
      if (!ok) continue;
    }
    accepted++;
    if (joinKeys.has(a * n + b)) continue; // the join's entry (same pair, exact Jaccard) is added below
    out.push(a, b, candidates.distance[i], jac);
  }
  let joinOnly = join.count;
  for (let i = 0; i < join.count; i++) {
    const a = join.a[i];
    const b = join.b[i];
    const d = input.hasFingerprint[a] && input.hasFingerprint[b] ? hamming(input.hi[a], input.lo[a], input.hi[b], input.lo[b]) : UNKNOWN_DISTANCE;
    if (d <= k && input.hasFingerprint[a] && input.hasFingerprint[b]) joinOnly--;
    out.push(a, b, d, join.jaccard[i]);
  }
  return {
    pairs: sortScoredPairs(out.build(), n),
    short,
    candidates: candidates.count,
    acceptedCandidates: accepted,
    joinPairs: join.count,
    joinOnly,
  };
}

/** All pairs of fingerprinted documents within k (the permuted-table index), in document ids (a < b). */
export function fingerprintCandidates(input: NearDuplicateInput, k: number, blocks?: number): PairList {
  const n = input.hi.length;
  let m = 0;
  for (let d = 0; d < n; d++) if (input.hasFingerprint[d]) m++;
  const ids = new Uint32Array(m);
  const hi = new Uint32Array(m);
  const lo = new Uint32Array(m);
  for (let d = 0, j = 0; d < n; d++) {
    if (!input.hasFingerprint[d]) continue;
    ids[j] = d;
    hi[j] = input.hi[d];
    lo[j++] = input.lo[d];
  }
  const pairs = allPairs(hi, lo, k, blocks === undefined ? {} : { blocks });
  // ids is increasing, so a < b survives the mapping back to document ids.
  for (let i = 0; i < pairs.count; i++) {
    pairs.a[i] = ids[pairs.a[i]];
    pairs.b[i] = ids[pairs.b[i]];
  }
  return pairs;
}

/** Growable ScoredPairs. */
class PairAccumulator {
  private p: ScoredPairs;

  constructor(capacity: number) {
    const c = Math.max(16, capacity);
    this.p = { a: new Uint32Array(c), b: new Uint32Array(c), distance: new Uint8Array(c), jaccard: new Float32Array(c), count: 0 };
  }

  push(a: number, b: number, distance: number, jaccard: number): void {
    const i = this.p.count++;
    this.p.a[i] = a;
    this.p.b[i] = b;
    this.p.distance[i] = distance;
    this.p.jaccard[i] = jaccard;
  }

  build(): ScoredPairs {
    const { a, b, distance, jaccard, count } = this.p;
    return { a: a.slice(0, count), b: b.slice(0, count), distance: distance.slice(0, count), jaccard: jaccard.slice(0, count), count };
  }
}

/** Sorts pairs by (a, b): two stable counting-sort passes over document ids (b, then a). */
export function sortScoredPairs(pairs: ScoredPairs, n: number): ScoredPairs {
  const count = pairs.count;
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  for (const key of [pairs.b, pairs.a]) {
    const start = new Uint32Array(n + 1);
    for (let i = 0; i < count; i++) start[key[i] + 1]++;
    for (let d = 0; d < n; d++) start[d + 1] += start[d];
    const next = new Uint32Array(count);
    for (let r = 0; r < count; r++) next[start[key[order[r]]]++] = order[r];
    order = next;
  }
  const out: ScoredPairs = {
    a: new Uint32Array(count),
    b: new Uint32Array(count),
    distance: new Uint8Array(count),
    jaccard: new Float32Array(count),
    count,
  };
  for (let r = 0; r < count; r++) {
    const i = order[r];
    out.a[r] = pairs.a[i];
    out.b[r] = pairs.b[i];
    out.distance[r] = pairs.distance[i];
    out.jaccard[r] = pairs.jaccard[i];
  }
  return out;
}
