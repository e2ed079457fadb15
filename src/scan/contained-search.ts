/**
 * Owns the containment stage, run after the near-duplicate stage on every path (scan, merge into the
 * saved corpus, cached CLI scan, regroup): "A is contained in B" between distinct texts. Candidates
 * come from the sampled passages the ingest workers return while fingerprinting (index worker); the
 * exact counts |A ∩ B|, |A|, |B| from the ingest workers (kept feature sets, or the files read again),
 * remembered in the search corpus so a regroup measures only pairs it never measured.
 */
import { transfer } from 'comlink';
import { ContainedBuffer, DEFAULT_CONTAINMENT, emptyPairs, nameByFirstCopy, type ContainedRelation, type ContainmentCandidates } from '../core/groups/contained-pairs.ts';
import { hamming } from '../core/simhash/fingerprint64.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { SearchCorpus } from './search-corpus.ts';
import { keptSetSizes, knownCounts, measuringOrder, NEAR_DUPLICATE, noKnownContainment, remember } from './containment-counts.ts';
import { contentsReadable, loadChunk } from './verify-candidates.ts';
import { concatSets, mergePackedByDoc, type PackedSets } from '../core/groups/packed-sets.ts';

/** A relation without contained pairs. */
export function noContained(): ContainedRelation {
  return { ...emptyPairs(), distance: new Uint8Array(0) };
}

/** A chunk of texts to sample passages from closes at this many documents (as verification's chunks). */
const CHUNK_DOCS = 256;

/**
 * A measuring chunk decodes each set it names once, into its worker's memory: chunks cut by the keys
 * they decode (not by documents) let a dense web of pairs decode each set about once a worker. At most
 * this many keys (4 bytes decoded, about 3 encoded), pairs, and documents read again (no kept set).
 */
const CHUNK_KEYS = 1 << 22;
const CHUNK_PAIRS = 1 << 18;
const CHUNK_READS = 256;

/**
 * Each worker's first measuring chunk holds this part of the bounds: a worker waits while its first
 * chunk's sets are copied on the page's thread, so the first ones are small and the rest follow behind.
 */
const FIRST_PART = 8;

/** A job of fewer pairs a worker than this is not ramped: its chunks are cheap to copy anyway. */
const RAMP_PAIRS = 4096;

/** Where a measuring chunk closes (`containmentChunk`); `sizes[d]`: d's kept set's size, 0 for a set read again (one entry a document). */
export interface ChunkLimits {
  keys: number;
  pairs: number;
  reads: number;
  sizes: ArrayLike<number>;
  /** The first `firstChunks` chunks close at a `FIRST_PART` of `keys` and at `firstPairs` pairs. */
  firstChunks: number;
  firstPairs: number;
}

/**
 * The limits of the measuring chunks of `pairs` pairs among `workers` workers: no chunk above the
 * memory bounds, and a small job cut into one chunk a worker (each then decodes a set once at most); a
 * larger job begins with one small chunk a worker, so each starts after a small copy.
 */
export function measuringLimits(pairs: number, workers: number, sizes: ArrayLike<number>): ChunkLimits {
  const w = Math.max(1, workers);
  const share = Math.ceil(pairs / w);
  const ramp = share >= RAMP_PAIRS;
  const firstPairs = ramp ? Math.ceil(share / FIRST_PART) : share;
  const rest = ramp ? Math.ceil((pairs - firstPairs * w) / w) : share;
  return {
    keys: CHUNK_KEYS,
    pairs: Math.max(1, Math.min(CHUNK_PAIRS, rest)),
    reads: CHUNK_READS,
    sizes,
    firstChunks: ramp ? w : 0,
    firstPairs: Math.max(1, Math.min(CHUNK_PAIRS, firstPairs)),
  };
}

/**
 * The passages of the corpus' distinct texts: each document's passages stand for its representative
 * (the first seen, when several copies were fingerprinted in different workers), others are left out.
 */
