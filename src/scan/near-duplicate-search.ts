/**
 * Owns the near-duplicate stage of a scan, after fingerprinting: candidate pairs within k (index
 * worker), exact Jaccard of every candidate not measured before (ingest workers, from the feature
 * sets kept from fingerprinting, or by reading the two files again, see `verifyCandidates`), the short-document
 * join and grouping (index worker), and chaining checks of components (ingest workers). The main
 * thread only cuts work into chunks, in time slices.
 */
import { CHAIN_UNKNOWN } from '../core/groups/components.ts';
import { buildDuplicateRelation } from '../core/groups/duplicate-relation.ts';
import type { PairList } from '../core/index/pair-list.ts';
import type { ExternalCandidates } from '../core/index/external-pairs.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { DuplicateSearchResult, KnownPairs } from '../workers/index-api.ts';
import type { ChainJob, IngestItem, KeptSets, PackedSets } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { GroupList } from '../core/groups/exact-groups.ts';
import { docBlob, emptyScoredPairs, noContents, type Grouping, type ScanDocs, type ScanResult, type VerificationStats } from './scan-result.ts';
import { createTimeSlicer } from './yield-to-event-loop.ts';
import { readUpTo } from './read-file-bytes.ts';
import { transfer } from 'comlink';
import { recordPhase } from './phase-timing.ts';

/** What the near-duplicate stage needs from a finished fingerprinting pass (kept for regroups). */
export interface SearchCorpus {
  docs: ScanDocs;
  settings: SimHashSettings;
  /** Representatives with a fingerprint (distinct texts, status ok), ascending doc ids. */
  reps: Uint32Array;
  /** Per doc: the doc whose text stands for it (exact copies share one), -1 when not ok. */
  representative: Int32Array;
  /** Feature sets of small documents (doc ids), from the ingest workers. */
  smallSets: PackedSets;
  /** Exact Jaccards measured so far for this corpus (sorted by (a, b)); grows with every regroup. */
  known: KnownPairs;
  /**
   * Per doc: its feature set kept from fingerprinting, encoded (core/groups/feature-set-codec.ts), or
   * undefined (not kept: over the scan's budget, a restored corpus): verification reads the file then.
   */
  keptSets?: ReadonlyArray<Uint32Array | undefined>;
}

/** Candidates of one search radius. */
export interface Candidates {
  k: number;
  pairs: PairList;
  /** Exact Jaccard per pair, NaN until measured. */
  jaccard: Float64Array;
  histogram: Uint32Array;
}

/** The near-duplicate fields of a ScanResult. */
export type NearDuplicateFields = Pick<
  ScanResult,
  'k' | 'similarityThreshold' | 'grouping' | 'pinned' | 'verified' | 'relation' | 'groups' | 'chained' | 'histogram' | 'short' | 'verification'
>;

/** A verification chunk closes at this many documents, bytes or pairs (memory per worker stays small). */
const CHUNK_DOCS = 256;
const CHUNK_BYTES = 8 * 1024 * 1024;
const CHUNK_PAIRS = 20_000;
/** Components larger than this are not checked for chaining (CHAIN_UNKNOWN): the check reads every member. */
const MAX_CHAIN_MEMBERS = 64;

/** An empty Jaccard cache. */
export function emptyKnown(): KnownPairs {
  return { a: new Uint32Array(0), b: new Uint32Array(0), jaccard: new Float64Array(0), count: 0 };
}

