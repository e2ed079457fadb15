/**
 * The batch writer: commits a scan's ingest batches to the saved corpus as they finish, one
 * transaction each (so a closed tab or a full disk keeps every batch committed before it), under the
 * writer lock and a scan-session marker that tells the next load whether the scan was interrupted.
 */
import type { DocId, StorageIds } from '../core/ids.ts';
import { addBatch, compactChunks, getCorpusSummary, removeDocuments } from '../storage/corpus-repository.ts';
import type { CorpusSummary, NewDocument } from '../storage/corpus-repository.ts';
import { beginScanSession, endScanSession, markStorageFull } from '../storage/scan-sessions.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import { docFile, type ScanDocs } from '../scan/scan-result.ts';
import { batchEntries, storedDocumentOf, type KnownSets } from './stored-documents.ts';
import { sameContents } from './merge-corpus.ts';
import { NO_ID } from '../core/ids.ts';
import { successorWrites } from './corpus-removal.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import type { ContentBatch } from '../storage/content-batches.ts';
import type { BatchContents } from '../workers/ingest-protocol.ts';
import type { ScanBatch } from '../scan/scan-ingest.ts';

/** How long a write waits for the writer lock held by a moment's write (a restore, another tab's small write). */
export const LOCK_WAIT_MS = 3000;

/**
 * Takes the writer lock, waiting at most `waitMs` (0: not at all; Infinity: until `signal` aborts);
 * resolves with a release function, or null when the lock was not had.
 */
export function tryLock(waitMs = 0, signal?: AbortSignal): Promise<(() => void) | null> {
  return new Promise((resolve) => {
    const limit = Number.isFinite(waitMs) && waitMs > 0 ? AbortSignal.timeout(waitMs) : undefined;
    const stop = limit && signal ? AbortSignal.any([limit, signal]) : (limit ?? signal);
    void withWriterLock(
      () =>
        new Promise<void>((release) => {
          resolve(release);
        }),
      waitMs > 0 ? { wait: true, ...(stop ? { signal: stop } : {}) } : { wait: false },
    ).then(
      (outcome) => {
        if (!outcome.acquired) resolve(null);
      },
      () => resolve(null),
    );
  });
}

/** One scan's writes to the saved corpus. */
export interface BatchWriter {
  readonly sessionId: number;
  /** Storage id of each scan doc (NO_ID until its batch is queued, or when it is not saved). */
  readonly storageIdOf: StorageIds;
  /** The k of the scan (batches carry table entries only for tables of this k). */
  readonly k: number;
  /** True once a commit failed (the rest of the scan is not saved). */
  readonly failed: boolean;
  /**
   * True when a batch was committed without table entries, or a replaced document's exact copy was
   * written anew as its class's head (it has no entries): the tables are rebuilt after the scan.
   */
  readonly tablesMissed: boolean;
  /** Documents committed so far. */
  readonly committed: number;
  /** Per scan doc: 1 once it is in the saved corpus (committed, or saved before with the same contents). */
  readonly inCorpus: Uint8Array;
  /** Saved positions (of `options.saved`) this scan replaced with a new version. */
  readonly replacedPositions: ReadonlySet<DocId>;
  /** After a failure: the storage ids given to documents whose batch never committed. */
  readonly lostIds: ReadonlySet<number>;
  /**
   * Queues a scan's batch: its docs `ids` (with their bytes when contents are kept, the scan's message of
   * each skipped doc, and the feature-set sizes and sketches fingerprinting found); commits run in order.
   */
  write(batch: ScanBatch, keepContents: boolean, tables: { k: number; blocks: number } | null): void;
  /** Resolves when every queued batch has committed or the writer failed; never rejects. */
  settled(): Promise<void>;
  /** Waits for the queued batches, records how the scan ended and releases the lock. */
  close(state: 'finished' | 'cancelled' | 'failed' | 'storage-full', message?: string): Promise<void>;
}