function representativePassages(corpus: SearchCorpus, passages: PackedSets): PackedSets {
  const { representative, docs } = corpus;
  const taken = new Uint8Array(docs.count);
  const keep = new Uint32Array(passages.docs.length);
  let n = 0;
  let keys = 0;
  let same = true;
  for (let i = 0; i < passages.docs.length; i++) {
    const r = representative[passages.docs[i]];
    if (r < 0 || docs.status[r] !== DocStatus.ok || taken[r]) {
      same = false;
      continue;
    }
    taken[r] = 1;
    same &&= r === passages.docs[i];
    keep[n++] = i;
    keys += passages.offsets[i + 1] - passages.offsets[i];
  }
  // Every document its own text's representative (a first scan): nothing to copy.
  if (same) return passages;
  const out: PackedSets = { docs: new Uint32Array(n), offsets: new Uint32Array(n + 1), keys: new Uint32Array(keys) };
  for (let j = 0; j < n; j++) {
    const i = keep[j];
    out.docs[j] = representative[passages.docs[i]];
    out.keys.set(passages.keys.subarray(passages.offsets[i], passages.offsets[i + 1]), out.offsets[j]);
    out.offsets[j + 1] = out.offsets[j] + passages.offsets[i + 1] - passages.offsets[i];
  }
  return out;
}

/**
 * `passages` with every exact copy given its original's passages (a copy is not fingerprinted, so it
 * has none): a merge may drop the original and leave the copy to stand for the text.
 */
export function passagesWithCopies(passages: PackedSets, representative: Int32Array): PackedSets {
  const n = representative.length;
  const at = new Int32Array(n).fill(-1);
  for (let i = 0; i < passages.docs.length; i++) at[passages.docs[i]] = i;
  const source = new Int32Array(n).fill(-1);
  let docs = 0;
  let keys = 0;
  for (let d = 0; d < n; d++) {
    const i = at[d] >= 0 ? at[d] : representative[d] >= 0 ? at[representative[d]] : -1;
    if (i < 0) continue;
    source[d] = i;
    docs++;
    keys += passages.offsets[i + 1] - passages.offsets[i];
  }
  if (docs === passages.docs.length) return passages;
  const out: PackedSets = { docs: new Uint32Array(docs), offsets: new Uint32Array(docs + 1), keys: new Uint32Array(keys) };
  let j = 0;
  for (let d = 0; d < n; d++) {
    const i = source[d];
    if (i < 0) continue;
    out.docs[j] = d;
    out.keys.set(passages.keys.subarray(passages.offsets[i], passages.offsets[i + 1]), out.offsets[j]);
    out.offsets[j + 1] = out.offsets[j] + passages.offsets[i + 1] - passages.offsets[i];
    j++;
  }
  return out;
}

/**
 * The chunk number `chunk` of candidates `todo` (indexes), starting at `from`, closed at `limits`: its documents (`ids`,
 * their sets sent once) and pairs (`pairs` in local ids; `index` their candidate indexes).
 */
export function containmentChunk(candidates: ContainmentCandidates, todo: ArrayLike<number>, from: number, limits: ChunkLimits, chunk: number): { ids: number[]; pairs: { a: Uint32Array; b: Uint32Array; count: number }; index: number[]; next: number } {
  // Each document's local id + 1 (0: not in the chunk yet): a lookup a pair without hashing.
  const local = new Uint32Array(limits.sizes.length);
  const ids: number[] = [];
  const la: number[] = [];
  const lb: number[] = [];
  const index: number[] = [];
  let keys = 0;
  let reads = 0;
  const localOf = (d: number) => {
    if (local[d] === 0) {
      local[d] = ids.push(d);
      const size = limits.sizes[d];
      keys += size;
      reads += +(size === 0);
    }
    return local[d] - 1;
  };
  const first = chunk < limits.firstChunks;
  const maxKeys = first ? Math.ceil(limits.keys / FIRST_PART) : limits.keys;
  const maxPairs = first ? limits.firstPairs : limits.pairs;
  let at = from;
  for (; at < todo.length && keys < maxKeys && reads < limits.reads && index.length < maxPairs; at++) {
    const p = todo[at];
    la.push(localOf(candidates.inner[p]));
    lb.push(localOf(candidates.outer[p]));
    index.push(p);
  }
  return { ids, pairs: { a: Uint32Array.from(la), b: Uint32Array.from(lb), count: la.length }, index, next: at };
}

/**
 * Runs `chunk(from, c)` for the chunks of some work (the c-th returns where the next starts, or `end`, its
 * task, and when its sets are loaded) a bounded number at a time, as verification's: each holds its documents' feature sets, and all
 * of a large scan's at once were the whole corpus's sets copied again (twice the peak memory). The next
 * chunk is cut once this one is loaded (and posted): cut at once, a worker waited for the copies of all
 * the chunks in flight before its first.
 */