/** Packs per-batch small sets (batch indexes already mapped to doc ids) into one. */
export function concatSets(parts: readonly PackedSets[]): PackedSets {
  let docs = 0;
  let keys = 0;
  for (const p of parts) {
    docs += p.docs.length;
    keys += p.keys.length;
  }
  const out: PackedSets = { docs: new Uint32Array(docs), offsets: new Uint32Array(docs + 1), keys: new Uint32Array(keys) };
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

/** Candidate pairs within k over the corpus' representatives (index worker), with cached Jaccards attached. */
export async function searchCandidates(workers: ScanWorkers, signal: AbortSignal, corpus: SearchCorpus, k: number): Promise<Candidates> {
  const { reps, docs } = corpus;
  const hi = new Uint32Array(reps.length);
  const lo = new Uint32Array(reps.length);
  for (let r = 0; r < reps.length; r++) {
    hi[r] = docs.hi[reps[r]];
    lo[r] = docs.lo[reps[r]];
  }
  const found = await workers.index.call(signal, (api) => api.searchCandidates({ reps, hi, lo, k, known: corpus.known }));
  return { k, pairs: found.candidates, jaccard: found.jaccard, histogram: found.histogram };
}

/**
 * Whether a document's contents can be read: a saved corpus restored without kept contents gives its
 * documents the shared `noContents()` File although they had text. Such a document is never measured
 * (its Jaccard would come out 0, and a verdict saved before would be overwritten by a wrong one).
 * Never `file.size`: on a folder-input File that is a synchronous IPC (11.7 s of main thread for
 * 33,638 candidate pairs of 20,000 files in the ingest bench).
 */
export function contentsReadable(docs: ScanDocs, d: number): boolean {
  return docs.files[d] !== noContents() || docs.sizes[d] === 0;
}

const READ_CONCURRENCY = 16;

/** A verification or chaining job's documents, ready to transfer: items to read, and the kept sets of the others. */
interface LoadedChunk {
  items: IngestItem[];
  buffers: ArrayBuffer[];
  kept: KeptSets;
  /** Documents that had to be read again (no kept set). */
  read: number;
}

/**
 * Prepares the documents `ids` for a job in an ingest worker: a document with a kept feature set is
 * sent as that set (copied into one packed array: posting a view would copy its whole batch buffer);
 * the others' files are read here, asynchronously, and sent as bytes. Why not post the Files:
 * structured-cloning a File from a folder input fetches its metadata with a synchronous IPC, measured
 * 0.1 ms per file when idle and 0.3 ms under load (a 256-file chunk made 100-230 ms tasks in the
 * ingest bench); `readUpTo` (file.stream()) never blocks.
 */
async function loadChunk(corpus: SearchCorpus, ids: readonly number[], readLimit: number): Promise<LoadedChunk> {
  const { docs, keptSets } = corpus;
  const items: IngestItem[] = new Array(ids.length);
  const toRead: number[] = [];
  const keptLocal: number[] = [];
  let words = 0;
  for (let i = 0; i < ids.length; i++) {
    const set = keptSets?.[ids[i]];
    items[i] = { name: docs.paths[ids[i]] };
    if (set) {
      keptLocal.push(i);
      words += set.length;
    } else toRead.push(i);
  }
  const kept: KeptSets = { docs: Uint32Array.from(keptLocal), offsets: new Uint32Array(keptLocal.length + 1), words: new Uint32Array(words) };
  let at = 0;
  keptLocal.forEach((i, s) => {
    const set = keptSets![ids[i]]!;
    kept.words.set(set, at);
    at += set.length;
    kept.offsets[s + 1] = at;
  });
  const buffers = [kept.docs.buffer, kept.offsets.buffer, kept.words.buffer] as ArrayBuffer[];
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
      const read = await readUpTo(file, readLimit);
      if (read.kind === 'bytes') {
        items[i].bytes = read.bytes;
        buffers.push(read.bytes.buffer as ArrayBuffer);
      } else items[i].file = file; // large: the worker reads it; unreadable: the worker reports it
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, toRead.length) }, lane));
  return { items, buffers, kept, read: toRead.length };
}

/**
 * Measures the exact Jaccard of every candidate still NaN, in the ingest workers. A document's feature
 * set comes from `corpus.keptSets` (kept from fingerprinting, within the scan's budget, see
 * scan-session.ts) or, without one, from reading its file again. Pairs are cut into chunks in (a, b)
 * order, so a document's near neighbours mostly share its chunk. `docsRead` counts the files read again.
 */
