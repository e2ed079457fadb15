/**
 * The ingest worker's API: takes a batch of files (bytes the main thread read, or Blobs read here),
 * turns each into the UTF-8 of its normalized compared text (core documentUtf8: documents extracted,
 * text through documentText's decode and HTML rule, then normalizeText, mostly without making a string), hashes those bytes with
 * XXH64 (xxhash-wasm) for exact duplicates and fingerprints each distinct text once, always whole.
 * Results go back as typed arrays.
 */
import xxhash, { type XXHashAPI } from 'xxhash-wasm';
import { transfer } from 'comlink';
import { createUtf8Buffer, type Utf8Buffer } from '../core/text/normalized-utf8.ts';
import { documentUtf8 } from '../core/text/document-utf8.ts';
import type { Extractor } from '../core/text/documents/extract-document.ts';
import { createWorkerExtractor } from './extraction-worker.ts';
import type { SpawnedWorker } from './worker-bridge.ts';
import { createFingerprinter, type Fingerprinter } from '../core/simhash/fingerprinter.ts';
import { createDocumentFrequencyCounter, type DocumentFrequencies, type DocumentFrequencyCounter } from '../core/simhash/document-frequencies.ts';
import { chunkContainmentCounts, chunkJaccards } from '../core/groups/set-jaccard.ts';
import { PassageCollector } from '../core/groups/contained-pairs.ts';
import { decodeFeatureSet } from '../core/groups/feature-set-codec.ts';
import { batchColumns, KeptSetArena } from './batch-arena.ts';
import { DOC_COLUMN_NAMES, docColumnBuffers } from '../core/documents/doc-columns.ts';
import { detectChaining } from '../core/groups/components.ts';
import { UNKNOWN_DISTANCE, type GroupTable } from '../core/groups/group-table.ts';
import { hiOf, loOf } from '../core/simhash/fingerprint64.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DEFAULT_INGEST_LIMITS, type HandleBatchResult, type BatchSkip, type IngestBatchOptions, type IngestBatchResult, type IngestItem, type IngestLimits, SMALL_SET_WORDS, type ChainJob, type ChainJobResult, type LocalPairs } from './ingest-protocol.ts';
import { DocFlag, DocStatus, EXTRACTION_STATUS, formatFlags, invalidUtf8Message, skipMessage, tooLargeMessage, tooShortMessage } from '../core/documents/document-status.ts';
import { claimHash } from './claimed-hashes.ts';
import { pairsApi } from './pairs-api.ts';
import { createPathOpener, describeHandleError, walkHandles, type EntryHandle, type HandleListing, type WalkOptions } from './directory-handles.ts';
import type { KeptSets, PackedSets } from '../core/groups/packed-sets.ts';

/** Why a file has no text (`flags`: its format, when it is a document that could not be read). */
type NoText = { ok: false; status: number; skip: BatchSkip['reason']; message: string; flags?: number };

/**
 * The normalized text of one file (its UTF-8 in the worker's buffer: valid until the next file is
 * decoded, so each is used at once) and its content hash, or why there is none.
 */
type FileText = { ok: true; utf8: Uint8Array; ascii: boolean; hashHi: number; hashLo: number; flags: number; invalidBytes: number } | NoText;

/** One file's bytes as read, or why there are none. */
type FileBytes = { ok: true; bytes: Uint8Array } | NoText;

interface CachedPrint {
  status: number;
  hi: number;
  lo: number;
  words: number;
  /** The feature set when the document is small (see SMALL_SET_WORDS). */
  set: Uint32Array | null;
}

// WASM is compiled once per worker; every batch awaits the same promise.
let xxhashPromise: Promise<XXHashAPI> | null = null;

/** How this worker extracts documents: in its own thread by default; in a worker of their own once `useExtractionWorker` is called. */
let extractor: Extractor | undefined;

/**
 * Extracts documents in workers made by `spawn` (extraction-worker.ts), so that one past its time limit
 * is stopped by terminating its worker. The worker files call it; tests calling the API in-process do not.
 */
