/**
 * A scan's reading and fingerprinting: its progress meter (throttled counts the scan store shows) and
 * the feeding of its files to the ingest pool, as File bytes read here or through directory handles
 * the workers read, with each batch's results scattered into the scan's document columns.
 */
import { proxy, transfer } from 'comlink';
import type { IngestBatchResult } from '../workers/ingest-protocol.ts';
import { DocStatus, skipMessage, tooLargeMessage } from '../core/documents/document-status.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { canShareMemory, createClaimBuffer } from '../workers/claimed-hashes.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { CollectedFiles } from './collect-files.ts';
import { estimateRate } from './progress-meter.ts';
import { docFile, type DocNote, type ScanDocs, type SkippedFile } from './scan-result.ts';
import { REQUIRED_COLUMNS } from './scan-docs.ts';
import { allocateDocColumns, DOC_COLUMN_NAMES, scatterDocColumns } from '../core/documents/doc-columns.ts';
import type { ScanPhase, ScanProgress, ScanStore } from './scan-store.ts';
import { feedFiles } from './batch-feeder.ts';
import { feedIdBatches } from './handle-source.ts';
import type { BatchContents } from '../workers/ingest-protocol.ts';
import type { PackedSets, PackedSetsJoin, SpilledSets } from '../core/groups/packed-sets.ts';
import { SKETCH_BINS } from '../core/groups/minhash-sketch.ts';

/** A batch closes at this many bytes or files: small enough to spread over the pool, big enough to amortize a message. */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;
/** Concurrent main-thread reads: enough to hide the per-file latency of the browser's blob reads. */
const READ_CONCURRENCY = 32;
/**
 * How much memory a scan may spend on keeping feature sets from fingerprinting, so that verifying a
 * candidate pair needs no second read of its files (see verify-candidates.ts `verifyCandidates`).
 * A set costs about 2.9 bytes per distinct feature (Elias-Fano coded, core/groups/feature-set-codec.ts):
 * about 4.4 kB for a 10 kB English document with word 3-shingles, 0.4 bytes per byte of text, so
 * 1 GB of such text fits. Once the budget is spent, the CLI's threads write the sets to a temporary file
 * (src/cli/set-spill.ts); in the page, later documents are read again if they are candidates.
 */
export const KEPT_SETS_BUDGET_BYTES = 512 * 1024 * 1024;

/** A scan's progress counts, published to the store by `publish` (the scan calls it every 100 ms). */
export interface ScanMeter {
  phase: ScanPhase;
  filesDone: number;
  filesTotal: number;
  filesListedOnly: number;
  /** Listed files the person's exclusions left out (never read). */
  filesExcluded: number;
  /** Listed files the quick check found unchanged (not read). */
  filesUnchanged: number;
  checkingOneByOne: boolean;
  bytesDone: number;
  filesRead: number;
  bytesRead: number;
  /** When fingerprinting began (0: not yet); the rate counts from then. */
  fingerprintStart: number;
  /** Bytes read so far of batches still running, by batch key. */
  inflightBytes: Map<number, number>;
  publish(): void;
  setPhase(next: ScanPhase): void;
  /** The quick check asked `done` of `total` saved files their size and time (one ask each: 100,000 take a while, so the page counts them). */
  checked(done: number, total: number, oneByOne: boolean): void;
  /** The listing and quick check are over: `excluded` files left out by exclusions, `unchanged` not read. */
  leftOut(excluded: number, unchanged: number): void;
}

