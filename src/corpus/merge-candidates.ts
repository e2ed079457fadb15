/**
 * The merge's candidate step (merge-corpus.ts): the pairs searched joined with the saved corpus's
 * decided pairs, and the candidate histogram carried when only pairs with a new member were searched.
 */
import { queryPairs } from '../core/index/brute-force-pairs.ts';
import type { DuplicateSearchResult } from '../scan/near-duplicate-search.ts';
import type { Candidates, SearchCorpus } from '../scan/search-corpus.ts';
import type { ScanResult } from '../scan/scan-result.ts';

/** What the candidate step reads of the saved corpus (merge-corpus.ts CorpusPart). */
type SavedPart = { result: Pick<ScanResult, 'verified' | 'histogram'>; search: Pick<SearchCorpus, 'reps' | 'docs'> | null };

/**
 * The merge's candidates: every pair within k with a new member (or both saved but not decided at this
 * k and threshold), plus the saved verified pairs the search does not propose (short-document join pairs
 * further apart), kept as decided since their small feature sets may not be readable any more. Both
 * lists are sorted by (a, b) (merged positions keep the saved documents' path order), so one merge walk
 * joins them: no per-pair key or map (215,000 saved pairs cost seconds that way).
 */
export function mergedCandidates(found: DuplicateSearchResult, before: SavedPart, savedTo: Int32Array, wasSaved: Uint8Array, decided: boolean, k: number): Candidates {
  const c = found.candidates;
  const v = before.result.verified;
  // The saved verified pairs at merged positions, between documents that still stand for their text.
  // Typed columns (number arrays grown pair by pair cost a tenth of a second at 200,000 pairs).
  const sa = new Uint32Array(v.count);
  const sb = new Uint32Array(v.count);
  const sp = new Uint32Array(v.count);
  let m = 0;
  for (let p = 0; p < v.count; p++) {
    const x = savedTo[v.a[p]!]!;
    const y = savedTo[v.b[p]!]!;
    if (x < 0 || y < 0) continue;
    const a = Math.min(x, y);
    const b = Math.max(x, y);
    if (found.representative[a] !== a || found.representative[b] !== b) continue;
    sa[m] = a;
    sb[m] = b;
    sp[m++] = p;
  }
  const savedOrder = new Uint32Array(m);
  for (let i = 0; i < m; i++) savedOrder[i] = i;
  if (!isSortedPairs(sa, sb, m)) savedOrder.sort((i, j) => sa[i]! - sa[j]! || sb[i]! - sb[j]! || i - j);
  const a = new Uint32Array(c.count + m);
  const b = new Uint32Array(a.length);
  const distance = new Uint8Array(a.length);
  const jaccard = new Float64Array(a.length);
  let n = 0;
  const push = (x: number, y: number, d: number, j: number) => {
    a[n] = x;
    b[n] = y;
    distance[n] = d;
    jaccard[n] = j;
    n++;
  };
  let s = 0;
  for (let p = 0; p <= c.count; p++) {
    const ca = p < c.count ? c.a[p]! : Infinity;
    const cb = p < c.count ? c.b[p]! : Infinity;
    // Saved pairs before this candidate; one equal to it is the candidate itself (its Jaccard is known).
    for (; s < savedOrder.length; s++) {
      const i = savedOrder[s]!;
      if (sa[i]! > ca || (sa[i] === ca && sb[i]! >= cb)) break;
      push(sa[i]!, sb[i]!, v.distance[sp[i]!]!, v.jaccard[sp[i]!]!);
    }
    if (s < savedOrder.length && sa[savedOrder[s]!] === ca && sb[savedOrder[s]!] === cb) s++;
    if (p === c.count) break;
    const j = found.jaccard[p]!;
    if (wasSaved[ca] && wasSaved[cb] && decided && Number.isNaN(j)) continue;
    push(ca, cb, c.distance[p]!, j);
  }
  return {
    k,
    pairs: { a: a.subarray(0, n), b: b.subarray(0, n), distance: distance.subarray(0, n), count: n },
    jaccard: jaccard.subarray(0, n),
    histogram: found.histogram,
  };
}

/**
 * The histogram of every candidate of the merged corpus when only pairs with a new member were searched
 * (`found`): the saved corpus's histogram (all its candidates at this k), less its pairs with a
 * representative that no longer stands for its text (gone, replaced, or a new copy took its place:
 * those pairs are searched again through the new one), plus the pairs found.
 */
export function carriedHistogram(before: SavedPart, savedTo: Int32Array, found: DuplicateSearchResult, k: number): Uint32Array {
  const reps = before.search!.reps;
  const docs = before.search!.docs;
  const hi = new Uint32Array(reps.length);
  const lo = new Uint32Array(reps.length);
  const left = new Uint8Array(reps.length);
  for (let r = 0; r < reps.length; r++) {
    const q = reps[r]!;
    hi[r] = docs.hi[q]!;
    lo[r] = docs.lo[q]!;
    const p = savedTo[q]!;
    left[r] = p < 0 || found.representative[p] !== p ? 1 : 0;
  }
  const histogram = before.result.histogram.slice();
  const gone = queryPairs(hi, lo, left, k);
  for (let p = 0; p < gone.count; p++) histogram[gone.distance[p]!]--;
  for (let d = 0; d <= k; d++) histogram[d] += found.histogram[d]!;
  return histogram;
}

/** Whether the first `n` pairs (a[i], b[i]) are sorted by (a, b). */
function isSortedPairs(a: Uint32Array, b: Uint32Array, n: number): boolean {
  for (let i = 1; i < n; i++) if (a[i - 1]! > a[i]! || (a[i - 1] === a[i] && b[i - 1]! > b[i]!)) return false;
  return true;
}
