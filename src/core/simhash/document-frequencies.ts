/**
 * Document frequencies for TF-IDF weights: how many documents of the corpus contain each feature.
 * Features are keyed by the low 32 bits of their XXH64 hash (the same keys as feature sets); two
 * features sharing those 32 bits share a count, a deterministic and negligible blur.
 */

/** Plain data (transferable to and from workers): `keys` sorted ascending and distinct, `counts[i]` documents contain `keys[i]`. */
export type DocumentFrequencies = { documents: number; keys: Uint32Array; counts: Uint32Array };

/** Collects document frequencies from the feature sets of many documents. */
export type DocumentFrequencyCounter = {
  /** Counts one document, given its feature set (distinct keys, any order). */
  add(featureSet: Uint32Array): void;
  /** The counts so far, as plain data. */
  result(): DocumentFrequencies;
};

/** A counter backed by an open-addressing table on one typed array, [key, count] per slot (one cache line per probe). */
export function createDocumentFrequencyCounter(): DocumentFrequencyCounter {
  let capacity = 1 << 12;
  let slots = new Uint32Array(2 * capacity); // count 0 = empty slot
  let size = 0;
  let documents = 0;

  const insert = (key: number, add: number) => {
    const mask = capacity - 1;
    let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
    while (slots[2 * slot + 1] !== 0 && slots[2 * slot] !== key) slot = (slot + 1) & mask;
    if (slots[2 * slot + 1] === 0) {
      slots[2 * slot] = key;
      size++;
    }
    slots[2 * slot + 1] += add;
  };
  const grow = () => {
    const old = slots;
    capacity *= 2;
    slots = new Uint32Array(2 * capacity);
    size = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) insert(old[i], old[i + 1]);
  };

  return {
    add(featureSet) {
      documents++;
      if ((size + featureSet.length) * 2 > capacity) {
        while ((size + featureSet.length) * 2 > capacity) grow();
      }
      for (let i = 0; i < featureSet.length; i++) insert(featureSet[i] >>> 0, 1);
    },
    result() {
      const pairs: number[] = [];
      for (let i = 0; i < slots.length; i += 2) if (slots[i + 1] !== 0) pairs.push(i);
      const keys = new Uint32Array(size);
      for (let j = 0; j < pairs.length; j++) keys[j] = slots[pairs[j]];
      keys.sort();
      const counts = new Uint32Array(size);
      for (let j = 0; j < size; j++) counts[j] = lookup(slots, capacity, keys[j]);
      return { documents, keys, counts };
    },
  };
}

/** The count stored for `key` in an interleaved [key, count] table, 0 if absent. */
function lookup(slots: Uint32Array, capacity: number, key: number): number {
  const mask = capacity - 1;
  let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & mask;
  while (slots[2 * slot + 1] !== 0) {
    if (slots[2 * slot] === key) return slots[2 * slot + 1];
    slot = (slot + 1) & mask;
  }
  return 0;
}

/** Sums document frequencies counted separately (for example by several workers): a merge of sorted arrays. */
export function mergeDocumentFrequencies(parts: readonly DocumentFrequencies[]): DocumentFrequencies {
  let acc: DocumentFrequencies = { documents: 0, keys: new Uint32Array(0), counts: new Uint32Array(0) };
  for (const part of parts) acc = mergeTwo(acc, part);
  return acc;
}

function mergeTwo(a: DocumentFrequencies, b: DocumentFrequencies): DocumentFrequencies {
  const keys = new Uint32Array(a.keys.length + b.keys.length);
  const counts = new Uint32Array(keys.length);
  let i = 0, j = 0, n = 0;
  while (i < a.keys.length || j < b.keys.length) {
    if (j >= b.keys.length || (i < a.keys.length && a.keys[i] < b.keys[j])) {
      keys[n] = a.keys[i];
      counts[n++] = a.counts[i++];
    } else if (i >= a.keys.length || b.keys[j] < a.keys[i]) {
      keys[n] = b.keys[j];
      counts[n++] = b.counts[j++];
    } else {
      keys[n] = a.keys[i];
      counts[n++] = a.counts[i++] + b.counts[j++];
    }
  }
  return { documents: a.documents + b.documents, keys: keys.slice(0, n), counts: counts.slice(0, n) };
}

/**
 * Smoothed inverse document frequency, ln((1 + N) / (1 + df)) + 1 (as scikit-learn's default):
 * always >= 1, so every feature keeps a positive weight, and a feature unseen in the corpus gets the largest.
 */
export function inverseDocumentFrequency(documents: number, df: number): number {
  return Math.log((1 + documents) / (1 + df)) + 1;
}

/** A lookup from a feature key to its document frequency, built once per fingerprinter. */
export type DocumentFrequencyTable = { get(key: number): number; documents: number };

/** Builds an O(1) lookup over `DocumentFrequencies`. */
export function createDocumentFrequencyTable(df: DocumentFrequencies): DocumentFrequencyTable {
  let capacity = 16;
  while (capacity < df.keys.length * 2) capacity *= 2;
  const slots = new Uint32Array(2 * capacity);
  const mask = capacity - 1;
  for (let i = 0; i < df.keys.length; i++) {
    if (df.counts[i] === 0) continue;
    let slot = (Math.imul(df.keys[i], 0x9e3779b1) >>> 0) & mask;
    while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    slots[2 * slot] = df.keys[i];
    slots[2 * slot + 1] = df.counts[i];
  }
  return { documents: df.documents, get: (key) => lookup(slots, capacity, key >>> 0) };
}