export async function verifyCandidates(
  workers: ScanWorkers,
  signal: AbortSignal,
  corpus: SearchCorpus,
  candidates: Candidates,
): Promise<{ measured: number; docsRead: number }> {
  const { docs, settings } = corpus;
  const { pairs, jaccard } = candidates;
  const slice = createTimeSlicer();
  const local = new Map<number, number>();
  let ids: number[] = [];
  let index: number[] = [];
  let la: number[] = [];
  let lb: number[] = [];
  let bytes = 0;
  let measured = 0;
  let docsRead = 0;
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  const maxInFlight = workers.ingest.size * 2;
  const flush = () => {
    if (index.length === 0) return;
    const chunkIndex = index;
    const chunkIds = ids;
    const localPairs = { a: Uint32Array.from(la), b: Uint32Array.from(lb), count: la.length };
    const task = loadChunk(corpus, chunkIds, workers.readLimit)
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
    local.clear();
    ids = [];
    index = [];
    la = [];
    lb = [];
    bytes = 0;
  };
  const localOf = (d: number): number => {
    let i = local.get(d);
    if (i === undefined) {
      i = ids.length;
      local.set(d, i);
      ids.push(d);
      // A kept set is about a third of its text (the chunk's bytes bound a worker's memory either way).
      const set = corpus.keptSets?.[d];
      bytes += set ? set.byteLength : docs.sizes[d];
    }
    return i;
  };
  for (let p = 0; p < pairs.count; p++) {
    if (!Number.isNaN(jaccard[p])) continue;
    // Left unknown (NaN: not accepted, not remembered) rather than measured against nothing.
    if (!contentsReadable(docs, pairs.a[p]) || !contentsReadable(docs, pairs.b[p])) continue;
    la.push(localOf(pairs.a[p]));
    lb.push(localOf(pairs.b[p]));
    index.push(p);
    if (ids.length >= CHUNK_DOCS || bytes >= CHUNK_BYTES || index.length >= CHUNK_PAIRS) {
      flush();
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      if (failure !== null) throw failure;
    }
    const pause = slice();
    if (pause) await pause;
    signal.throwIfAborted();
  }
  flush();
  while (inFlight.size > 0) await Promise.race(inFlight);
  if (failure !== null) throw failure;
  return { measured, docsRead };
}

/** Adds the candidates' measured Jaccards to the corpus' cache (a merge of two (a, b)-sorted lists). */
export function rememberJaccards(corpus: SearchCorpus, candidates: Candidates): void {
  const old = corpus.known;
  const { pairs, jaccard } = candidates;
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
      if (!Number.isNaN(jaccard[q])) {
        a[w] = pairs.a[q];
        b[w] = pairs.b[q];
        j[w++] = jaccard[q];
      }
      q++;
    }
  }
  corpus.known = { a: a.slice(0, w), b: b.slice(0, w), jaccard: j.slice(0, w), count: w };
}

/**
 * From candidates to the result's near-duplicate fields: measures what is not known yet, decides and
 * groups in the index worker, checks components for chaining. `onGrouping` hears when measuring ends.
 */
export async function decideNearDuplicates(
  workers: ScanWorkers,
  signal: AbortSignal,
  corpus: SearchCorpus,
  candidates: Candidates,
  options: { similarityThreshold: number; grouping: Grouping; pinned?: readonly number[] },
  onGrouping?: () => void,
): Promise<NearDuplicateFields> {
  const { docs } = corpus;
  const t0 = performance.now();
  let unknown = 0;
  for (let p = 0; p < candidates.pairs.count; p++) if (Number.isNaN(candidates.jaccard[p])) unknown++;
  const { measured, docsRead } = await verifyCandidates(workers, signal, corpus, candidates);
  rememberJaccards(corpus, candidates);
  const t1 = performance.now();
  onGrouping?.();

  const n = docs.count;
  const hasFingerprint = new Uint8Array(n);
  for (let r = 0; r < corpus.reps.length; r++) hasFingerprint[corpus.reps[r]] = 1;
  const grouped = await workers.index.call(signal, (api) =>
    api.groupNearDuplicates({
      n,
      candidates: candidates.pairs,
      jaccard: candidates.jaccard,
      threshold: options.similarityThreshold,
      grouping: options.grouping,
      words: docs.words,
      hi: docs.hi,
      lo: docs.lo,
      hasFingerprint,
      smallSets: corpus.smallSets,
      representative: corpus.representative,
      pinned: options.pinned ? [...options.pinned] : [],
    }),
  );
  const { verified, groups, relation } = grouped;
  const chained = options.grouping === 'components' ? await checkChaining(workers, signal, corpus, grouped, options.similarityThreshold) : null;
  const t2 = performance.now();
  recordPhase('verification', t0, t1, { candidates: candidates.pairs.count, measured, docsRead });
  recordPhase('grouping', t1, t2, { verified: verified.count, groups: groups.count });

  const verification: VerificationStats = {
    candidates: candidates.pairs.count,
    measured,
    cached: candidates.pairs.count - unknown,
    docsRead,
    joinPairs: grouped.joinPairs,
    joinOnly: grouped.joinOnly,
    verifyMs: t1 - t0,
    groupMs: t2 - t1,
  };
  return {
    k: candidates.k,
    similarityThreshold: options.similarityThreshold,
    grouping: options.grouping,
    pinned: options.pinned ? [...options.pinned] : [],
    verified,
    relation,
    groups,
    chained,
    histogram: candidates.histogram,
    short: grouped.short,
    verification,
  };
}

