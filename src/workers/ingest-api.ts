/**
 * The ingest worker's API: takes a batch of files (bytes the main thread read, or Blobs read here),
 * turns each into the UTF-8 of its normalized compared text (core normalizedUtf8: documentText's
 * decode and HTML rule, then normalizeText, mostly without making a string), hashes those bytes with
 * XXH64 (xxhash-wasm) for exact duplicates and fingerprints each distinct text once, always whole.
 * Results go back as typed arrays.
 */
import xxhash, { type XXHashAPI } from 'xxhash-wasm';
import { transfer } from 'comlink';
import { createUtf8Buffer, normalizedUtf8 } from '../core/text/normalized-utf8.ts';
import { createFingerprinter, type Fingerprinter } from '../core/simhash/fingerprinter.ts';
import { createDocumentFrequencyCounter, type DocumentFrequencies, type DocumentFrequencyCounter } from '../core/simhash/document-frequencies.ts';
import { jaccardSorted } from '../core/groups/jaccard.ts';
import { decodeFeatureSet, encodeFeatureSet } from '../core/groups/feature-set-codec.ts';
import { detectChaining } from '../core/groups/components.ts';
import { UNKNOWN_DISTANCE, type GroupTable } from '../core/groups/group-table.ts';
import { hiOf, loOf } from '../core/simhash/fingerprint64.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import {
  DEFAULT_INGEST_LIMITS,
  type BatchSkip,
  type IngestBatchOptions,
  type IngestBatchResult,
  type IngestItem,
  type IngestLimits,
  SMALL_SET_WORDS,
  type ChainJob,
  type ChainJobResult,
  type KeptSets,
  type LocalPairs,
} from './ingest-protocol.ts';
import { DocFlag, DocStatus, invalidUtf8Message, skipMessage, tooShortMessage } from '../core/documents/document-status.ts';
import { claimHash } from './claimed-hashes.ts';

/** Why a file has no text. */
type NoText = { ok: false; status: number; skip: BatchSkip['reason']; message: string };

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
// The normalized text of the file being fingerprinted; reused from file to file.
const normalized = createUtf8Buffer();
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

/**
 * Each item's feature set (null when unreadable or not text): decoded from `kept` (sets kept from
 * fingerprinting) where it has one, else read and decoded from the item's bytes or file, a few at a time.
 */
async function featureSetsOf(items: IngestItem[], settings: SimHashSettings, limits: IngestLimits, kept?: KeptSets): Promise<Array<Uint32Array | null>> {
  const xx = await getXxhash();
  const maker = setMakerFor(settings);
  const sets: Array<Uint32Array | null> = new Array(items.length);
  const known = new Uint8Array(items.length);
  if (kept) {
    for (let i = 0; i < kept.docs.length; i++) {
      sets[kept.docs[i]] = decodeFeatureSet(kept.words.subarray(kept.offsets[i], kept.offsets[i + 1]));
      known[kept.docs[i]] = 1;
    }
  }
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      if (known[i]) continue;
      const read = decodeItem(await readItem(items[i], limits, () => undefined), items[i].name, xx);
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
 * The compared text of one file's bytes (core documentText's rule: decode, HTML stripped, as the pair
 * view reads it), normalized as UTF-8 into the worker's buffer, and the XXH64 of those bytes.
 */
function decodeItem(read: FileBytes, name: string, xx: XXHashAPI): FileText {
  if (!read.ok) return read;
  const doc = normalizedUtf8(read.bytes, name, normalized);
  if (!doc.ok) return { ok: false, status: DocStatus.binary, skip: 'binary', message: skipMessage('binary', doc.message) };
  const hash = xx.h64Raw(doc.utf8);
  const flags = (doc.html ? DocFlag.html : 0) | (doc.invalidBytes > 0 ? DocFlag.invalidUtf8 : 0);
  return { ok: true, utf8: doc.utf8, ascii: doc.ascii, hashHi: hiOf(hash), hashLo: loOf(hash), flags, invalidBytes: doc.invalidBytes };
}

/**
 * Reads one item's bytes (if the main thread did not); never rejects (a failed read is an
 * 'unreadable' result). A file is always read whole; one larger than `maxBytes` is skipped as too large.
 */