/** A meter for the scan started at `t0`; it publishes only while `isCurrent()`. */
export function createScanMeter(store: ScanStore, t0: number, isCurrent: () => boolean): ScanMeter {
  const m: ScanMeter = {
    phase: 'listing',
    filesDone: 0,
    filesTotal: 0,
    filesListedOnly: 0,
    filesExcluded: 0,
    filesUnchanged: 0,
    checkingOneByOne: false,
    bytesDone: 0,
    filesRead: 0,
    bytesRead: 0,
    fingerprintStart: 0,
    inflightBytes: new Map(),
    publish() {
      if (!isCurrent()) return;
      const now = performance.now();
      let bytes = m.bytesDone;
      for (const b of m.inflightBytes.values()) bytes += b;
      // Workers start during 'reading' (while files are still being read), so the rate counts from then.
      const working = m.fingerprintStart > 0 && (m.phase === 'reading' || m.phase === 'fingerprinting');
      // Sizes are learnt by reading (asking for them up front would block, see read-file-bytes.ts):
      // until every file is read, the total is extrapolated from the files read so far.
      const bytesTotalKnown = m.filesRead === m.filesTotal;
      const bytesTotal = bytesTotalKnown ? m.bytesRead : m.filesRead > 0 ? (m.bytesRead / m.filesRead) * m.filesTotal : 0;
      const rate = working ? estimateRate(bytes, bytesTotal, now - m.fingerprintStart) : { bytesPerSecond: 0, secondsLeft: null };
      const progress: ScanProgress = {
        phase: m.phase,
        filesDone: m.filesDone,
        filesTotal: m.filesTotal,
        filesListedOnly: m.filesListedOnly,
        filesExcluded: m.filesExcluded,
        filesUnchanged: m.filesUnchanged,
        checkingOneByOne: m.checkingOneByOne,
        bytesDone: bytes,
        bytesTotal,
        bytesTotalKnown,
        bytesPerSecond: rate.bytesPerSecond || store.getSnapshot().progress?.bytesPerSecond || 0,
        secondsLeft: rate.secondsLeft,
        elapsedMs: now - t0,
      };
      store.update({ progress });
    },
    setPhase(next) {
      m.phase = next;
      m.publish();
    },
    checked(done, total, oneByOne) {
      m.checkingOneByOne = oneByOne;
      m.filesTotal = total;
      m.filesDone = done;
      if (m.phase !== 'checking') m.setPhase('checking');
    },
    leftOut(excluded, unchanged) {
      // The quick check's own counts (files asked) give way to the scan's: none done yet.
      m.filesDone = 0;
      m.filesExcluded = excluded;
      m.filesUnchanged = unchanged;
    },
  };
  return m;
}

/** Allocates the per-doc arrays for `collected` (doc id = position in the collected list). */
export function allocateDocs(collected: CollectedFiles): ScanDocs {
  const n = collected.files.length;
  return {
    count: n,
    paths: collected.paths,
    files: collected.files,
    ...(collected.roots ? { roots: collected.roots } : {}),
    ...(collected.ranges ? { ranges: collected.ranges } : {}),
    ...allocateDocColumns(DOC_COLUMN_NAMES, n),
  };
}

/** Scatters one batch's results (for docs `ids`, in batch order) into the scan's arrays. */
function storeBatch(docs: ScanDocs, ids: readonly number[], r: IngestBatchResult & { files?: Array<File | null> }, skipped: SkippedFile[], notes: DocNote[]): void {
  for (let j = 0; j < ids.length; j++) {
    const d = ids[j];
    // Read through a handle, a file whose bytes the kept contents miss: the File the worker opened.
    const opened = r.files?.[j];
    if (opened) docs.files[d] = opened;
  }
  scatterDocColumns(docs, REQUIRED_COLUMNS, r, ids);
  if (docs.modified && r.modified) scatterDocColumns({ modified: docs.modified }, ['modified'], { modified: r.modified }, ids);
  for (const s of r.skipped) {
    const docId = ids[s.index];
    skipped.push({ docId, path: docs.paths[docId], size: docs.sizes[docId], reason: s.reason, message: s.message });
  }
  for (const n of r.notes) notes.push({ docId: ids[n.index], path: docs.paths[ids[n.index]], message: n.message });
}

/** What fingerprinting kept for the search: small documents' sets and the feature sets within the budget. */
export interface IngestOutput {
  smallSets: PackedSets[];
  /** Per doc: its encoded feature set from fingerprinting (see KEPT_SETS_BUDGET_BYTES). */
  keptSets: Array<Uint32Array | undefined>;
  keptBytes: number;
  /** The CLI: where each document's set went once the budget was spent (ScanWorkers.spillSets), else absent. */
  spilled?: SpilledSets;
  /**
   * Per doc: its MinHash sketch (core/groups/minhash-sketch.ts), SKETCH_BINS Uint16 each (128 bytes a
   * document, every document, kept set or not), all 0 until fingerprinted: verification's filter.
   */
  sketches: Uint16Array;
  /** Per doc: its feature-set size (0 until fingerprinted), kept set or not: verification's size bound (4 bytes a document). */
  setSizes: Uint32Array;
  /** Sampled passages of the documents fingerprinted (doc ids), when containment is searched: joined as batches arrive. */
  passages: PackedSetsJoin;
}