export function useExtractionWorker(spawn: () => SpawnedWorker): void {
  extractor = createWorkerExtractor(spawn);
}
// The normalized text of the file being fingerprinted; reused from file to file.
const normalized = createUtf8Buffer();
let normalizedInUse = false;
// The encoded feature sets of the batch being fingerprinted; reused from batch to batch.
const keptArena = new KeptSetArena();
let keptArenaInUse = false;
function getXxhash(): Promise<XXHashAPI> {
  xxhashPromise ??= xxhash();
  return xxhashPromise;
}

// One fingerprinter per settings, and a cache of fingerprints by content hash: identical texts
// that land in this worker are fingerprinted once. Bounded so a long session cannot grow it forever.
let fingerprinterKey = '';
let fingerprinter: Fingerprinter | null = null;
const printsByHash = new Map<string, CachedPrint>();
const MAX_CACHED_PRINTS = 500_000;
// TF-IDF: the corpus' document frequencies, set once per scan by `setDocumentFrequencies`.
let frequencies: { token: string; df: DocumentFrequencies } | null = null;
// TF-IDF first pass: this worker's share of the document frequencies.
let counter: DocumentFrequencyCounter | null = null;

function fingerprinterFor(settings: SimHashSettings): Fingerprinter {
  const tfidf = settings.weights === 'tfidf';
  if (tfidf && !frequencies) throw new Error('TF-IDF needs the corpus document frequencies first (setDocumentFrequencies).');
  const key = JSON.stringify(settings) + (tfidf ? `#${frequencies!.token}` : '');
  if (!fingerprinter || key !== fingerprinterKey) {
    fingerprinter = createFingerprinter(settings, tfidf ? { documentFrequencies: frequencies!.df } : {});
    fingerprinterKey = key;
    printsByHash.clear();
  }
  return fingerprinter;
}

// Feature sets (exact Jaccard, document frequencies) do not depend on weights: one binary fingerprinter.
let setMakerKey = '';
let setMaker: Fingerprinter | null = null;
function setMakerFor(settings: SimHashSettings): Fingerprinter {
  const key = JSON.stringify([settings.features, settings.stopWords]);
  if (!setMaker || key !== setMakerKey) {
    setMaker = createFingerprinter({ ...settings, weights: 'binary' });
    setMakerKey = key;
  }
  return setMaker;
}

const NO_FEATURES = new Uint32Array(0);

/** An item's modification time: the page's record, else its File's (free here: a handle's getFile carries it). */
function itemModified(item: IngestItem): number {
  return item.lastModified ?? (item.file instanceof File ? item.file.lastModified : 0);
}

/** An item's size in bytes: its bytes' length, else its file's size (0 for a file that could not be opened). */
function itemSize(item: IngestItem): number {
  return item.error !== undefined ? 0 : item.bytes ? item.bytes.byteLength : item.file!.size;
}

// The handles of the scan that reads through directory handles (`openHandles`), and how to open a path under them.
let handleRoots: { token: string; open: (path: string) => Promise<File> } | null = null;
/** Files opened and read at once per batch: each open and each read is a round trip to the browser process. */
const HANDLE_READS_IN_FLIGHT = 12;
/** Bytes of a batch read up front; files past this (or over `readAheadBytes`) stay Files that `ingestItems` reads in turn. */
const HANDLE_BATCH_READ_BYTES = 32 * 1024 * 1024;

/**
 * Opens `paths` under the scan's handles and reads them, several at a time: an item with its File (and
 * its bytes while the batch's read budget lasts), or with why it could not be opened or read.
 */
async function openPaths(token: string, paths: readonly string[], limits: IngestLimits = DEFAULT_INGEST_LIMITS, read = true): Promise<IngestItem[]> {
  if (!handleRoots || handleRoots.token !== token) throw new Error(`The folder of scan ${token} was not handed to this worker (openHandles).`);
  const { open } = handleRoots;
  const items: IngestItem[] = paths.map((name) => ({ name }));
  let budget = read ? HANDLE_BATCH_READ_BYTES : 0;
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        const file = await open(item.name);
        item.file = file;
        if (file.size > 0 && file.size <= Math.min(budget, limits.readAheadBytes)) {
          budget -= file.size;
          item.bytes = new Uint8Array(await file.arrayBuffer());
        }
      } catch (error) {
        item.error = describeHandleError(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(HANDLE_READS_IN_FLIGHT, items.length) }, lane));
  return items;
}

/**
 * Each item's feature set (null when unreadable or not text): decoded from `kept` (sets kept from
 * fingerprinting) where it has one, else read and decoded from the item's bytes or file, a few at a time.
 */