export interface BatchWriterOptions {
  /** The writer lock's release function (the writer holds the lock until `close`). */
  release: () => void;
  label: string;
  total: number;
  /** Files listed but not stored as documents, [path, reason, message] (kept with the session marker). */
  notSaved?: [string, string, string][];
  /** The scan syncs the corpus to a chosen folder (kept with the marker, so a resume syncs too). */
  sync?: boolean;
  k: number;
  /** After each commit: the corpus counters (the panel's document count follows the scan). */
  onCommitted(summary: CorpusSummary): void;
  /** A commit failed (a full quota, ...): the batch was rolled back as a whole. */
  onFailure(error: unknown): void;
  /**
   * The saved corpus on show: a file whose path is saved already is not added twice. With the same
   * contents it is not written; with other contents it is written and the saved document removed.
   */
  saved?: { docs: ScanDocs; at: ReadonlyMap<string, DocId>; storageIds: StorageIds; known?: KnownSets } | null;
}

/** Opens the scan-session marker and returns the writer; the caller already holds the lock. */
export async function openBatchWriter(docs: ScanDocs, options: BatchWriterOptions): Promise<BatchWriter> {
  const summary = await getCorpusSummary();
  const firstId = summary.nextId;
  const sessionId = await beginScanSession({ label: options.label, total: options.total, notSaved: options.notSaved, sync: options.sync });
  let nextId = summary.nextId;
  let chain: Promise<void> = Promise.resolve();
  let failed = false;
  let tablesMissed = false;
  let committed = 0;
  let closed = false;
  const inCorpus = new Uint8Array(docs.count);
  const lostIds = new Set<number>();
  const storageIdOf = new Uint32Array(docs.count).fill(NO_ID) as StorageIds;
  /** Saved positions replaced by a new version so far (their copies' next head must not be one of them). */
  const replacedPositions = new Set<DocId>();
  return {
    sessionId,
    storageIdOf,
    k: options.k,
    get failed() {
      return failed;
    },
    get tablesMissed() {
      return tablesMissed;
    },
    get committed() {
      return committed;
    },
    inCorpus,
    lostIds,
    replacedPositions,
    write({ docs: batchDocs, ids, contents: bytes, messages, known }, keepContents, tables) {
      if (failed || closed) return;
      const documents: NewDocument[] = [];
      const kept = keepContents ? keptContents(batchDocs, bytes) : null;
      const fingerprinted: number[] = [];
      const written: number[] = [];
      const replaced: number[] = [];
      const retimed = new Map<number, number>();
      const saved = options.saved;
      for (let j = 0; j < ids.length; j++) {
        const d = ids[j]!;
        const q = saved?.at.get(batchDocs.paths[d]!);
        // A saved position without a storage id is shown but not stored (its batch did not fit): write it.
        if (saved && q !== undefined && saved.storageIds[q] !== NO_ID && batchDocs.status[d] !== DocStatus.pending) {
          if (sameContents(saved.docs, q, batchDocs, d)) {
            inCorpus[d] = 1;
            noteRetime(retimed, saved, q, batchDocs.modified?.[d] ?? 0);
            continue;
          }
          if (saved.storageIds[q] !== NO_ID) {
            replaced.push(saved.storageIds[q]!);
            replacedPositions.add(q);
          }
        }
        const doc = storedDocumentOf(batchDocs, d, nextId, messages?.get(d), known);
        if (!doc) continue;
        storageIdOf[d] = nextId++;
        written.push(d);
        documents.push(doc);
        if (doc.status === 'ok') fingerprinted.push(d);
        // A file never read whole (too large, unreadable) has no contents to keep.
        if (batchDocs.status[d] !== DocStatus.tooLarge && batchDocs.status[d] !== DocStatus.unreadable) kept?.add(doc.id, j, d);
      }
      if (documents.length === 0 && retimed.size === 0) return;
      // Stored tables for this k: the batch's entries are merged into their shards in its transaction.
      const t = tables && tables.k === options.k ? tables : null;
      const tableEntries = t && fingerprinted.length > 0 ? batchEntries(t, batchDocs, fingerprinted, storageIdOf) : undefined;
      if (!t) tablesMissed = true;
      const contents = kept?.batch();
      // A replaced document may have been the stored head of an exact class (its copies are stored
      // without a fingerprint): the class's first remaining member is written anew as the head, in
      // the removal's transaction, as "Remove from corpus" does (corpus-removal.ts).
      // With their entries in the stored tables (without tables for this k the set is rebuilt at the end anyway).
      const successors = saved && replaced.length > 0 ? successorWrites({ docs: saved.docs, storageIds: saved.storageIds, ...(saved.known ? { known: saved.known } : {}) }, [...replacedPositions], undefined, t) : null;
      chain = chain.then(async () => {
        if (failed) return;
        try {
          let after = await addBatch({ documents, contents, sessionId, tableEntries, ...(retimed.size > 0 ? { retimed } : {}) });
          // After the new version is committed, so a crash in between keeps a file twice, never loses it.
          if (replaced.length > 0) after = await removeDocuments(replaced, successors?.docs, successors?.entries);
          committed += documents.length;
          for (const d of written) inCorpus[d] = 1;
          options.onCommitted(after);
        } catch (error) {
          failed = true;
          // Documents whose batch never committed have no storage id (the shown corpus must not
          // claim them: a resume would take them for saved and skip them).
          for (let d = 0; d < storageIdOf.length; d++) {
            if (inCorpus[d] || storageIdOf[d] === NO_ID) continue;
            lostIds.add(storageIdOf[d]!);
            storageIdOf[d] = NO_ID;
          }
          options.onFailure(error);
        }
      });
    },
    settled: () => chain,
    async close(state, message) {
      if (closed) return chain;
      closed = true;
      await chain;
      try {
        // Each batch was its own chunk: join them now, behind the results (see compactChunks).
        if (committed > 0) await compactChunks(firstId);
      } catch {
        // The small chunks read the same; a full quota may refuse the rewrite.
      }
      try {
        if (state === 'storage-full') await markStorageFull(sessionId, message);
        else await endScanSession(sessionId, state, message);
      } catch {
        // A full quota can refuse even this small write; the marker then says 'running' and the next
        // load offers to resume, which is still right.
      } finally {
        options.release();
      }
    },
  };
}

