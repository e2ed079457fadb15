/**
 * Owns measuring candidate pairs: the exact Jaccard of every candidate not measured before (ingest
 * workers, from the feature sets kept from fingerprinting or by reading the two files again), the
 * cache of measured Jaccards (chaining checks: chain-check.ts). The main thread only cuts the
 * work into chunks, in time slices. Part of the one near-duplicate stage (near-duplicate-search.ts).
 */
import { transfer } from 'comlink';
import { sizesAllow } from '../core/groups/jaccard.ts';
import { encodedSetSize } from '../core/groups/feature-set-codec.ts';
import { SKETCH_BINS, sketchesAllow, sketchMatchFloor } from '../core/groups/minhash-sketch.ts';
import { localityOrder } from '../core/groups/pair-locality.ts';
import type { IngestItem } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { Candidates, SearchCorpus } from './search-corpus.ts';
import { readUpTo } from './read-file-bytes.ts';
import { docBlob, docSourceKind, type ScanDocs } from './scan-result.ts';
import { createTimeSlicer } from './yield-to-event-loop.ts';
import { isSharedMemory, sharedSetsOf, type JobSets } from '../core/groups/packed-sets.ts';

/** A verification chunk closes at this many documents, bytes or pairs (memory per worker stays small). */
export const CHUNK_DOCS = 256;
const CHUNK_BYTES = 8 * 1024 * 1024;
const CHUNK_PAIRS = 20_000;
/** A small job's chunks hold at least this many documents (a chunk's fixed cost: a post and a worker's turn). */
const MIN_CHUNK_DOCS = 32;
/** A set size not looked up yet (knownSetSize gives -1 for an unknown one). */
const UNKNOWN_SIZE = -2;

/** How many documents the pairs at `order` name. */
function distinctDocs(count: number, pairs: { a: ArrayLike<number>; b: ArrayLike<number> }, order: ArrayLike<number>): number {
  const seen = new Uint8Array(count);
  let distinct = 0;
  for (let t = 0; t < order.length; t++) {
    const p = order[t];
    if (!seen[pairs.a[p]]) (seen[pairs.a[p]] = 1), distinct++;
    if (!seen[pairs.b[p]]) (seen[pairs.b[p]] = 1), distinct++;
  }
  return distinct;
}

/**
 * A candidate's "Jaccard" when a bound rejected it before measuring (the size bound `sizesAllow`, or the
 * sketches, `sketchesAllow`): below the threshold of that verification, never remembered, shown or
 * saved as a measured value, and decided again (bound or measure) by the next verification at
 * whatever threshold that one has. NaN stays "not measured" (could not be read).
 */
export const BOUND_REJECTED = -1;

/** Whether a candidate's value is a measured Jaccard (not NaN, not BOUND_REJECTED). */
export function isMeasured(jaccard: number): boolean {
  return jaccard >= 0;
}

/**
 * Whether a document's contents can be read: a saved corpus restored without kept contents gives its
 * documents the shared `noContents()` File although they had text. Such a document is never measured
 * (its Jaccard would come out 0, and a verdict saved before would be overwritten by a wrong one).
 * Never `file.size`: on a folder-input File that is a synchronous IPC, paid per candidate pair.
 */
export function contentsReadable(docs: ScanDocs, d: number): boolean {
  return docSourceKind(docs, d) !== 'none' || docs.sizes[d] === 0;
}

const READ_CONCURRENCY = 16;

/** A verification or chaining job's documents, ready to transfer: items to read, and the kept sets of the others. */
export interface LoadedChunk {
  items: IngestItem[];
  buffers: ArrayBuffer[];
  kept: JobSets;
  /** Documents that had to be read again (no kept set). */
  read: number;
}

/**
 * Prepares the documents `ids` for a job in an ingest worker: a document with a kept feature set is
 * sent as that set (copied into one packed array: posting a view would copy its whole batch buffer);
 * the others' files are read here, asynchronously, and sent as bytes. Why not post the Files:
 * structured-cloning a File from a folder input fetches its metadata with a synchronous IPC (a chunk
 * of them made long tasks); `readUpTo` (file.stream()) never blocks. A file the ingest threads read
 * themselves (the CLI's files on disk: `workers.diskRef`) goes as its path, so this thread reads none.
 */