export async function inChunks(workers: ScanWorkers, signal: AbortSignal, end: number, chunk: (from: number, c: number) => { next: number; task: Promise<void>; loaded: Promise<unknown> }): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = workers.ingest.size * 2;
  for (let from = 0, c = 0; from < end; c++) {
    while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    signal.throwIfAborted();
    const { next, task, loaded } = chunk(from, c);
    from = next;
    // A failed chunk rejects the race and the search with it; it leaves the set either way.
    const tracked = task.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    // Its failure is the task's, met by the race or the end.
    await loaded.catch(() => {});
  }
  await Promise.all(inFlight);
}

/**
 * Measures the candidates `todo` (indexes) in the ingest workers at `threshold`: their counts, in
 * `counts` (3 a pair; -1s stay where nothing could be read; below the threshold, `COUNT_BELOW` | a bound).
 */
function measure(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus, candidates: ContainmentCandidates, todo: Uint32Array, counts: Float64Array, threshold: number, sizes: Uint32Array): Promise<void> {
  const limits = measuringLimits(todo.length, workers.ingest.size, sizes);
  return inChunks(workers, signal, todo.length, (from, c) => {
    const { ids, pairs, index, next } = containmentChunk(candidates, todo, from, limits, c);
    const load = loadChunk(corpus, ids, workers);
    const task = load
      .then((loaded) => workers.ingest.run(signal, (api) => api.measureContainment(transfer(loaded.items, loaded.buffers), pairs, threshold, corpus.settings, undefined, loaded.kept)))
      .then((measured) => {
        // Three values a pair copied as they are: a subarray a pair was an allocation a pair.
        for (let i = 0; i < index.length; i++) {
          const p = index[i];
          counts[3 * p] = measured[3 * i];
          counts[3 * p + 1] = measured[3 * i + 1];
          counts[3 * p + 2] = measured[3 * i + 2];
        }
      });
    return { next, task, loaded: load };
  });
}

/**
 * The corpus' distinct texts without sampled passages that can get them: each text's set kept from
 * fingerprinting, or its contents at hand. All of them in a corpus fingerprinted without containment;
 * in a merge, the saved documents of a corpus saved without it (a scan now reads only the changed files).
 */
export function textsWithoutPassages(corpus: SearchCorpus): number[] {
  const has = new Uint8Array(corpus.docs.count);
  const p = corpus.passages;
  if (p) for (let i = 0; i < p.docs.length; i++) if (corpus.representative[p.docs[i]] >= 0) has[corpus.representative[p.docs[i]]] = 1;
  return Array.from(corpus.reps).filter((d) => !has[d] && (corpus.keptSets?.[d] || contentsReadable(corpus.docs, d)));
}

/**
 * The sampled passages of the texts `texts` (ascending doc ids): sampled from each text's feature set
 * in the ingest workers, a chunk at a time, the set kept from fingerprinting or the contents read
 * again (the copy kept in this browser, or the file). No fingerprinting, and nothing on the page's
 * thread but the reading.
 */
async function passagesOfTexts(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus, texts: readonly number[]): Promise<PackedSets> {
  const parts: PackedSets[] = [];
  await inChunks(workers, signal, texts.length, (from) => {
    const ids = texts.slice(from, from + CHUNK_DOCS);
    const load = loadChunk(corpus, ids, workers);
    const task = load
      .then((loaded) => workers.ingest.run(signal, (api) => api.passagesOf(transfer(loaded.items, loaded.buffers), corpus.settings, undefined, loaded.kept)))
      .then((p) => void (parts[from / CHUNK_DOCS] = { ...p, docs: p.docs.map((i) => ids[i]) }));
    return { next: from + ids.length, task, loaded: load };
  });
  return concatSets(parts);
}

/**
 * The corpus' passages with those of the texts that have none sampled (`textsWithoutPassages`): the
 * whole corpus when containment is turned on after a scan without it, the saved part of a merge into a
 * corpus saved without it. A text whose contents are not at hand gets none (it takes no part).
 */
async function completePassages(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus): Promise<PackedSets> {
  const texts = textsWithoutPassages(corpus);
  const have = corpus.passages;
  if (texts.length === 0 && have) return have;
  const sampled = await passagesOfTexts(workers, signal, corpus, texts);
  return have ? mergePackedByDoc(have, sampled) : sampled;
}

/** 0, 1, .. count - 1. */
function identity(count: number): Uint32Array {
  const all = new Uint32Array(count);
  for (let i = 0; i < count; i++) all[i] = i;
  return all;
}

