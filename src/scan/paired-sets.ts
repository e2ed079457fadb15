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
  /** Whether the kept sets were copied into one new buffer (see `keepPairedSets`). */
  compacted: boolean;
}

/**
 * Keeps in `corpus.keptSets` only the sets of documents in some pair of `pairs`. In place: every
 * holder of the array (the scan's ingest output, the search options) sees the same. When the kept
 * sets are at most half of all the words, they are copied into one new buffer, so the batch buffers
 * they were views of go; otherwise the copy would cost more than it frees, and only batches with no
 * paired document go (a search at k = 16 over near-duplicate-rich text pairs nearly every document).
 * A dropped set's size goes to `corpus.setSizes` (a copy: a saved corpus' array is not written), so
 * the size bound and containment's sizes decide a later regroup's pairs as they would with the set
 * (verify-candidates.ts `knownSetSize`, containment-counts.ts `keptSetSizes`); a later candidate
 * without a set reads its file again.
 */
export function keepPairedSets(corpus: SearchCorpus, pairs: PairList): PairedSetsKept {
  const sets = corpus.keptSets;
  const out: PairedSetsKept = { kept: 0, keptWords: 0, dropped: 0, compacted: false };
  if (!sets) return out;
  const n = corpus.docs.count;
  const paired = new Uint8Array(n);
  for (let p = 0; p < pairs.count; p++) paired[pairs.a[p]] = paired[pairs.b[p]] = 1;
  let allWords = 0;
  for (let d = 0; d < n; d++) {
    const set = sets[d];
    if (!set) continue;
    allWords += set.length;
    if (paired[d]) (out.kept++, (out.keptWords += set.length));
    else out.dropped++;
  }
  if (out.dropped === 0) return out;
  out.compacted = out.keptWords <= allWords / 2;
  const words = out.compacted ? new Uint32Array(out.keptWords) : null;
  const sizes = corpus.setSizes ? Uint32Array.from(corpus.setSizes) : new Uint32Array(n);
  let at = 0;
  for (let d = 0; d < n; d++) {
    const set = sets[d];
    if (!set) continue;
    if (!paired[d]) {
      sizes[d] = encodedSetSize(set);
      sets[d] = undefined;
    } else if (words) {
      words.set(set, at);
      sets[d] = words.subarray(at, at + set.length);
      at += set.length;
    }
  }
  corpus.setSizes = sizes;
  return out;
}
