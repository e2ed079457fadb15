/**
 * Owns how long the feature sets kept from fingerprinting stay (#38's memory target): once the
 * candidate pairs are known, only their documents' sets can be measured, so the others' are dropped
 * and the rest copied out of the batch buffers they were views of (those buffers then go too).
 */
import { encodedSetSize } from '../core/groups/feature-set-codec.ts';
import type { PairList } from '../core/index/pair-list.ts';
import type { SearchCorpus } from './search-corpus.ts';

/** What `keepPairedSets` left: the sets kept (with their words) and dropped. */
export interface PairedSetsKept {
  kept: number;
  keptWords: number;
  dropped: number;
}

/**
 * Keeps in `corpus.keptSets` only the sets of documents in some pair of `pairs`, packed into one new
 * buffer. In place: every holder of the array (the scan's ingest output, the search options) then
 * lets go of the batch buffers. A dropped set's size goes to `corpus.setSizes` (a copy: a saved
 * corpus' array is not written), so the size bound decides a later regroup's pairs as it would with
 * the set (verify-candidates.ts `knownSetSize`); a later candidate without a set reads its file again.
 */
export function keepPairedSets(corpus: SearchCorpus, pairs: PairList): PairedSetsKept {
  const sets = corpus.keptSets;
  const out: PairedSetsKept = { kept: 0, keptWords: 0, dropped: 0 };
  if (!sets) return out;
  const n = corpus.docs.count;
  const paired = new Uint8Array(n);
  for (let p = 0; p < pairs.count; p++) paired[pairs.a[p]] = paired[pairs.b[p]] = 1;
  for (let d = 0; d < n; d++) {
    const set = sets[d];
    if (!set) continue;
    if (paired[d]) (out.kept++, (out.keptWords += set.length));
    else out.dropped++;
  }
  const words = new Uint32Array(out.keptWords);
  const sizes = corpus.setSizes ? Uint32Array.from(corpus.setSizes) : new Uint32Array(n);
  let at = 0;
  for (let d = 0; d < n; d++) {
    const set = sets[d];
    if (!set) continue;
    if (!paired[d]) {
      sizes[d] = encodedSetSize(set);
      sets[d] = undefined;
      continue;
    }
    words.set(set, at);
    sets[d] = words.subarray(at, at + set.length);
    at += set.length;
  }
  if (out.dropped > 0) corpus.setSizes = sizes;
  return out;
}