async function featureSetsOf(items: IngestItem[], settings: SimHashSettings, limits: IngestLimits, kept?: KeptSets, decodeKept = true): Promise<Array<Uint32Array | null>> {
  const xx = await getXxhash();
  const maker = setMakerFor(settings);
  const sets: Array<Uint32Array | null> = new Array(items.length);
  const known = new Uint8Array(items.length);
  if (kept) {
    for (let i = 0; i < kept.docs.length; i++) {
      // Left undefined when the caller decodes them itself (chunkJaccards, in the kernel's memory).
      if (decodeKept) sets[kept.docs[i]] = decodeFeatureSet(kept.words.subarray(kept.offsets[i], kept.offsets[i + 1]));
      known[kept.docs[i]] = 1;
    }
  }
  let next = 0;
  const lane = async () => {
    // Each lane its own buffer: decoding awaits (a document's extraction), and lanes run between awaits.
    const out = createUtf8Buffer();
    while (next < items.length) {
      const i = next++;
      if (known[i]) continue;
      const read = await decodeItem(await readItem(items[i], limits, () => undefined), items[i].name, xx, out);
      sets[i] = read.ok ? maker.featureSetNormalized(read.utf8, read.ascii) : null;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limits.readAhead, items.length) }, lane));
  return sets;
}

