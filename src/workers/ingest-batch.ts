/**
 * The ingest worker's batch: each item read, decoded and hashed (ingest-read.ts), each distinct text
 * fingerprinted once with this worker's fingerprinter (cached by content hash), and the batch's columns,
 * kept sets and passages packed for transfer. Also the items' feature sets for verification.
 */
import type { XXHashAPI } from 'xxhash-wasm';
import { createUtf8Buffer, type Utf8Buffer } from '../core/text/normalized-utf8.ts';
import { createFingerprinter, type Fingerprinter } from '../core/simhash/fingerprinter.ts';
import type { DocumentFrequencies } from '../core/simhash/document-frequencies.ts';
import { PassageCollector } from '../core/groups/contained-pairs.ts';
import { decodeFeatureSet } from '../core/groups/feature-set-codec.ts';
import { packSets, sharedSetWords, type JobSets } from '../core/groups/packed-sets.ts';
import { SKETCH_BINS } from '../core/groups/minhash-sketch.ts';
import { batchColumns, KeptSetArena } from './batch-arena.ts';
import { DOC_COLUMN_NAMES, docColumnBuffers } from '../core/documents/doc-columns.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DEFAULT_INGEST_LIMITS, type IngestBatchOptions, type IngestBatchResult, type IngestItem, type IngestLimits, SMALL_SET_WORDS } from './ingest-protocol.ts';
import { DocStatus, invalidUtf8Message, skipMessage, tooShortMessage } from '../core/documents/document-status.ts';
import { claimHash } from './claimed-hashes.ts';
import { decodeItem, getXxhash, itemModified, itemSize, readItem, type FileBytes } from './ingest-read.ts';

interface CachedPrint {
  status: number;
  hi: number;
  lo: number;
  words: number;
  /** The feature set when the document is small (see SMALL_SET_WORDS). */
  set: Uint32Array | null;
}

// The normalized text of the file being fingerprinted; reused from file to file.
const normalized = createUtf8Buffer();
let normalizedInUse = false;
// The encoded feature sets of the batch being fingerprinted; reused from batch to batch.
const keptArena = new KeptSetArena();
let keptArenaInUse = false;
/** The worker's passage collector, reused from batch to batch as the arena is: growing one a batch cost fresh pages each time. */
const passageCollector = new PassageCollector();
let passagesInUse = false;

// One fingerprinter per settings, and a cache of fingerprints by content hash: identical texts
// that land in this worker are fingerprinted once. Bounded so a long session cannot grow it forever.
let fingerprinterKey = '';
let fingerprinter: Fingerprinter | null = null;
const printsByHash = new Map<string, CachedPrint>();
const MAX_CACHED_PRINTS = 500_000;
// TF-IDF: the corpus' document frequencies, set once per scan by `setDocumentFrequencies`.
let frequencies: { token: string; df: DocumentFrequencies } | null = null;

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

/** Sets the corpus' document frequencies for TF-IDF fingerprints (`token` names the scan that counted them). */
export function useDocumentFrequencies(df: DocumentFrequencies, token: string): void {
  frequencies = { token, df };
}

/**
 * Each item's feature set (null when unreadable or not text): decoded from `kept` (sets kept from
 * fingerprinting) where it has one, else read and decoded from the item's bytes or file, a few at a time.
 */
export async function featureSetsOf(items: IngestItem[], settings: SimHashSettings, limits: IngestLimits, kept?: JobSets, decodeKept = true): Promise<Array<Uint32Array | null>> {
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
    const shared = kept.shared;
    if (shared) {
      for (let i = 0; i < shared.docs.length; i++) {
        if (decodeKept) sets[shared.docs[i]] = decodeFeatureSet(sharedSetWords(shared, i));
        known[shared.docs[i]] = 1;
      }
    }
  }
  let next = 0;
  const lane = async () => {
    // Each lane its own buffer: decoding awaits (a document's extraction), and lanes run between awaits.
    // Made on the lane's first file only: most jobs read none (their sets are kept), and fresh pages are dear.
    let out: Utf8Buffer | null = null;
    while (next < items.length) {
      const i = next++;
      if (known[i]) continue;
      out ??= createUtf8Buffer();
      const read = await decodeItem(await readItem(items[i], limits, () => undefined), items[i].name, xx, out);
      sets[i] = read.ok ? maker.featureSetNormalized(read.utf8, read.ascii) : null;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limits.readAhead, items.length) }, lane));
  return sets;
}

