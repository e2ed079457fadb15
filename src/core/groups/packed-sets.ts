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

/**
 * Packed sets joined as their parts arrive, `concatSets` of every part added so far, built as they come:
 * a scan's passages, which `concatSets` copied all at once into fresh memory at the start of the search
 * (on the page's thread, while the search waited), are copied batch by batch while files are read. In
 * shared memory only (room grows to the caller's expectation, or doubles; what is never written costs no page); unshared, the
 * parts are kept and joined by `packed`, since posting a view of a larger buffer copies all of it.
 */
export class PackedSetsJoin {
  private parts: PackedSets[] = [];
  private docs: Uint32Array = new Uint32Array(0);
  private offsets: Uint32Array = new Uint32Array(1);
  private keys: Uint32Array = new Uint32Array(0);
  private docCount = 0;
  private keysAdded = 0;

  constructor(private readonly shared: boolean) {}

  /** Documents added so far. */
  get count(): number {
    return this.docCount;
  }

  /** Keys added so far. */
  get keyCount(): number {
    return this.keysAdded;
  }

  /**
   * Appends `part` (its offsets from 0), as `concatSets` would put it after the parts before it.
   * `expectedKeys`: how many keys the caller expects in all, the room taken when the keys must grow
   * (at most 16 times those added: an estimate from a few parts can be far off).
   */
  add(part: PackedSets, expectedKeys = 0): void {
    const n = part.docs.length;
    const keys = this.keysAdded + part.keys.length;
    if (!this.shared) this.parts.push(part);
    else {
      if (this.docCount + n + 1 > this.offsets.length) {
        const room = Math.max(2 * this.offsets.length, this.docCount + n + 1);
        this.docs = grownShared(this.docs, room, this.docCount);
        this.offsets = grownShared(this.offsets, room, this.docCount + 1);
      }
      if (keys > this.keys.length) {
        const expected = Number.isFinite(expectedKeys) ? Math.min(expectedKeys, 16 * keys) : 0;
        this.keys = grownShared(this.keys, Math.max(2 * this.keys.length, keys, expected), this.keysAdded);
      }
      this.docs.set(part.docs, this.docCount);
      for (let i = 0; i < n; i++) this.offsets[this.docCount + i + 1] = this.keysAdded + part.offsets[i + 1];
      this.keys.set(part.keys, this.keysAdded);
    }
    this.docCount += n;
    this.keysAdded = keys;
  }

  /** Everything added: views of the join's shared memory (no copy; later adds leave them as they are), or unshared, the parts joined. */
  packed(): PackedSets {
    if (!this.shared) return concatSets(this.parts);
    return { docs: this.docs.subarray(0, this.docCount), offsets: this.offsets.subarray(0, this.docCount + 1), keys: this.keys.subarray(0, this.keysAdded) };
  }
}

/** `a`'s first `keep` entries in shared memory of `room` entries. */
function grownShared(a: Uint32Array, room: number, keep: number): Uint32Array {
  const next = uint32s(room, true);
  next.set(a.subarray(0, keep));
  return next;
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