/**
 * A saved document read again with the same contents: its stored time follows the file's (touched, or
 * saved without one). The corpus on show takes it too, at once: a document written anew from it later
 * (an exact class's next head, when its head is removed or replaced) must not bring the old time back.
 */
function noteRetime(retimed: Map<number, number>, saved: { docs: ScanDocs; storageIds: StorageIds }, q: number, time: number): void {
  if (!(time > 0) || time === (saved.docs.modified?.[q] ?? 0)) return;
  retimed.set(saved.storageIds[q]!, time);
  if (saved.docs.modified) saved.docs.modified[q] = time;
}

/**
 * Collects a batch's kept contents as one ContentBatch: ranges of the worker's Blob of the batch's
 * bytes, not the scan's Files (storing a File from a folder input costs a synchronous metadata IPC
 * on the main thread per file, see IngestBatchResult.contents). A file the worker read itself (a large
 * one, alone in its batch) has no bytes in that Blob: its File is appended, once.
 */
function keptContents(docs: ScanDocs, bytes: BatchContents | undefined) {
  const ids: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const extra: Blob[] = [];
  let extraAt = bytes ? bytes.blob.size : 0;
  return {
    /** Document `id` is item `j` of the batch, scan doc `d`. */
    add(id: number, j: number, d: number): void {
      ids.push(id);
      if (bytes && (bytes.offsets[j + 1]! > bytes.offsets[j]! || docs.sizes[d] === 0)) {
        starts.push(bytes.offsets[j]!);
        ends.push(bytes.offsets[j + 1]!);
      } else {
        extra.push(docFile(docs, d));
        starts.push(extraAt);
        extraAt += docs.sizes[d]!;
        ends.push(extraAt);
      }
    },
    batch(): ContentBatch | undefined {
      if (ids.length === 0) return undefined;
      const blob = extra.length === 0 ? bytes!.blob : new Blob(bytes ? [bytes.blob, ...extra] : extra);
      return { ids: Uint32Array.from(ids), starts: Uint32Array.from(starts), ends: Uint32Array.from(ends), blob };
    },
  };
}
