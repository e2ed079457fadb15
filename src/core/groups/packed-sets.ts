/**
 * Feature sets packed in one array each, as they cross threads and are kept: plain sorted keys
 * (`PackedSets`) or encoded with core/groups/feature-set-codec.ts (`KeptSets`).
 */

/** Sorted feature sets packed in one array: set i (of `docs[i]`) is `keys[offsets[i] .. offsets[i + 1])`. */
export interface PackedSets {
  /** Batch indexes in a batch result; doc ids once the session has mapped them. */
  docs: Uint32Array;
  offsets: Uint32Array;
  keys: Uint32Array;
}

/**
 * Encoded feature sets packed in one array: set i (of `docs[i]`) is `words[offsets[i] .. offsets[i + 1])`.
 * In a batch result `docs` are batch indexes; in a verification or chaining job, local item indexes
 * (those items are not read).
 */
export interface KeptSets {
  docs: Uint32Array;
  offsets: Uint32Array;
  words: Uint32Array;
}