/**
 * Chaining checks of the components that are not cliques, in the ingest workers (they re-read the
 * members). Components of more than MAX_CHAIN_MEMBERS are left CHAIN_UNKNOWN. Fills the table's
 * missing Jaccards to the reference as a side effect.
 */
async function checkChaining(
  workers: ScanWorkers,
  signal: AbortSignal,
  corpus: SearchCorpus,
  grouped: { verified: ScanResult['verified']; groups: ScanResult['groups']; unchecked: Uint8Array },
  threshold: number,
): Promise<Uint8Array> {
  const { groups, verified, unchecked } = grouped;
  const status = new Uint8Array(groups.count);
  // Verified pairs by group, so a job carries only its own pairs.
  const pairsOf = new Map<number, number[]>();
  for (let p = 0; p < verified.count; p++) {
    const g = groups.groupOf[verified.a[p]];
    if (g < 0 || !unchecked[g] || g !== groups.groupOf[verified.b[p]]) continue;
    let list = pairsOf.get(g);
    if (!list) pairsOf.set(g, (list = []));
    list.push(p);
  }
  const tasks: Promise<void>[] = [];
  let jobGroups: number[] = [];
  const dispatch = () => {
    if (jobGroups.length === 0) return;
    const groupIds = jobGroups;
    jobGroups = [];
    const items: number[] = [];
    const offsets = new Int32Array(groupIds.length + 1);
    const members: number[] = [];
    const local = new Map<number, number>();
    const pa: number[] = [];
    const pb: number[] = [];
    const pd: number[] = [];
    const pj: number[] = [];
    groupIds.forEach((g, i) => {
      for (let s = groups.offsets[g]; s < groups.offsets[g + 1]; s++) {
        const d = groups.members[s];
        local.set(d, items.length);
        members.push(items.length);
        items.push(d);
      }
      offsets[i + 1] = members.length;
      for (const p of pairsOf.get(g) ?? []) {
        pa.push(local.get(verified.a[p])!);
        pb.push(local.get(verified.b[p])!);
        pd.push(verified.distance[p]);
        pj.push(verified.jaccard[p]);
      }
    });
    const job: ChainJob = {
      offsets,
      members: Int32Array.from(members),
      pairs: { a: Uint32Array.from(pa), b: Uint32Array.from(pb), distance: Uint8Array.from(pd), jaccard: Float32Array.from(pj), count: pa.length },
    };
    tasks.push(
      loadChunk(corpus, items, workers.readLimit)
        .then((loaded) =>
          workers.ingest.run(signal, (api) => api.chainGroups(transfer(loaded.items, loaded.buffers), job, corpus.settings, threshold, undefined, loaded.kept)),
        )
        .then((r) => {
          groupIds.forEach((g, i) => {
            status[g] = r.status[i];
            for (let s = 0; s < groups.offsets[g + 1] - groups.offsets[g]; s++) {
              const value = r.jaccardToReference[offsets[i] + s];
              if (!Number.isNaN(value)) groups.jaccardToReference[groups.offsets[g] + s] = value;
            }
          });
        }),
    );
  };
  let jobDocs = 0;
  for (let g = 0; g < groups.count; g++) {
    if (!unchecked[g]) continue;
    const size = groups.offsets[g + 1] - groups.offsets[g];
    let readable = true;
    for (let s = groups.offsets[g]; s < groups.offsets[g + 1] && readable; s++) readable = contentsReadable(corpus.docs, groups.members[s]);
    if (size > MAX_CHAIN_MEMBERS || !readable) {
      status[g] = CHAIN_UNKNOWN;
      continue;
    }
    jobGroups.push(g);
    jobDocs += size;
    if (jobDocs >= CHUNK_DOCS) {
      dispatch();
      jobDocs = 0;
    }
  }
  dispatch();
  await Promise.all(tasks);
  return status;
}

/** The search over a fingerprinted scan: exact groups, then near-duplicates (see `decideNearDuplicates`). */
export interface DocsSearch {
  /** The docs with every copy resolved to its original's status, fingerprint and words. */
  docs: ScanDocs;
  representative: Int32Array;
  exactGroups: GroupList;
  near: NearDuplicateFields;
  corpus: SearchCorpus;
  candidates: Candidates;
  indexingMs: number;
  groupingMs: number;
  /** With `options.external`: the pairs the scan's fingerprints contradict (not candidates). */
  mismatched?: ExternalCandidates['mismatched'];
}