/** One ingest batch finished: `ids` are the doc ids whose entries in `docs` are now final; `contents`, with `keepBytes`, holds their bytes in one Blob (`ids[j]`'s range is empty when a worker read the File). */
export interface ScanBatch {
  docs: ScanDocs;
  ids: readonly number[];
  contents?: BatchContents;
  /** What the scan said of each skipped doc of the batch (doc id -> message), saved so a reload says it too. */
  messages?: ReadonlyMap<number, string>;
  /** The scan's feature-set sizes and sketches by doc id (IngestOutput's, the batch's filled in), saved so a reload's verification has them. */
  known?: { setSizes: Uint32Array; sketches: Uint16Array };
}

/** What the feeding works with: the scan's workers, signal, settings and where its results go. */
export interface IngestJob {
  workers: ScanWorkers;
  signal: AbortSignal;
  settings: SimHashSettings;
  /** Whether the workers return each batch's bytes in one Blob (the saved corpus keeps contents). */
  keepBytes: boolean;
  /** Each finished batch, in the order they finish (skips the page finds itself are a batch of one). */
  onBatch: (batch: ScanBatch) => void;
  scanDocs: ScanDocs;
  /** The directory handles' token in the workers (null: the page reads the Files). */
  handleToken: string | null;
  meter: ScanMeter;
  skipped: SkippedFile[];
  notes: DocNote[];
  /** Called once every file is read (or sent to a worker): fingerprinting is what remains. */
  onSent: () => void;
  /** Each file's modification time when the page asked it before reading (see quick-check.ts statFiles). */
  modified?: Float64Array;
  /** Whether the workers return sampled passages (containment is searched). */
  passages?: boolean;
}

