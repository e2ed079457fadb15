/**
 * Text to 64-bit SimHash fingerprints: the fused hot path that normalizes, tokenizes, cuts features,
 * hashes them with XXH64 and sums their bits, on reusable typed arrays with no allocation per token.
 *
 * Exact definition (tests hold it equal to the string-level reference built from normalize.ts and
 * tokenize.ts and to xxhash-wasm's h64):
 * - text is normalized as by `normalizeText` (NFKC + case folding) and encoded to UTF-8. Fast paths
 *   with the same result: ASCII text is lowercased while tokenizing; text whose other characters
 *   are all "simple" (simple-fold.ts) is folded per code point while tokenizing; anything else is
 *   normalized as a whole string first;
 * - tokens follow tokenize.ts; with stop words on, English stop words are dropped;
 * - a word shingle's bytes are the UTF-8 of its n tokens joined by one space 0x20 ("the quick brown");
 *   a single word's bytes are the token's UTF-8; a character n-gram's bytes are the UTF-8 of n
 *   consecutive code points of `charStream` (tokens joined by one space where a separator stood
 *   between them, by nothing where they touched);
 * - a feature's hash is XXH64 with seed 0 of those bytes, as uint32 halves (hi = bits 63..32);
 * - weights: binary counts each distinct feature once; tf counts every occurrence; tfidf gives each
 *   distinct feature tf * idf (idf from `DocumentFrequencies`, keyed by the hash's low 32 bits),
 *   rounded to a multiple of 2^-20 so the sums are exact and do not depend on the order of features;
 * - bit i of the fingerprint is 1 iff the sum over features of (+w if the hash has bit i, else -w) is > 0;
 * - a document with no feature at all (empty, only separators, fewer tokens than the shingle size,
 *   fewer code points than the n-gram size) is 'too-short' and gets no fingerprint.
 *
 * How it is fast, per document: (1) the text is encoded to UTF-8 once; (2) one tokenizer pass moves
 * the tokens, folded and joined as "w1 w2 w3 ...", to the front of that same buffer (the write
 * position never passes the read position), recording token bounds, so every feature is one
 * contiguous byte range; the WebAssembly kernel (fingerprint-kernel.ts; the pass is in
 * compact-tokens.ts, the buffers in fingerprint-engine.ts, the counting in feature-bits.ts) runs this pass for ASCII
 * text and for text of simple characters without stop words (JavaScript does stop words and text
 * normalized as a whole); (3) the kernel hashes all ranges in one call; (4) the kernel dedupes the
 * hashes in a table of i64 slots zeroed per document over the part the document uses (large
 * documents in cache-sized partitions by the hashes' top bits) and counts bits in eight byte-sliced
 * i64 counters (tf-idf weights are summed in JavaScript, 256 buckets per hash byte). No
 * allocation per token or per feature, and none per document but the result.
 */
import { validateSettings } from './settings.ts';
import type { SimHashSettings } from './settings.ts';
import { createDocumentFrequencyTable } from './document-frequencies.ts';
import type { DocumentFrequencies } from './document-frequencies.ts';
import { createEngine, RELEASE_BYTES, type Engine } from './fingerprint-engine.ts';
import { featureCount, tokenizeNormalized, tokenizeText } from './compact-tokens.ts';
import { sketchKeys } from '../groups/minhash-sketch.ts';
import { bitsOut, createTfidfSums, distinctLowHalves, hashAndCount, hashFeatures, resetTable, signBits, tableFeatures } from './feature-bits.ts';

/** The fingerprint of one document. `hi`/`lo` are 0 and meaningless when `status` is 'too-short'. */
export type FingerprintResult = {
  status: 'ok' | 'too-short';
  hi: number;
  lo: number;
  /** Feature occurrences cut from the document (before removing repeats). */
  features: number;
  /** Word tokens in the document (before stop-word removal). */
  words: number;
};

/** Options beyond the settings. */
export type FingerprinterOptions = {
  /** Corpus document frequencies; required when `settings.weights` is 'tfidf'. */
  documentFrequencies?: DocumentFrequencies;
};

/** A reusable fingerprinting engine for one set of settings. Not shareable between threads; create one per worker. */
export type Fingerprinter = {
  readonly settings: SimHashSettings;
  /** Fingerprints one document's text. */
  fingerprint(text: string): FingerprintResult;
  /**
   * The document's distinct features as sorted distinct uint32 keys (the low 32 bits of each feature
   * hash), for exact Jaccard and for counting document frequencies. Empty when too short.
   */
  featureSet(text: string): Uint32Array;
  /**
   * `fingerprint` of the text whose normalized form (normalizeText) has the UTF-8 `utf8`, as
   * text/normalized-utf8.ts writes it; `ascii` says that every byte is ASCII. The same result as
   * `fingerprint(text)`, without the string: the bytes are tokenized as they are.
   */
  fingerprintNormalized(utf8: Uint8Array, ascii: boolean): FingerprintResult;
  /** `featureSet` of the text whose normalized UTF-8 is `utf8` (see fingerprintNormalized). */
  featureSetNormalized(utf8: Uint8Array, ascii: boolean): Uint32Array;
  /**
   * `fingerprintNormalized`, and also `featureSetNormalized` when the document has fewer than
   * `setBelowWords` words (else `set` is null): from the same tokens and feature hashes, one pass
   * instead of two (the features do not depend on the weights). With `scratch`, the set is a view
   * valid only until this fingerprinter's next call (the caller copies what it keeps). With `sketch`,
   * the document's MinHash sketch (core/groups/minhash-sketch.ts) goes to `sketch[sketchAt ..]`, from
   * the same hashes, whether or not the set is made (left as it is when the document is too short).
   */
  fingerprintNormalizedWithSet(
    utf8: Uint8Array,
    ascii: boolean,
    setBelowWords: number,
    scratch?: boolean,
    sketch?: Uint16Array,
    sketchAt?: number,
  ): FingerprintResult & { set: Uint32Array | null };
};

