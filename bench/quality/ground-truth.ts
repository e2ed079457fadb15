/**
 * Ground truth for the quality evaluation: exact Jaccard of word 3-shingle sets (the core's NFKC +
 * lowercase normalization and letter/digit tokenizer), by brute force over all pairs of documents.
 */
import { normalizeText } from '../../src/core/text/normalize.ts';
import { tokenize } from '../../src/core/text/tokenize.ts';
import { sizesAllow } from '../../src/core/groups/jaccard.ts';
import { intersectionSize } from '../../src/core/simhash/simhash.ts';

export interface ShingleSets {
  /** Per document: sorted ids of its distinct word 3-shingles (ids are exact: one per distinct string, no hashing). */
  sets: Uint32Array[];
  /** Per document: number of word tokens. */
  words: Uint32Array;
}

/** Cuts every document into word n-shingles and numbers the distinct shingle strings. */
export function shingleSets(texts: readonly string[], n = 3): ShingleSets {
  const ids = new Map<string, number>();
  const sets: Uint32Array[] = [];
  const words = new Uint32Array(texts.length);
  texts.forEach((text, d) => {
    const tokens = tokenize(normalizeText(text));
    words[d] = tokens.length;
    const own = new Set<number>();
    for (let i = 0; i + n <= tokens.length; i++) {
      const s = tokens.slice(i, i + n).join(' ');
      let id = ids.get(s);
      if (id === undefined) ids.set(s, (id = ids.size));
      own.add(id);
    }
    sets.push(Uint32Array.from(own).sort());
  });
  return { sets, words };
}

export interface GroundTruth {
  /** Pairs (a < b) whose exact Jaccard is >= the threshold, keyed a * n + b (real-text/score-csv.ts pairKey), with their Jaccard. */
  positives: Map<number, number>;
  /** Pairs examined by merge (the rest were excluded exactly by the size bound J <= min/max). */
  merged: number;
}

/**
 * Every pair with J >= threshold, by brute force over all n(n-1)/2 pairs. The only shortcut is exact:
 * J(A, B) <= min(|A|, |B|) / max(|A|, |B|), so pairs whose sizes differ more than that are skipped.
 */
export function groundTruth(sets: readonly Uint32Array[], threshold: number): GroundTruth {
  const n = sets.length;
  const positives = new Map<number, number>();
  let merged = 0;
  for (let a = 0; a < n; a++) {
    const A = sets[a]!;
    if (A.length === 0) continue;
    for (let b = a + 1; b < n; b++) {
      const B = sets[b]!;
      if (B.length === 0) continue;
      if (!sizesAllow(A.length, B.length, threshold)) continue;
      merged++;
      const common = intersectionSize(A, B);
      const j = common / (A.length + B.length - common);
      if (j >= threshold) positives.set(a * n + b, j);
    }
  }
  return { positives, merged };
}