/** The containment stage's first half, started (`startContained`): its candidates, searched in the index worker. */
export interface ContainedStart {
  threshold: number;
  jaccardThreshold: number;
  /** Null: nothing to search (off, or under two texts with passages). `order`: every candidate, in `measuringOrder`. */
  found: Promise<{ candidates: ContainmentCandidates; sizes: Uint32Array; order: Uint32Array } | null>;
}

/**
 * Starts the containment stage's candidate search (the index worker's passage index, which needs no
 * near-duplicate result), so it runs while the ingest workers verify near-duplicates: it ran alone
 * after grouping, one thread busy of the machine's. `finishContained` measures what it finds.
 */
export function startContained(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus, threshold: number, jaccardThreshold: number): ContainedStart {
  const search = async () => {
    if (!(threshold > 0)) return null;
    // Texts fingerprinted without containment get their passages from their feature sets, kept for the result.
    corpus.passages = await completePassages(workers, signal, corpus);
    if (corpus.passages.docs.length < 2) return null;
    const passages = representativePassages(corpus, corpus.passages);
    const options = { ...DEFAULT_CONTAINMENT, threshold, jaccardThreshold };
    const sizes = keptSetSizes(corpus);
    const candidates = await workers.index.call(signal, (api) => api.containmentCandidates({ n: corpus.docs.count, passages, options, sizes }));
    // Ordered now, while the near-duplicates are verified, not after with the workers waiting; the
    // pairs left to measure then keep this order.
    const order = measuringOrder(candidates, identity(candidates.count), corpus.docs.count);
    return { candidates, sizes, order };
  };
  const found = search();
  // Awaited by finishContained; a failure while the caller awaits something else is not unhandled.
  found.catch(() => {});
  return { threshold, jaccardThreshold, found };
}

/**
 * The contained pairs of `corpus` at `threshold` (0: none), leaving pairs at or above the
 * near-duplicate threshold `jaccardThreshold` to the near-duplicate relation. Searches the corpus'
 * sampled passages (`corpus.passages`, computed here when it has none); documents without them take no part. Remembers every count it
 * measures in `corpus.containment`: exact ones at or above `threshold`, and below it the bound the
 * measuring stopped at (`COUNT_BELOW`), measured again only by a regroup whose threshold it could reach.
 */
export async function searchContained(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus, threshold: number, jaccardThreshold: number): Promise<ContainedRelation> {
  return finishContained(workers, signal, corpus, startContained(workers, signal, corpus, threshold, jaccardThreshold));
}

/**
 * The second half of `searchContained`, after `startContained`: counts known from before and from the
 * near-duplicate stage's Jaccards (so after verification), the rest measured in the ingest workers.
 */
export async function finishContained(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus, start: ContainedStart): Promise<ContainedRelation> {
  const { threshold, jaccardThreshold } = start;
  const search = await start.found;
  if (!search) return noContained();
  const { candidates, sizes, order } = search;
  const options = { ...DEFAULT_CONTAINMENT, threshold, jaccardThreshold };
  const known = corpus.containment ?? noKnownContainment();
  const counts = new Float64Array(3 * candidates.count);
  const at = knownCounts(candidates, known, corpus.known, sizes, counts, threshold, jaccardThreshold);
  const todo = new Uint32Array(order.length);
  let left = 0;
  for (let t = 0; t < order.length; t++) {
    const p = order[t];
    if (counts[3 * p + 1] > 0 || at[p] === NEAR_DUPLICATE) continue;
    if (contentsReadable(corpus.docs, candidates.inner[p]) && contentsReadable(corpus.docs, candidates.outer[p])) todo[left++] = p;
  }
  await measure(workers, signal, corpus, candidates, todo.subarray(0, left), counts, threshold, sizes);
  corpus.containment = remember(known, candidates, at, counts);
  const found = new ContainedBuffer();
  for (let p = 0; p < candidates.count; p++) found.judge(candidates.inner[p], candidates.outer[p], counts[3 * p], counts[3 * p + 1], counts[3 * p + 2], options);
  const pairs = nameByFirstCopy(found.pairs(), corpus.representative);
  const distance = new Uint8Array(pairs.count);
  const { hi, lo } = corpus.docs;
  for (let i = 0; i < pairs.count; i++) distance[i] = hamming(hi[pairs.inner[i]], lo[pairs.inner[i]], hi[pairs.outer[i]], lo[pairs.outer[i]]);
  return { ...pairs, distance };
}