export async function loadChunk(corpus: Pick<SearchCorpus, 'docs' | 'keptSets' | 'spilledSets'>, ids: readonly number[], workers: Pick<ScanWorkers, 'readLimit' | 'diskRef'>): Promise<LoadedChunk> {
  const { readLimit, diskRef } = workers;
  const { docs, keptSets } = corpus;
  const items: IngestItem[] = new Array(ids.length);
  const toRead: number[] = [];
  const keptLocal: number[] = [];
  const sharedLocal: number[] = [];
  let words = 0;
  const spilled = corpus.spilledSets;
  for (let i = 0; i < ids.length; i++) {
    const d = ids[i];
    const set = keptSets?.[d];
    items[i] = { name: docs.paths[d] };
    if (set && isSharedMemory(set.buffer)) sharedLocal.push(i);
    else if (set) {
      keptLocal.push(i);
      words += set.length;
    } else if (spilled && spilled.fd[d] !== 0) items[i].spilled = { fd: spilled.fd[d], at: spilled.at[d], words: spilled.words[d] };
    else toRead.push(i);
  }
  const kept: JobSets = { docs: Uint32Array.from(keptLocal), offsets: new Uint32Array(keptLocal.length + 1), words: new Uint32Array(words) };
  let at = 0;
  keptLocal.forEach((i, s) => {
    const set = keptSets![ids[i]]!;
    kept.words.set(set, at);
    at += set.length;
    kept.offsets[s + 1] = at;
  });
  const buffers = [kept.docs.buffer, kept.offsets.buffer, kept.words.buffer] as ArrayBuffer[];
  if (sharedLocal.length > 0) {
    kept.shared = sharedSetsOf(sharedLocal, (i) => keptSets![ids[i]]!);
    buffers.push(...([kept.shared.docs, kept.shared.buffer, kept.shared.at, kept.shared.length].map((a) => a.buffer) as ArrayBuffer[]));
  }
  let next = 0;
  const lane = async () => {
    while (next < toRead.length) {
      const i = toRead[next++];
      const file = await docBlob(docs, ids[i]).catch((error: unknown) => {
        // Could not be opened again (moved, deleted): the worker reports it unreadable.
        items[i].error = error instanceof Error ? error.message : String(error);
        return null;
      });
      if (!file) continue;
      const disk = diskRef?.(file) ?? null;
      if (disk && disk.size <= readLimit) {
        items[i].disk = disk;
        continue;
      }
      const read = await readUpTo(file, readLimit);
      if (read.kind === 'bytes') {
        items[i].bytes = read.bytes;
        buffers.push(read.bytes.buffer as ArrayBuffer);
      } else if (read.kind === 'large') items[i].file = file; // the worker reads it
      else items[i].error = read.message; // never posted: the CLI's files cannot cross to a thread
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, toRead.length) }, lane));
  return { items, buffers, kept, read: toRead.length };
}

/** A document's feature-set size when known without reading it (its kept set, or a saved size), else -1. */
export function knownSetSize(corpus: Pick<SearchCorpus, 'keptSets' | 'setSizes'>, d: number): number {
  const set = corpus.keptSets?.[d];
  if (set) return encodedSetSize(set);
  const saved = corpus.setSizes?.[d] ?? 0;
  return saved > 0 ? saved : -1;
}

/**
 * The candidates to measure (positions, in candidate order): those not measured before that neither
 * bound rejects (these are marked BOUND_REJECTED) and whose two documents can be read.
 */