/**
 * Creates a fingerprinter for `settings`. Throws a RangeError for invalid settings, or when the
 * weights are 'tfidf' and no `documentFrequencies` are given.
 */
export function createFingerprinter(settings: SimHashSettings, options: FingerprinterOptions = {}): Fingerprinter {
  validateSettings(settings);
  const frozen: SimHashSettings = Object.freeze({
    features: Object.freeze({ ...settings.features }),
    weights: settings.weights,
    stopWords: settings.stopWords,
  });
  let tfidfSums: ((e: Engine, distinct: number) => number) | null = null;
  if (settings.weights === 'tfidf') {
    if (!options.documentFrequencies) {
      throw new RangeError('tfidf weights need the corpus document frequencies (options.documentFrequencies)');
    }
    tfidfSums = createTfidfSums(createDocumentFrequencyTable(options.documentFrequencies));
  }
  const charMode = settings.features.kind === 'char-ngram';
  const n = settings.features.kind === 'word' ? 1 : settings.features.n;
  const stopWords = settings.stopWords;
  const weights = settings.weights;
  // Feature f spans buf[starts[f], endArray()[f + endOffset]).
  const endOffset = charMode ? n : n - 1;
  let e = createEngine();
  /** After a huge document, start over with small buffers: WASM memory never shrinks, a new instance's does not exist yet. */
  function release(): void {
    if (e.memory.byteLength > RELEASE_BYTES) e = createEngine();
  }
  /** Encodes and tokenizes; returns the number of features (0 when too short). */
  const prepare = (text: string) => featureCount(e, tokenizeText(e, text, charMode, stopWords), charMode, n);
  /** `prepare` for text that is normalized already, given as its UTF-8. */
  const prepareNormalized = (utf8: Uint8Array, ascii: boolean) =>
    featureCount(e, tokenizeNormalized(e, utf8, ascii, charMode, stopWords), charMode, n);

  /** The fingerprint of the document `prepare` left in the engine (`count` features); its hashes stay in e.hashes. */
  function fingerprintHashed(count: number): FingerprintResult {
    const words = e.words;
    if (count === 0) return { status: 'too-short', hi: 0, lo: 0, features: 0, words };
    e.bitCounts.fill(0);
    if (weights === 'binary') {
      resetTable(e, count);
      signBits(e.bitCounts, hashAndCount(e, count, charMode, endOffset, true));
    } else if (weights === 'tf') {
      signBits(e.bitCounts, hashAndCount(e, count, charMode, endOffset, false));
    } else {
      resetTable(e, count);
      hashFeatures(e, count, charMode ? e.starts : e.ends, endOffset);
      signBits(e.bitCounts, tfidfSums!(e, tableFeatures(e, count)));
    }
    return { status: 'ok', hi: bitsOut[0], lo: bitsOut[1], features: count, words };
  }

  /** The fingerprint of the document `prepare` left in the engine (`count` features). */
  function fingerprintPrepared(count: number): FingerprintResult {
    const print = fingerprintHashed(count);
    release();
    return print;
  }

  /** The feature set of the document `prepare` left in the engine (`count` features). */
  function featureSetPrepared(count: number): Uint32Array {
    if (count === 0) {
      release();
      return new Uint32Array(0);
    }
    hashFeatures(e, count, charMode ? e.starts : e.ends, endOffset);
    const set = distinctLowHalves(e, count);
    release();
    return set;
  }

  return {
    settings: frozen,
    fingerprint: (text) => fingerprintPrepared(prepare(text)),
    featureSet: (text) => featureSetPrepared(prepare(text)),
    fingerprintNormalized: (utf8, ascii) => fingerprintPrepared(prepareNormalized(utf8, ascii)),
    featureSetNormalized: (utf8, ascii) => featureSetPrepared(prepareNormalized(utf8, ascii)),
    fingerprintNormalizedWithSet(utf8, ascii, setBelowWords, scratch = false, sketch, sketchAt = 0) {
      const count = prepareNormalized(utf8, ascii);
      const print = fingerprintHashed(count);
      // Every weighting left the features' hashes in e.hashes (lo at 2f: the set's keys).
      if (sketch && count > 0) sketchKeys(e.hashes, count, 2, sketch, sketchAt);
      const set = print.words < setBelowWords ? (count === 0 ? new Uint32Array(0) : distinctLowHalves(e, count, scratch)) : null;
      release();
      return { ...print, set };
    },
  };
}