/**
 * Processes one batch (see `ingestApi.ingestBatch`); returns the result and the buffers to transfer.
 * Items given as Files are read here, a few ahead of hashing (large ones one at a time).
 */
export async function ingestItems(
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
  const passages = options.passages ? (passagesInUse ? new PassageCollector() : passageCollector) : null;
  passagesInUse ||= passages === passageCollector;
  try {
    return await ingestItemsWith(items, options, onProgress, limits, xx, fp, buffer, arena, passages);
  } finally {
    if (buffer === normalized) normalizedInUse = false;
    if (arena === keptArena) keptArenaInUse = false;
    if (passages === passageCollector) passagesInUse = false;
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
  passages: PassageCollector | null,
): Promise<{ out: IngestBatchResult; buffers: ArrayBuffer[] }> {
  const n = items.length;
  const columns = batchColumns(n);
  for (let i = 0; i < n; i++) {
    columns.sizes[i] = itemSize(items[i]);
    columns.modified[i] = itemModified(items[i]);
  }
  arena?.reset();
  passages?.reset();
  const out: IngestBatchResult = {
    ...columns,
    skipped: [],
    notes: [],
    sets: { docs: new Uint32Array(0), offsets: new Uint32Array(0), keys: new Uint32Array(0) },
    sketches: new Uint16Array(n * SKETCH_BINS),
    ...(options.setSizes ? { setSizes: new Uint32Array(n) } : {}),
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
      // The sketch for every document fingerprinted, kept set or not: verification's filter (one pass over the hashes).
      // With set sizes asked for, the set is made for every document (as it is for every kept one) to count its keys.
      const wholeSet = options.keepSets || options.passages || options.setSizes;
      const r = fp.fingerprintNormalizedWithSet(read.utf8, read.ascii, wholeSet ? Infinity : SMALL_SET_WORDS, true, out.sketches, i * SKETCH_BINS);
      if (out.setSizes && r.status === 'ok') out.setSizes[i] = r.set!.length;
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
  return finishBatch(out, columns, items, options, keptBytes, smallSets, arena, passages);
}

/** The end of a batch: its kept bytes as one Blob, its sets and passages packed, and every buffer to transfer. */
function finishBatch(
  out: IngestBatchResult,
  columns: ReturnType<typeof batchColumns>,
  items: IngestItem[],
  options: IngestBatchOptions,
  keptBytes: Array<Uint8Array | undefined>,
  smallSets: Array<[number, Uint32Array]>,
  arena: KeptSetArena | null,
  passages: PassageCollector | null,
): { out: IngestBatchResult; buffers: ArrayBuffer[] } {
  if (options.keepBytes) {
    // One Blob for the batch, made once every item is read (the Blob copies the bytes).
    const offsets = new Uint32Array(items.length + 1);
    keptBytes.forEach((bytes, i) => (offsets[i + 1] = offsets[i] + (bytes?.byteLength ?? 0)));
    out.contents = { blob: new Blob(keptBytes.filter((bytes) => bytes !== undefined) as Array<Uint8Array<ArrayBuffer>>), offsets };
  }
  out.sets = packSets(smallSets);
  const buffers: ArrayBuffer[] = out.contents ? [out.contents.offsets.buffer as ArrayBuffer] : [];
  if (arena) {
    // Shared words are not transferred: a post shares them.
    const shared = options.shareSets === true && !options.spillSets;
    out.kept = arena.packed(shared);
    buffers.push(out.kept.docs.buffer as ArrayBuffer, out.kept.offsets.buffer as ArrayBuffer);
    if (!shared) buffers.push(out.kept.words.buffer as ArrayBuffer);
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
  const arrays = [out.sets.docs, out.sets.offsets, out.sets.keys, out.sketches, ...(out.setSizes ? [out.setSizes] : [])];
  return { out, buffers: [...buffers, ...arrays.map((array) => array.buffer as ArrayBuffer), ...docColumnBuffers(columns, DOC_COLUMN_NAMES)] };
}