async function boundPass(
  corpus: SearchCorpus,
  candidates: Candidates,
  threshold: number,
  slice: () => Promise<void> | null,
  signal: AbortSignal,
): Promise<{ todo: Uint32Array; sizeRejected: number; sketchRejected: number }> {
  const { docs } = corpus;
  const { pairs, jaccard } = candidates;
  // Each document's known set size, looked up once (UNKNOWN_SIZE until then).
  const sizeOf = new Int32Array(docs.count).fill(UNKNOWN_SIZE);
  const knownSize = (d: number): number => {
    let size = sizeOf[d];
    if (size === UNKNOWN_SIZE) sizeOf[d] = size = knownSetSize(corpus, d);
    return size;
  };
  // Each document's readability likewise (0: not looked up, 1: readable, 2: not).
  const readableOf = new Uint8Array(docs.count);
  const readable = (d: number): boolean => {
    if (readableOf[d] === 0) readableOf[d] = contentsReadable(docs, d) ? 1 : 2;
    return readableOf[d] === 1;
  };
  // First the pairs to measure: the size bound and readability decide the others.
  const todo = new Uint32Array(pairs.count);
  let toMeasure = 0;
  let sizeRejected = 0;
  let sketchRejected = 0;
  const sketches = corpus.sketches;
  const floor = sketches ? sketchMatchFloor(threshold) : null;
  for (let p = 0; p < pairs.count; p++) {
    if ((p & 4095) === 4095) {
      const pause = slice();
      if (pause) await pause;
      signal.throwIfAborted();
    }
    if (isMeasured(jaccard[p])) continue;
    // The size bound first, from the kept sets' key counts (or sizes saved without the sets): exact, so no pair that could reach the threshold is lost.
    const sizeA = knownSize(pairs.a[p]);
    const sizeB = knownSize(pairs.b[p]);
    if (sizeA >= 0 && sizeB >= 0 && !sizesAllow(sizeA, sizeB, threshold)) {
      jaccard[p] = BOUND_REJECTED;
      sizeRejected++;
      continue;
    }
    // Then the sketches (every fingerprinted document has one; an unknown one allows the pair).
    if (floor && !sketchesAllow(sketches!, pairs.a[p] * SKETCH_BINS, sketches!, pairs.b[p] * SKETCH_BINS, floor)) {
      jaccard[p] = BOUND_REJECTED;
      sketchRejected++;
      continue;
    }
    jaccard[p] = Number.NaN; // a pair the bound rejected at a higher threshold is measured now
    // Left unknown (NaN: not accepted, not remembered) rather than measured against nothing.
    if (readable(pairs.a[p]) && readable(pairs.b[p])) todo[toMeasure++] = p;
  }
  return { todo: todo.subarray(0, toMeasure), sizeRejected, sketchRejected };
}

/**
 * Measures the exact Jaccard of every candidate not measured yet, in the ingest workers. A document's
 * feature set comes from `corpus.keptSets` (kept from fingerprinting, within the scan's budget, see
 * scan-session.ts) or, without one, from reading its file again. When both documents' set sizes are known
 * (kept sets, or sizes a saved corpus kept: `knownSetSize`): a pair they show cannot reach `threshold`
 * (`sizesAllow`) is marked BOUND_REJECTED instead, with nothing sent or merged; so is a pair whose two
 * MinHash sketches (`corpus.sketches`, every fingerprinted document's) rule it out (`sketchesAllow`:
 * a pair at the threshold is lost with probability below 1e-9). Pairs are cut into
 * chunks along the candidate graph (`localityOrder`), so a document's neighbours mostly share its
 * chunk and its set is sent and decoded once or twice, not once per neighbour. `docsRead` counts
 * the files read again; `sizeRejected` and `sketchRejected` the pairs each bound decided.
 */