/** Reads and fingerprints every file of the scan in the ingest pool, into `out` as batches arrive (a cancel keeps what came); resolves once every batch is in. */
export async function ingestAll(job: IngestJob, out: IngestOutput): Promise<void> {
  const { workers, signal, settings, keepBytes, onBatch, scanDocs, handleToken, meter: m, skipped, notes, onSent, modified } = job;
  const passages = job.passages === true;
  const budget = workers.keptSetsBudget ?? KEPT_SETS_BUDGET_BYTES;
  // The feeder reads small files here and batches their bytes; larger files go to a worker alone.
  const claims = canShareMemory() ? createClaimBuffer(m.filesTotal) : undefined;
  // Kept sets in shared memory: verification and containment name them to the workers, never copy them here.
  const shareSets = claims !== undefined;
  const skip = (d: number, size: number, reason: 'unreadable' | 'too-large', status: number, message: string) => {
    m.filesRead++;
    scanDocs.sizes[d] = size;
    if (scanDocs.modified && modified) scanDocs.modified[d] = modified[d]!;
    scanDocs.status[d] = status;
    skipped.push({ docId: d, path: scanDocs.paths[d], size, reason, message });
    m.filesDone++;
    // Skips the page finds itself are part of the corpus too: saved like a batch, so a reload lists them.
    onBatch({ docs: scanDocs, ids: [d], messages: new Map([[d, message]]) });
  };
  /** Takes in one batch's result (doc ids `ids`, in batch order). */
  const received = (ids: number[], result: IngestBatchResult & { files?: Array<File | null> }) => {
    storeBatch(scanDocs, ids, result, skipped, notes);
    const sketches = result.sketches;
    for (let j = 0; j < ids.length; j++) out.sketches.set(sketches.subarray(j * SKETCH_BINS, (j + 1) * SKETCH_BINS), ids[j] * SKETCH_BINS);
    if (result.setSizes) for (let j = 0; j < ids.length; j++) out.setSizes[ids[j]] = result.setSizes[j];
    if (result.kept) {
      const { docs: at, offsets, words } = result.kept;
      for (let i = 0; i < at.length; i++) out.keptSets[ids[at[i]]] = words.subarray(offsets[i], offsets[i + 1]);
      out.keptBytes += words.byteLength;
    }
    if (result.spilled && out.spilled) {
      const { docs: at, fd } = result.spilled;
      for (let i = 0; i < at.length; i++) {
        const d = ids[at[i]];
        out.spilled.fd[d] = fd;
        out.spilled.at[d] = result.spilled.at[i];
        out.spilled.words[d] = result.spilled.words[i];
      }
    }
    // Small documents' feature sets stay for the short-document join (batch indexes -> doc ids).
    for (const sets of [result.sets, result.passages]) {
      if (!sets || sets.docs.length === 0) continue;
      for (let i = 0; i < sets.docs.length; i++) sets.docs[i] = ids[sets.docs[i]];
      if (sets === result.sets) out.smallSets.push(sets);
      // Room for as many passages a file as so far, and a tenth more: the join grows about once, not by doubling.
      else out.passages.add(sets, Math.ceil(((out.passages.keyCount + sets.keys.length) / (m.filesDone + ids.length)) * m.filesTotal * 1.1));
    }
    const messages = result.skipped.length > 0 ? new Map(result.skipped.map((s) => [ids[s.index]!, s.message])) : undefined;
    const known = { setSizes: out.setSizes, sketches: out.sketches };
    onBatch({ docs: scanDocs, ids, known, ...(result.contents ? { contents: result.contents } : {}), ...(messages ? { messages } : {}) });
    m.filesDone += ids.length;
  };
  const maxInFlight = workers.ingest.size * 2;
  if (handleToken !== null) {
    // The workers open and read the files; sizes are learnt as each batch comes back.
    await feedIdBatches(
      m.filesTotal,
      async (ids) => {
        const keepSets = out.keptBytes < budget;
        const paths = ids.map((d) => scanDocs.paths[d]);
        const result = await workers.ingest.run(signal, (api) => api.ingestHandles(handleToken, paths, settings, { claims, keepBytes, keepSets, shareSets, setSizes: true, passages }));
        received(ids, result);
        let bytes = 0;
        for (let j = 0; j < ids.length; j++) if (result.status[j] !== DocStatus.unreadable) bytes += result.sizes[j];
        m.filesRead += ids.length;
        m.bytesRead += bytes;
        m.bytesDone += bytes;
      },
      { batchFiles: BATCH_FILES, maxInFlight, signal },
      onSent,
    );
  } else {
    await feedFiles(
      scanDocs.files,
      scanDocs.paths,
      {
        send: async ({ ids, items, buffers, bytes, large }) => {
          // Only a batch holding a large file reports bytes while it runs; others finish within a blink.
          const key = ids[0];
          const onProgress = large ? proxy((read: number) => void m.inflightBytes.set(key, read)) : undefined;
          // Decided when the batch is sent: batches in flight may take the budget a little past its end; past it, the CLI spills.
          const spillSets = out.spilled !== undefined && out.keptBytes >= budget;
          const keepSets = spillSets || out.keptBytes < budget;
          const result = await workers.ingest.run(signal, (api) => api.ingestBatch(transfer(items, buffers), settings, { claims, keepBytes, keepSets, spillSets, shareSets, setSizes: true, passages }, onProgress));
          m.inflightBytes.delete(key);
          received(ids, result);
          m.bytesDone += large ? result.sizes[0] : bytes;
          if (large) {
            m.bytesRead += result.sizes[0];
            m.filesRead++;
          }
        },
        read: (_d, bytes) => {
          m.filesRead++;
          m.bytesRead += bytes;
        },
        unreadable: (d, message) => skip(d, 0, 'unreadable', DocStatus.unreadable, skipMessage('unreadable', message)),
        // Never fingerprinted in part (a part would call files that differ past it identical).
        tooLarge: (d, size) => skip(d, size, 'too-large', DocStatus.tooLarge, tooLargeMessage(size)),
      },
      {
        readLimit: workers.readLimit,
        ...(workers.diskRef ? { diskRef: workers.diskRef } : {}),
        maxInFlight,
        signal,
        batchBytes: BATCH_BYTES,
        batchFiles: BATCH_FILES,
        readConcurrency: READ_CONCURRENCY,
        ...(modified ? { modified } : {}),
        // Kept contents (a rescan of a restored corpus): each document is its range of a stored batch.
        ...(scanDocs.ranges ? { fileAt: (d: number) => docFile(scanDocs, d) } : {}),
      },
      onSent,
    );
  }
}