async function readItem(item: IngestItem, limits: IngestLimits, addBytes: (n: number) => void): Promise<FileBytes> {
  try {
    const size = item.bytes ? item.bytes.byteLength : item.file!.size;
    if (size > limits.maxBytes) {
      return { ok: false, status: DocStatus.tooLarge, skip: 'too-large', message: skipMessage('too-large', `${(size / (1024 * 1024)).toFixed(1)} MB`) };
    }
    const bytes = item.bytes ?? new Uint8Array(await item.file!.arrayBuffer());
    addBytes(bytes.byteLength);
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
    const limits = options.limits ?? DEFAULT_INGEST_LIMITS;
    const xx = await getXxhash();
    const fp = fingerprinterFor(settings);
    const n = items.length;
    const sizeOf = (item: IngestItem) => (item.bytes ? item.bytes.byteLength : item.file!.size);
    const out: IngestBatchResult = {
      sizes: Float64Array.from(items, sizeOf),
      status: new Uint8Array(n),
      flags: new Uint8Array(n),
      hi: new Uint32Array(n),
      lo: new Uint32Array(n),
      words: new Uint32Array(n),
      hashHi: new Uint32Array(n),
      hashLo: new Uint32Array(n),
      skipped: [],
      notes: [],
      sets: { docs: new Uint32Array(0), offsets: new Uint32Array(0), keys: new Uint32Array(0) },
      bytesRead: 0,
      fingerprinted: 0,
    };
    // Made before anything reads the bytes (the Blob copies them): one Blob for the batch.
    if (options.keepBytes) {
      const offsets = new Uint32Array(n + 1);
      items.forEach((item, i) => (offsets[i + 1] = offsets[i] + (item.bytes?.byteLength ?? 0)));
      out.contents = { blob: new Blob(items.flatMap((item) => (item.bytes ? [item.bytes as Uint8Array<ArrayBuffer>] : []))), offsets };
    }
    let lastReport = performance.now();
    const addBytes = (bytes: number) => {
      out.bytesRead += bytes;
      const now = performance.now();
      if (onProgress && now - lastReport >= 100) {
        lastReport = now;
        void onProgress(out.bytesRead);
      }
    };
    const reads: Array<Promise<FileBytes> | undefined> = new Array(n);
    const startRead = (i: number) => {
      // Large files are not read ahead: each is held whole while it is fingerprinted.
      if (i < n && items[i].file && out.sizes[i] > 0 && out.sizes[i] <= limits.readAheadBytes) reads[i] = readItem(items[i], limits, addBytes);
    };
    for (let i = 0; i < Math.min(n, limits.readAhead); i++) startRead(i);
    const smallSets: Array<[number, Uint32Array]> = [];
    const keptSets: Array<[number, Uint32Array]> = [];
    for (let i = 0; i < n; i++) {
      const pending = reads[i];
      reads[i] = undefined;
      startRead(i + limits.readAhead);
      if (out.sizes[i] === 0) {
        out.status[i] = DocStatus.empty;
        out.skipped.push({ index: i, reason: 'empty', message: skipMessage('empty') });
        continue;
      }
      // Decoded only now: the normalized text lives in one buffer until the next file.
      const read = decodeItem(await (pending ?? readItem(items[i], limits, addBytes)), items[i].name, xx);
      if (!read.ok) {
        out.status[i] = read.status;
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
        const r = fp.fingerprintNormalizedWithSet(read.utf8, read.ascii, options.keepSets ? Infinity : SMALL_SET_WORDS);
        const small = r.status === 'ok' && r.words < SMALL_SET_WORDS;
        const set = small ? r.set : null;
        // Kept for verification (only texts fingerprinted here: a copy is measured through its original).
        if (options.keepSets && r.status === 'ok') keptSets.push([i, encodeFeatureSet(r.set!)]);
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
    out.sets = packSets(smallSets);
    const buffers: ArrayBuffer[] = out.contents ? [out.contents.offsets.buffer as ArrayBuffer] : [];
    if (options.keepSets) {
      const packed = packSets(keptSets);
      out.kept = { docs: packed.docs, offsets: packed.offsets, words: packed.keys };
      buffers.push(packed.docs.buffer as ArrayBuffer, packed.offsets.buffer as ArrayBuffer, packed.keys.buffer as ArrayBuffer);
    }
    return transfer(out, [
      ...buffers,
      out.sets.docs.buffer,
      out.sets.offsets.buffer,
      out.sets.keys.buffer,
      out.sizes.buffer,
      out.status.buffer,
      out.flags.buffer,
      out.hi.buffer,
      out.lo.buffer,
      out.words.buffer,
      out.hashHi.buffer,
      out.hashLo.buffer,
    ]);
  },

  /**
   * Exact verification of candidate pairs: each item's feature set (the documents in `pairs`, local
   * indexes) comes from `kept` or from reading the item once; returns each pair's exact Jaccard (float64).
   */
  async verifyPairs(items: IngestItem[], pairs: LocalPairs, settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS, kept?: KeptSets): Promise<Float64Array> {
    const sets = await featureSetsOf(items, settings, limits, kept);
    const jaccard = new Float64Array(pairs.count);
    for (let p = 0; p < pairs.count; p++) jaccard[p] = jaccardSorted(sets[pairs.a[p]] ?? NO_FEATURES, sets[pairs.b[p]] ?? NO_FEATURES);
    return transfer(jaccard, [jaccard.buffer]);
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
    for (const item of items) bytes += item.bytes ? item.bytes.byteLength : item.file!.size;
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
};

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
