/**
 * The ingest worker's API: takes a batch of files (bytes the main thread read, or Blobs read here),
 * turns each into the UTF-8 of its normalized compared text (core documentUtf8: documents extracted,
 * text through documentText's decode and HTML rule, then normalizeText, mostly without making a string), hashes those bytes with
 * XXH64 (xxhash-wasm) for exact duplicates and fingerprints each distinct text once, always whole.
 * Results go back as typed arrays. Reading is ingest-read.ts's, the batch itself ingest-batch.ts's.
 */
import { transfer } from 'comlink';
import { createDocumentFrequencyCounter, type DocumentFrequencies, type DocumentFrequencyCounter } from '../core/simhash/document-frequencies.ts';
import { chunkContainmentCounts, chunkJaccards } from '../core/groups/set-jaccard.ts';
import { PassageCollector } from '../core/groups/contained-pairs.ts';
import { detectChaining } from '../core/groups/components.ts';
import { UNKNOWN_DISTANCE, type GroupTable } from '../core/groups/group-table.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DEFAULT_INGEST_LIMITS, type HandleBatchResult, type IngestBatchOptions, type IngestBatchResult, type IngestItem, type IngestLimits, type ChainJob, type ChainJobResult, type LocalPairs } from './ingest-protocol.ts';
import { pairsApi } from './pairs-api.ts';
import { candidateSearchApi } from './candidate-search-api.ts';
import { walkHandles, type EntryHandle, type HandleListing, type WalkOptions } from './directory-handles.ts';
import type { JobSets, PackedSets } from '../core/groups/packed-sets.ts';
import { itemModified, itemSize, openPaths, useHandleRoots } from './ingest-read.ts';
import { featureSetsOf, ingestItems, useDocumentFrequencies } from './ingest-batch.ts';

// TF-IDF first pass: this worker's share of the document frequencies.
let counter: DocumentFrequencyCounter | null = null;

const NO_FEATURES = new Uint32Array(0);

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
    useHandleRoots(roots, token);
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
  async verifyPairs(items: IngestItem[], pairs: LocalPairs, settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS, kept?: JobSets): Promise<Float64Array> {
    const read = await featureSetsOf(items, settings, limits, kept, false);
    const jaccard = chunkJaccards(items.length, kept, read, pairs);
    return transfer(jaccard, [jaccard.buffer]);
  },

  /**
   * Counts for containment at `threshold` (core/groups/contained-pairs.ts): per pair (a, b) of the
   * items, |A ∩ B| (exact when the containment reaches the threshold, else `COUNT_BELOW` | a bound),
   * |A| and |B| of their feature sets (from `kept` or read here), three numbers a pair.
   */
  async measureContainment(items: IngestItem[], pairs: LocalPairs, threshold: number, settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS, kept?: JobSets): Promise<Uint32Array> {
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
  async passagesOf(items: IngestItem[], settings: SimHashSettings, limits: IngestLimits = DEFAULT_INGEST_LIMITS, kept?: JobSets): Promise<PackedSets> {
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
    kept?: JobSets,
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
    useDocumentFrequencies(df, token);
  },

  /**
   * Pairs of a range of the tables (pairs-api.ts): this worker's part of the scan's candidate search,
   * split by tables over every worker once reading is done (scan/split-search.ts).
   */
  pairsForTables: pairsApi.pairsForTables,

  /**
   * The split search's parts sorted into one candidate list (candidate-search-api.ts): on an ingest
   * worker while the index worker searches containment's candidates (scan/split-search.ts).
   */
  searchCandidates: candidateSearchApi.searchCandidates,
};

export type IngestApi = typeof ingestApi;
