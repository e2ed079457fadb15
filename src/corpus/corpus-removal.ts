/**
 * Taking documents out of the saved corpus so that what stays is still true: an exact copy is stored
 * without a fingerprint of its own (status 'copy', resolved by content hash to its original on load),
 * so when the original leaves, the first remaining member of its class (path order) is written anew
 * with the class's fingerprint (and its entries in the stored tables) in the same transaction. Used by "Remove from corpus" and by a folder
 * chosen again whose files are missing.
 */
import { removeDocuments, type CorpusSummary, type NewDocument } from '../storage/corpus-repository.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import { NO_ID, type DocId, type StorageIds } from '../core/ids.ts';
import { batchEntries, storedDocumentOf, type KnownSets } from './stored-documents.ts';
import type { ScanDocs } from '../scan/scan-result.ts';
import type { EntriesFor } from '../storage/permuted-shards.ts';

/** A corpus on show: resolved docs (copies carry their original's fingerprint) and storage ids by position. */
export interface ShownCorpus {
  docs: ScanDocs;
  storageIds: StorageIds;
  /** Its search corpus's set sizes and sketches: a class's new head is written with its text's (absent: not known). */
  known?: KnownSets;
}

/**
 * The positions whose stored documents are written anew when `positions` leave `shown`: for every exact
 * class (same content hash) that loses a member, its first remaining saved member.
 */
function successorPositions(shown: ShownCorpus, positions: Iterable<DocId>, gone: ReadonlySet<DocId>): DocId[] {
  const { docs, storageIds } = shown;
  const leaving = new Set<number>(positions);
  const key = (d: number) => `${docs.hashHi[d]}:${docs.hashLo[d]}`;
  const hashed = (d: number) => docs.hashHi[d] !== 0 || docs.hashLo[d] !== 0;
  const classes = new Set<string>();
  for (const p of leaving) if (hashed(p)) classes.add(key(p));
  const out: DocId[] = [];
  if (classes.size === 0) return out;
  // Positions are in path order: the first member met is the class's new head.
  for (let q = 0; q < docs.count; q++) {
    const d = q as DocId;
    if (leaving.has(d) || gone.has(d) || storageIds[d] === NO_ID || !hashed(d) || !classes.has(key(d))) continue;
    classes.delete(key(d));
    out.push(d);
  }
  return out;
}

/**
 * The stored documents to write anew when `positions` leave `shown`: for every exact class (same
 * content hash) that loses a member, its first remaining saved member, with the class's fingerprint.
 */
export function successorsOf(shown: ShownCorpus, positions: Iterable<DocId>, gone: ReadonlySet<DocId> = new Set()): NewDocument[] {
  return successorsAt(shown, successorPositions(shown, positions, gone)).docs;
}

/** The stored tables' index parameters (null: none stored). */
type TableParams = { k: number; blocks: number } | null;

/**
 * What a removal of `positions` writes anew: their classes' successors as stored documents and, with
 * stored `tables`, the successors' entries in them (null when there is nothing to add or no tables).
 */
export function successorWrites(shown: ShownCorpus, positions: Iterable<DocId>, gone: ReadonlySet<DocId> = new Set(), tables: TableParams = null): { docs: NewDocument[]; entries: EntriesFor | null } {
  const { docs, at } = successorsAt(shown, successorPositions(shown, positions, gone));
  const entries = tables && at.length > 0 ? { k: tables.k, blocks: tables.blocks, entries: batchEntries(tables, shown.docs, at, shown.storageIds) } : null;
  return { docs, entries };
}

/** The successors at `at` as stored documents, and their positions (those that make one). */
function successorsAt(shown: ShownCorpus, at: readonly DocId[]): { docs: NewDocument[]; at: DocId[] } {
  const docs: NewDocument[] = [];
  const kept: DocId[] = [];
  for (const d of at) {
    const doc = storedDocumentOf(shown.docs, d, shown.storageIds[d]!, undefined, shown.known);
    if (doc) {
      docs.push(doc);
      kept.push(d);
    }
  }
  return { docs, at: kept };
}

/** What a removal did: the corpus's counters, documents removed and written anew, and whether the stored tables stayed. */
export type Removal = CorpusSummary & { removed: number; rewritten: number; tables: 'kept' | 'dropped' };

/**
 * Removes the saved documents at `positions` of `shown` (those without a storage id are skipped) and
 * writes their classes' successors with their entries in the stored `tables`, in ONE transaction under
 * the writer lock: a failure leaves all of it unwritten, and no later write is needed for the tables to
 * hold every fingerprinted document. `gone`: positions that left storage already (replaced by a scan),
 * never chosen as a successor. Returns null when nothing of them was saved.
 */
export async function removeFromCorpus(
  shown: ShownCorpus,
  positions: readonly DocId[],
  gone: ReadonlySet<DocId> = new Set(),
  tables: TableParams = null,
): Promise<Removal | null> {
  const ids = positions.map((p) => shown.storageIds[p]!).filter((id) => id !== NO_ID);
  if (ids.length === 0) return null;
  const rewrite = successorWrites(shown, positions, gone, tables);
  const outcome = await withWriterLock(() => removeDocuments(ids, rewrite.docs, rewrite.entries), { wait: true });
  return outcome.acquired ? { ...outcome.value, rewritten: rewrite.docs.length } : null;
}