export type { DuplicateSearchResult };

/**
 * THE near-duplicate stage, the one every path runs (a scan, a cancelled scan's finished part, a
 * restore, a merge into the saved corpus): exact grouping and the candidate search in the index
 * worker over the docs fingerprinted so far (any status other than ok takes no part), then
 * verification and grouping (`decideNearDuplicates`). With `options.external` (pairs of doc ids found
 * outside, e.g. by DuckDB or Spark) those pairs are the candidates instead of the search's. `known`:
 * Jaccards measured before (never measured again). `searchK`: the radius the index worker searches
 * (default k; a restore from saved pairs searches 0 and takes the saved pairs as its candidates
 * through `candidates`, which may replace the found candidates and the known Jaccards).
 * `onPhase` hears 'grouping' when verification starts.
 */
export async function searchDocs(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  settings: SimHashSettings,
  smallSets: PackedSets,
  options: {
    k: number;
    similarityThreshold: number;
    grouping: Grouping;
    pinned?: readonly number[];
    keptSets?: ReadonlyArray<Uint32Array | undefined>;
    external?: PairList;
    known?: KnownPairs;
    searchK?: number;
    candidates?: (found: DuplicateSearchResult, known: KnownPairs) => { candidates: Candidates; known: KnownPairs };
  },
  onPhase?: (phase: 'grouping') => void,
): Promise<DocsSearch> {
  const t0 = performance.now();
  const { external } = options;
  const searchK = options.searchK ?? options.k;
  const known0 = options.known ?? emptyKnown();
  const found = await workers.index.call(signal, (api) =>
    api.findDuplicates({
      // Structured-cloned, not transferred: the caller's columns stay as they are.
      status: docs.status,
      hi: docs.hi,
      lo: docs.lo,
      words: docs.words,
      hashHi: docs.hashHi,
      hashLo: docs.hashLo,
      k: searchK,
      ...(options.known ? { known: options.known } : {}),
      ...(external ? { external } : {}),
    }),
  );
  const t1 = performance.now();
  // The index worker's own clock: exact grouping, then the candidate search (the rest is messaging).
  recordPhase('exact-grouping', t0, t0 + found.exactMs, { exactGroups: found.exactGroups.count, distinct: found.reps.length });
  recordPhase('search', t1 - found.pairsMs, t1, { k: searchK, candidates: found.candidates.count });
  const resolved: ScanDocs = { ...docs, status: found.status, hi: found.hi, lo: found.lo, words: found.words };
  const own: Candidates = { k: options.k, pairs: found.candidates, jaccard: found.jaccard, histogram: found.histogram };
  const chosen = options.candidates ? options.candidates(found, known0) : { candidates: own, known: known0 };
  const { candidates } = chosen;
  const corpus: SearchCorpus = {
    docs: resolved,
    settings,
    reps: found.reps,
    representative: found.representative,
    smallSets,
    known: chosen.known,
    ...(options.keptSets ? { keptSets: options.keptSets } : {}),
  };
  onPhase?.('grouping');
  const near = await decideNearDuplicates(workers, signal, corpus, candidates, options);
  return {
    docs: resolved,
    representative: found.representative,
    exactGroups: found.exactGroups,
    near,
    corpus,
    candidates,
    indexingMs: t1 - t0,
    groupingMs: performance.now() - t1,
    ...(found.mismatched ? { mismatched: found.mismatched } : {}),
  };
}

/** The near-duplicate fields of a result in which nothing was searched. */
export function noNearDuplicates(n: number, k: number, similarityThreshold: number, grouping: Grouping): NearDuplicateFields {
  const verified = emptyScoredPairs();
  const relation = buildDuplicateRelation({ count: n, representative: new Int32Array(n).fill(-1), verified, lengths: new Uint32Array(n), grouping });
  return {
    k,
    similarityThreshold,
    grouping,
    pinned: [],
    verified,
    relation,
    groups: relation.groups,
    chained: null,
    histogram: new Uint32Array(k + 1),
    short: new Uint8Array(n),
    verification: { candidates: 0, measured: 0, cached: 0, docsRead: 0, joinPairs: 0, joinOnly: 0, verifyMs: 0, groupMs: 0 },
  };
}