function describeError(error: unknown): string {
  if (error instanceof DOMException) return error.name === 'NotFoundError' ? 'file not found' : error.name;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The compared text of one file's bytes (core documentUtf8: the one bytes -> compared-text rule,
 * documents extracted, as the pair view reads it), normalized as UTF-8 into the worker's buffer, and
 * the XXH64 of those bytes (seeded by the raw bytes' XXH64 when the decode was lossy).
 */
async function decodeItem(read: FileBytes, name: string, xx: XXHashAPI, out: Utf8Buffer = normalized): Promise<FileText> {
  if (!read.ok) return read;
  const doc = await documentUtf8(read.bytes, name, out, undefined, extractor);
  if (!doc.ok) {
    const status = doc.reason === 'binary' ? DocStatus.binary : EXTRACTION_STATUS[doc.reason];
    return { ok: false, status, skip: doc.reason, message: skipMessage(doc.reason, doc.message), flags: doc.format ? formatFlags(doc.format) : 0 };
  }
  // A lossy decode (U+FFFD for damaged bytes) no longer says which bytes they were, so two files that
  // differ only there must not share a hash: it is seeded by the raw bytes' own XXH64, and only
  // byte-identical lossy files are exact duplicates (others can still be near-duplicates, for review).
  const hash = doc.invalidBytes > 0 ? xx.h64Raw(doc.utf8, xx.h64Raw(read.bytes)) : xx.h64Raw(doc.utf8);
  const flags = (doc.html ? DocFlag.html : 0) | (doc.invalidBytes > 0 ? DocFlag.invalidUtf8 : 0) | formatFlags(doc.format);
  return { ok: true, utf8: doc.utf8, ascii: doc.ascii, hashHi: hiOf(hash), hashLo: loOf(hash), flags, invalidBytes: doc.invalidBytes };
}

/**
 * Reads one item's bytes (if the main thread did not); never rejects (a failed read is an
 * 'unreadable' result). A file is always read whole; one larger than `maxBytes` is skipped as too large.
 */
async function readItem(item: IngestItem, limits: IngestLimits, addBytes: (bytes: Uint8Array) => void): Promise<FileBytes> {
  if (item.error !== undefined) return { ok: false, status: DocStatus.unreadable, skip: 'unreadable', message: skipMessage('unreadable', item.error) };
  try {
    const size = itemSize(item);
    if (size > limits.maxBytes) {
      return { ok: false, status: DocStatus.tooLarge, skip: 'too-large', message: tooLargeMessage(size) };
    }
    const bytes = item.bytes ?? new Uint8Array(await item.file!.arrayBuffer());
    addBytes(bytes);
    return { ok: true, bytes };
  } catch (error) {
    return { ok: false, status: DocStatus.unreadable, skip: 'unreadable', message: skipMessage('unreadable', describeError(error)) };
  }
}

/** The ingest worker's API object (exposed as-is by `ingest.worker.ts`). */
export const ingestApi = {
  /**
   * Processes one batch; results are in batch order. Items given as Files are read here, a few
   * ahead of hashing (large ones one at a time). `onProgress` (a comlink proxy, optional)
   * receives the batch's bytes read so far, at most every 100 ms. Result buffers are transferred.
   */
  async ingestBatch(
    items: IngestItem[],
    settings: SimHashSettings,
    options: IngestBatchOptions = {},
    onProgress?: (bytesRead: number) => void,
  ): Promise<IngestBatchResult> {
    const { out, buffers } = await ingestItems(items, settings, options, onProgress);
    return transfer(out, buffers);
  },

  /**
   * Walks the handles a person gave (a chosen folder; dropped folders and files) into the scan's
   * paths, in path order, with the hidden and unreadable entries it left out (directory-handles.ts);
   * with `stat`, each file's size and time too, asked of the handle as it is listed; with `share`,
   * only that share of the walk (the workers walk a folder together: mergeListings).
   */
  async listHandles(roots: FileSystemHandle[], stat = false, share?: WalkOptions['share']): Promise<HandleListing> {
    const listing = await walkHandles(roots as unknown as EntryHandle[], { stat, share });
    return listing.stats ? transfer(listing, [listing.stats.sizes.buffer, listing.stats.modified.buffer]) : listing;
  },

  /** Makes `roots` (named by the scan's `token`) the handles that `ingestHandles` opens paths under. */
  openHandles(roots: FileSystemHandle[], token: string): void {
    handleRoots = { token, open: createPathOpener(roots as unknown as EntryHandle[]) };
  },

  /**
   * `ingestBatch` over files named by their paths under the handles of `openHandles` (scan `token`):
   * opened and read here, several at a time, never on the main thread. A file that cannot be opened is
   * reported unreadable with the reason. Also returns each File as opened (see HandleBatchResult).
   */
  async ingestHandles(
    token: string,
    paths: string[],
    settings: SimHashSettings,
    options: IngestBatchOptions = {},
    onProgress?: (bytesRead: number) => void,
  ): Promise<HandleBatchResult> {
    const items = await openPaths(token, paths, options.limits);
    const { out, buffers } = await ingestItems(items, settings, options, onProgress);
    // Only the Files the kept contents miss (large ones) go back: posting every File cost more than reading it.
    const offsets = out.contents?.offsets;
    const files = items.map((item, i) => (offsets && offsets[i + 1] === offsets[i] && out.sizes[i] > 0 && item.file instanceof File ? item.file : null));
    const result: HandleBatchResult = { ...out, files };
    return transfer(result, buffers);
  },

  /**
   * Each path's size and modification time under the handles of `openHandles` (scan `token`), opened
   * here but not read (size -1: it could not be opened): the quick check of a folder chosen again.
   */
  async statHandles(token: string, paths: string[]): Promise<{ sizes: Float64Array; modified: Float64Array }> {
    const items = await openPaths(token, paths, DEFAULT_INGEST_LIMITS, false);
    const sizes = Float64Array.from(items, (item) => (item.error !== undefined || !item.file ? -1 : item.file.size));
    const modified = Float64Array.from(items, itemModified);
    return transfer({ sizes, modified }, [sizes.buffer, modified.buffer]);
  },

  /** `countFrequencies` over files named by their paths under the handles of `openHandles`. */
  async countFrequenciesOfPaths(token: string, paths: string[], settings: SimHashSettings): Promise<number> {
    return ingestApi.countFrequencies(await openPaths(token, paths), settings);
  },

  /**
   * Exact verification of candidate pairs: each item's feature set (the documents in `pairs`, local
   * indexes) comes from `kept` (decoded once, in the kernel) or from reading the item once; returns
   * each pair's exact Jaccard (float64, as core jaccardSorted).
   */
  async verifyPairs(items: IngestItem[], pairs: LocalPairs, settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS, kept?: KeptSets): Promise<Float64Array> {
    const read = await featureSetsOf(items, settings, limits, kept, false);
    const jaccard = chunkJaccards(items.length, kept, read, pairs);
    return transfer(jaccard, [jaccard.buffer]);
  },

  /**
   * Counts for containment at `threshold` (core/groups/contained-pairs.ts): per pair (a, b) of the
   * items, |A ∩ B| (exact when the containment reaches the threshold, else `COUNT_BELOW` | a bound),
   * |A| and |B| of their feature sets (from `kept` or read here), three numbers a pair.
   */
  async measureContainment(items: IngestItem[], pairs: LocalPairs, threshold: number, settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS, kept?: KeptSets): Promise<Uint32Array> {
    // As verifyPairs: kept sets decoded once each in the kernel's memory, not into fresh arrays.
    const read = await featureSetsOf(items, settings, limits, kept, false);
    const counts = chunkContainmentCounts(items.length, kept, read, pairs, threshold);
    return transfer(counts, [counts.buffer]);
  },

  /**
   * The sampled passages (containment search) of the items' feature sets, each from `kept` or from
   * reading the item once: what fingerprinting collects, for a corpus fingerprinted without them
   * (containment turned on afterwards). Local indexes; an item that cannot be read has none.
   */
  async passagesOf(items: IngestItem[], settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS, kept?: KeptSets): Promise<PackedSets> {
    const sets = await featureSetsOf(items, settings, limits, kept);
    const passages = new PassageCollector();
    sets.forEach((set, i) => set && set.length > 0 && passages.add(i, set));
    const out = passages.packed();
    return transfer(out, [out.docs.buffer, out.offsets.buffer, out.keys.buffer] as ArrayBuffer[]);
  },

  /**
   * Chaining check of connected components (core `detectChaining`) over the job's items: each member's
   * feature set from `kept` or from reading it once; measures member pairs that are not verified
   * pairs until one falls below `threshold`.
   */
  async chainGroups(
    items: IngestItem[],
    job: ChainJob,
    settings: SimHashSettings,
    threshold: number,
    limits: IngestLimits = DEFAULT_INGEST_LIMITS,
    kept?: KeptSets,
  ): Promise<ChainJobResult> {
    const sets = await featureSetsOf(items, settings, limits, kept);
    const count = job.offsets.length - 1;
    const slots = job.members.length;
    const groupOf = new Int32Array(items.length).fill(-1);
    const reference = new Int32Array(count);
    const jaccardToReference = new Float32Array(slots).fill(Number.NaN);
    const distanceToReference = new Uint8Array(slots).fill(UNKNOWN_DISTANCE);
    for (let g = 0; g < count; g++) {
      reference[g] = job.members[job.offsets[g]];
      for (let s = job.offsets[g]; s < job.offsets[g + 1]; s++) groupOf[job.members[s]] = g;
      jaccardToReference[job.offsets[g]] = 1;
    }
    const table: GroupTable = { count, groupOf, offsets: job.offsets, members: job.members, reference, jaccardToReference, distanceToReference };
    const report = detectChaining(table, job.pairs, (doc) => sets[doc] ?? NO_FEATURES, threshold);
    return transfer({ status: report.status, jaccardToReference }, [report.status.buffer, jaccardToReference.buffer]);
  },

  /** TF-IDF first pass: reads the items and adds their feature sets to this worker's document-frequency counter. */
  async countFrequencies(items: IngestItem[], settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS): Promise<number> {
    counter ??= createDocumentFrequencyCounter();
    const sets = await featureSetsOf(items, settings, limits);
    // As the CLI counts: every document that decodes as text (a too-short one adds an empty set).
    for (const set of sets) if (set) counter.add(set);
    let bytes = 0;
    for (const item of items) bytes += itemSize(item);
    return bytes;
  },

  /** Ends the first pass: returns this worker's document frequencies (and forgets them). */
  collectFrequencies(): DocumentFrequencies {
    const df = (counter ?? createDocumentFrequencyCounter()).result();
    counter = null;
    return transfer(df, [df.keys.buffer, df.counts.buffer]);
  },

  /** Sets the corpus' document frequencies for TF-IDF fingerprints (`token` names the scan that counted them). */
  setDocumentFrequencies(df: DocumentFrequencies, token: string): void {
    frequencies = { token, df };
  },

  /**
   * Pairs of a range of the tables (pairs-api.ts): this worker's part of the scan's candidate search,
   * split by tables over every worker once reading is done (scan/split-search.ts).
   */
  pairsForTables: pairsApi.pairsForTables,
};

/**
 * Processes one batch (see `ingestApi.ingestBatch`); returns the result and the buffers to transfer.
 * Items given as Files are read here, a few ahead of hashing (large ones one at a time).
 */
async function ingestItems(
  items: IngestItem[],
  settings: SimHashSettings,
  options: IngestBatchOptions,
  onProgress?: (bytesRead: number) => void,
): Promise<{ out: IngestBatchResult; buffers: ArrayBuffer[] }> {
  const limits = options.limits ?? DEFAULT_INGEST_LIMITS;
  const xx = await getXxhash();
  const fp = fingerprinterFor(settings);
  // The worker's buffer, unless another batch holds it: decoding awaits (a document's extraction), so two batches may interleave.
  const buffer = normalizedInUse ? createUtf8Buffer() : normalized;
  normalizedInUse ||= buffer === normalized;
  // The kept-set arena likewise: a batch that interleaves with one holding it gets its own.
  const arena = options.keepSets ? (keptArenaInUse ? new KeptSetArena() : keptArena) : null;
  keptArenaInUse ||= arena === keptArena;
  try {
    return await ingestItemsWith(items, options, onProgress, limits, xx, fp, buffer, arena);
  } finally {
    if (buffer === normalized) normalizedInUse = false;
    if (arena === keptArena) keptArenaInUse = false;
  }
}

/** `ingestItems` with its decoding buffer chosen. */
async function ingestItemsWith(
  items: IngestItem[],
  options: IngestBatchOptions,
  onProgress: ((bytesRead: number) => void) | undefined,
  limits: IngestLimits,
  xx: XXHashAPI,
  fp: Fingerprinter,
  buffer: Utf8Buffer,
  arena: KeptSetArena | null,
): Promise<{ out: IngestBatchResult; buffers: ArrayBuffer[] }> {
  const n = items.length;
  const columns = batchColumns(n);
  for (let i = 0; i < n; i++) {
    columns.sizes[i] = itemSize(items[i]);
    columns.modified[i] = itemModified(items[i]);
  }
  arena?.reset();
  const out: IngestBatchResult = {
    ...columns,
    skipped: [],
    notes: [],
    sets: { docs: new Uint32Array(0), offsets: new Uint32Array(0), keys: new Uint32Array(0) },
    bytesRead: 0,
    fingerprinted: 0,
  };
  // Kept contents: the items' bytes, and those of files read here while the budget lasts.
  const keptBytes: Array<Uint8Array | undefined> = options.keepBytes ? items.map((item) => item.bytes) : [];
  let keepBudget = limits.keepBytesBudget ?? DEFAULT_INGEST_LIMITS.keepBytesBudget!;
  let lastReport = performance.now();
  const addBytesOf = (i: number) => (bytes: Uint8Array) => {
    if (options.keepBytes && !items[i].bytes && bytes.byteLength <= keepBudget) {
      keptBytes[i] = bytes;
      keepBudget -= bytes.byteLength;
    }
    out.bytesRead += bytes.byteLength;
    const now = performance.now();
    if (onProgress && now - lastReport >= 100) {
      lastReport = now;
      void onProgress(out.bytesRead);
    }
  };
  const reads: Array<Promise<FileBytes> | undefined> = new Array(n);
  const startRead = (i: number) => {
    // Large files are not read ahead: each is held whole while it is fingerprinted.
    if (i < n && items[i].file && out.sizes[i] > 0 && out.sizes[i] <= limits.readAheadBytes) reads[i] = readItem(items[i], limits, addBytesOf(i));
  };
  for (let i = 0; i < Math.min(n, limits.readAhead); i++) startRead(i);
  const smallSets: Array<[number, Uint32Array]> = [];
  const passages = options.passages ? new PassageCollector() : null;
  for (let i = 0; i < n; i++) {
    const pending = reads[i];
    reads[i] = undefined;
    startRead(i + limits.readAhead);
    // (A file that could not be opened has size 0 too: readItem reports it unreadable.)
    if (out.sizes[i] === 0 && items[i].error === undefined) {
      out.status[i] = DocStatus.empty;
      out.skipped.push({ index: i, reason: 'empty', message: skipMessage('empty') });
      continue;
    }
    // Decoded only now: the normalized text lives in one buffer until the next file.
    const read = await decodeItem(await (pending ?? readItem(items[i], limits, addBytesOf(i))), items[i].name, xx, buffer);
    if (!read.ok) {
      out.status[i] = read.status;
      out.flags[i] = read.flags ?? 0;
      out.skipped.push({ index: i, reason: read.skip, message: read.message });
      continue;
    }
    out.flags[i] = read.flags;
    if (read.invalidBytes > 0) out.notes.push({ index: i, message: invalidUtf8Message(read.invalidBytes) });
    out.hashHi[i] = read.hashHi;
    out.hashLo[i] = read.hashLo;
    let print: CachedPrint | undefined;
    if (options.claims) {
      if (!claimHash(options.claims, read.hashHi, read.hashLo)) {
        out.status[i] = DocStatus.copy;
        continue;
      }
    } else print = printsByHash.get(`${read.hashHi}:${read.hashLo}`);
    if (!print) {
      // The feature set comes from the fingerprint's own tokens and hashes: for verification when
      // sets are kept, and for the short-document join when the text is small.
      // The set is a view of the fingerprinter's scratch: encoded or sampled at once, copied only when small.
      const r = fp.fingerprintNormalizedWithSet(read.utf8, read.ascii, options.keepSets || options.passages ? Infinity : SMALL_SET_WORDS, true);
      const small = r.status === 'ok' && r.words < SMALL_SET_WORDS;
      const set = small ? r.set!.slice() : null;
      // Kept for verification (only texts fingerprinted here: a copy is measured through its original).
      if (arena && r.status === 'ok') arena.add(i, r.set!);
      if (passages && r.status === 'ok') passages.add(i, r.set!);
      print = { status: r.status === 'ok' ? DocStatus.ok : DocStatus.tooShort, hi: r.hi >>> 0, lo: r.lo >>> 0, words: r.words, set };
      out.fingerprinted++;
      if (!options.claims) {
        if (printsByHash.size >= MAX_CACHED_PRINTS) printsByHash.clear();
        printsByHash.set(`${read.hashHi}:${read.hashLo}`, print);
      }
    }
    out.status[i] = print.status;
    out.words[i] = print.words;
    if (print.set) smallSets.push([i, print.set]);
    if (print.status === DocStatus.ok) {
      out.hi[i] = print.hi;
      out.lo[i] = print.lo;
    } else out.skipped.push({ index: i, reason: 'too-short', message: tooShortMessage(print.words) });
  }
  if (options.keepBytes) {
    // One Blob for the batch, made once every item is read (the Blob copies the bytes).
    const offsets = new Uint32Array(n + 1);
    keptBytes.forEach((bytes, i) => (offsets[i + 1] = offsets[i] + (bytes?.byteLength ?? 0)));
    out.contents = { blob: new Blob(keptBytes.filter((bytes) => bytes !== undefined) as Array<Uint8Array<ArrayBuffer>>), offsets };
  }
  out.sets = packSets(smallSets);
  const buffers: ArrayBuffer[] = out.contents ? [out.contents.offsets.buffer as ArrayBuffer] : [];
  if (arena) {
    out.kept = arena.packed();
    buffers.push(out.kept.docs.buffer as ArrayBuffer, out.kept.offsets.buffer as ArrayBuffer, out.kept.words.buffer as ArrayBuffer);
  }
  if (passages) {
    out.passages = passages.packed();
    buffers.push(out.passages.docs.buffer as ArrayBuffer, out.passages.offsets.buffer as ArrayBuffer, out.passages.keys.buffer as ArrayBuffer);
  }
  // The items' bytes came in one buffer of the page's (batch-feeder.ts): it goes back to be read into again.
  const input = options.returnInput ? items[0]?.bytes?.buffer : undefined;
  if (input instanceof ArrayBuffer && items.every((item) => !item.bytes || item.bytes.buffer === input)) {
    out.input = input;
    buffers.push(input);
  }
  const arrays = [out.sets.docs, out.sets.offsets, out.sets.keys];
  return { out, buffers: [...buffers, ...arrays.map((array) => array.buffer as ArrayBuffer), ...docColumnBuffers(columns, DOC_COLUMN_NAMES)] };
}


/** Packs (index, set) entries into one PackedSets. */
function packSets(entries: Array<[number, Uint32Array]>): IngestBatchResult['sets'] {
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

export type IngestApi = typeof ingestApi;