export async function verifyCandidates(
  workers: ScanWorkers,
  signal: AbortSignal,
  corpus: SearchCorpus,
  candidates: Candidates,
  threshold: number,
): Promise<{ measured: number; docsRead: number; sizeRejected: number; sketchRejected: number }> {
  const { docs, settings } = corpus;
  const { pairs, jaccard } = candidates;
  const slice = createTimeSlicer();
  // A chunk's documents: ids[i] is local document i; localIndex[d] is d's local index while stamp[d] is the chunk's.
  const localIndex = new Uint32Array(docs.count);
  const stamp = new Uint32Array(docs.count);
  let chunkNo = 1;
  let ids: number[] = [];
  // A chunk's pairs (local indices) and their candidate positions, up to CHUNK_PAIRS.
  const la = new Uint32Array(CHUNK_PAIRS);
  const lb = new Uint32Array(CHUNK_PAIRS);
  const index = new Uint32Array(CHUNK_PAIRS);
  let chunkPairs = 0;
  let bytes = 0;
  let measured = 0;
  let docsRead = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  const maxInFlight = workers.ingest.size * 2;
  const flush = () => {
    if (chunkPairs === 0) return;
    const chunkIndex = index.slice(0, chunkPairs);
    const chunkIds = ids;
    const localPairs = { a: la.slice(0, chunkPairs), b: lb.slice(0, chunkPairs), count: chunkPairs };
    const task = loadChunk(corpus, chunkIds, workers)
      .then((loaded) => {
        docsRead += loaded.read;
        return workers.ingest.run(signal, (api) => api.verifyPairs(transfer(loaded.items, loaded.buffers), localPairs, settings, undefined, loaded.kept));
      })
      .then((values) => {
        for (let i = 0; i < chunkIndex.length; i++) jaccard[chunkIndex[i]] = values[i];
        measured += chunkIndex.length;
      })
      .catch((error: unknown) => void (failure ??= error))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
    chunkNo++;
    ids = [];
    chunkPairs = 0;
    bytes = 0;
  };
  const localOf = (d: number): number => {
    if (stamp[d] === chunkNo) return localIndex[d];
    const i = ids.length;
    stamp[d] = chunkNo;
    localIndex[d] = i;
    ids.push(d);
    // A kept set is about a third of its text (the chunk's bytes bound a worker's memory either way).
    const set = corpus.keptSets?.[d];
    const spilled = corpus.spilledSets?.fd[d] ? 4 * corpus.spilledSets.words[d] : -1;
    bytes += set ? set.byteLength : spilled >= 0 ? spilled : docs.sizes[d];
    return i;
  };
  const { todo, sizeRejected, sketchRejected } = await boundPass(corpus, candidates, threshold, slice, signal);
  // Chunks follow the candidate graph, so a document's set goes to few chunks (pair-locality.ts).
  const order = localityOrder(docs.count, pairs.a, pairs.b, todo);
  // A small job (a cached rescan's few hundred documents) is cut into a chunk per worker, not one chunk for one of them.
  const chunkDocs = Math.min(CHUNK_DOCS, Math.max(MIN_CHUNK_DOCS, Math.ceil(distinctDocs(docs.count, pairs, order) / workers.ingest.size)));
  for (let t = 0; t < order.length; t++) {
    const p = order[t];
    la[chunkPairs] = localOf(pairs.a[p]);
    lb[chunkPairs] = localOf(pairs.b[p]);
    index[chunkPairs++] = p;
    if (ids.length >= chunkDocs || bytes >= CHUNK_BYTES || chunkPairs >= CHUNK_PAIRS) {
      flush();
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      if (failure !== null) throw failure;
    }
    if ((t & 255) === 255) {
      const pause = slice();
      if (pause) await pause;
      signal.throwIfAborted();
    }
  }
  flush();
  while (inFlight.size > 0) await Promise.race(inFlight);
  if (failure !== null) throw failure;
  return { measured, docsRead, sizeRejected, sketchRejected };
}

/** Adds the candidates' measured Jaccards (never NaN or BOUND_REJECTED) to the corpus' cache (a merge of two (a, b)-sorted lists). */
export function rememberJaccards(corpus: SearchCorpus, candidates: Candidates): void {
  const old = corpus.known;
  const { pairs, jaccard } = candidates;
  // A restore from saved pairs hands the cache in as the candidates: nothing to add.
  if (pairs.a === old.a && pairs.b === old.b && jaccard === old.jaccard) return;
  const cap = old.count + pairs.count;
  const a = new Uint32Array(cap);
  const b = new Uint32Array(cap);
  const j = new Float64Array(cap);
  let i = 0;
  let q = 0;
  let w = 0;
  while (i < old.count || q < pairs.count) {
    const takeOld =
      q >= pairs.count || (i < old.count && (old.a[i] < pairs.a[q] || (old.a[i] === pairs.a[q] && old.b[i] <= pairs.b[q])));
    if (takeOld) {
      if (q < pairs.count && old.a[i] === pairs.a[q] && old.b[i] === pairs.b[q]) q++; // same pair: keep one
      a[w] = old.a[i];
      b[w] = old.b[i];
      j[w++] = old.jaccard[i++];
    } else {
      if (isMeasured(jaccard[q])) {
        a[w] = pairs.a[q];
        b[w] = pairs.b[q];
        j[w++] = jaccard[q];
      }
      q++;
    }
  }
  corpus.known = { a: a.slice(0, w), b: b.slice(0, w), jaccard: j.slice(0, w), count: w };
}
