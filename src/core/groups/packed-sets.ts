/**
 * Feature sets packed in one array each, as they cross threads and are kept: plain sorted keys
 * (`PackedSets`) or encoded with core/groups/feature-set-codec.ts (`KeptSets`), and joining packed sets.
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

/**
 * Encoded feature sets named where they lie, not copied: set i (of `docs[i]`) is `length[i]` words from
 * word `at[i]` of `buffers[buffer[i]]`. The buffers are shared with every worker (SharedArrayBuffers,
 * which a post shares instead of copying), so a job names its kept sets without copying them on the
 * page's thread; each worker copies what it decodes into its own kernel's memory.
 */
export interface SharedSets {
  docs: Uint32Array;
  buffer: Uint32Array;
  at: Uint32Array;
  length: Uint32Array;
  buffers: SharedArrayBuffer[];
}

/** A job's encoded sets (verification, containment, chaining): the ones copied into it, and `shared` ones named by place. */
export interface JobSets extends KeptSets {
  shared?: SharedSets;
}

/** Set i of `shared`: a view of its words in their shared buffer. */
export function sharedSetWords(shared: SharedSets, i: number): Uint32Array {
  return new Uint32Array(shared.buffers[shared.buffer[i]], 4 * shared.at[i], shared.length[i]);
}

/** The sets `setOf(i)` (views of shared memory) of local items `local`, named by place (`SharedSets`): a few numbers a set, nothing copied. */
export function sharedSetsOf(local: readonly number[], setOf: (i: number) => Uint32Array): SharedSets {
  const n = local.length;
  const out: SharedSets = { docs: Uint32Array.from(local), buffer: new Uint32Array(n), at: new Uint32Array(n), length: new Uint32Array(n), buffers: [] };
  // Each batch's buffer named once, however many of its sets the job takes.
  const index = new Map<SharedArrayBuffer, number>();
  for (let s = 0; s < n; s++) {
    const set = setOf(local[s]);
    const buffer = set.buffer as SharedArrayBuffer;
    let b = index.get(buffer);
    if (b === undefined) index.set(buffer, (b = out.buffers.push(buffer) - 1));
    out.buffer[s] = b;
    out.at[s] = set.byteOffset >>> 2;
    out.length[s] = set.length;
  }
  return out;
}

/** Whether `buffer` is shared memory (false where SharedArrayBuffer does not exist: a page not cross-origin isolated). */
export function isSharedMemory(buffer: ArrayBufferLike): buffer is SharedArrayBuffer {
  return typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer;
}

/**
 * Per document: where its encoded feature set was spilled (the CLI's ingest threads, src/cli/set-spill.ts):
 * fd 0 when it was not (its size is the scan's `setSizes`, kept for every document).
 */
export interface SpilledSets {
  fd: Int32Array;
  at: Float64Array;
  words: Uint32Array;
}

/** Room for `count` documents' spill places, none spilled yet. */
export function allocateSpilledSets(count: number): SpilledSets {
  return { fd: new Int32Array(count), at: new Float64Array(count), words: new Uint32Array(count) };
}

/** `n` zeros, in shared memory with `shared`. */
function uint32s(n: number, shared: boolean): Uint32Array {
  return shared ? new Uint32Array(new SharedArrayBuffer(4 * n)) : new Uint32Array(n);
}

/**
 * Packs per-batch small sets (batch indexes already mapped to doc ids) into one; `shared`: in shared
 * memory (SharedArrayBuffers), so posting it to a worker shares it instead of copying it.
 */
export function concatSets(parts: readonly PackedSets[], shared = false): PackedSets {
  let docs = 0;
  let keys = 0;
  for (const p of parts) {
    docs += p.docs.length;
    keys += p.keys.length;
  }
  const out: PackedSets = { docs: uint32s(docs, shared), offsets: uint32s(docs + 1, shared), keys: uint32s(keys, shared) };
  let d = 0;
  let k = 0;
  for (const p of parts) {
    out.docs.set(p.docs, d);
    for (let i = 0; i < p.docs.length; i++) out.offsets[d + i + 1] = k + p.offsets[i + 1];
    out.keys.set(p.keys, k);
    d += p.docs.length;
    k += p.keys.length;
  }
  return out;
}

/** Two packed sets of disjoint documents, each ascending, as one ascending by document. */
export function mergePackedByDoc(x: PackedSets, y: PackedSets): PackedSets {
  const n = x.docs.length + y.docs.length;
  const out: PackedSets = { docs: new Uint32Array(n), offsets: new Uint32Array(n + 1), keys: new Uint32Array(x.keys.length + y.keys.length) };
  let i = 0;
  let j = 0;
  for (let o = 0; o < n; o++) {
    const fromX = j >= y.docs.length || (i < x.docs.length && x.docs[i] < y.docs[j]);
    const src = fromX ? x : y;
    const at = fromX ? i++ : j++;
    out.docs[o] = src.docs[at];
    out.keys.set(src.keys.subarray(src.offsets[at], src.offsets[at + 1]), out.offsets[o]);
    out.offsets[o + 1] = out.offsets[o] + src.offsets[at + 1] - src.offsets[at];
  }
  return out;
}

/** Packs (index, set) entries into one PackedSets. */
export function packSets(entries: Array<[number, Uint32Array]>): PackedSets {
  const docs = new Uint32Array(entries.length);
  const offsets = new Uint32Array(entries.length + 1);
  let total = 0;
  entries.forEach(([index, set], i) => {
    docs[i] = index;
    total += set.length;
    offsets[i + 1] = total;
  });
  const keys = new Uint32Array(total);
  entries.forEach(([, set], i) => keys.set(set, offsets[i]));
  return { docs, offsets, keys };
}
