/**
 * Taking documents out of the saved corpus so that what stays is still true: an exact copy is stored
 * without a fingerprint of its own (status 'copy', resolved by content hash to its original on load),
 * so when the original leaves, the first remaining member of its class (path order) is written anew
 * with the class's fingerprint in the same transaction. Used by "Remove from corpus" and by a folder
 * chosen again whose files are missing.
 */
import { removeDocuments, type CorpusSummary, type NewDocument } from '../storage/corpus-repository.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import { NO_ID } from '../storage/schema.ts';
import { storedDocumentOf } from './stored-documents.ts';
import type { ScanDocs } from '../scan/scan-result.ts';

/** A corpus on show: resolved docs (copies carry their original's fingerprint) and storage ids by position. */
export interface ShownCorpus {
  docs: ScanDocs;
  storageIds: Uint32Array;
}

/**
 * The stored documents to write anew when `positions` leave `shown`: for every exact class (same
 * content hash) that loses a member, its first remaining saved member, with the class's fingerprint.
 */
export function successorsOf(shown: ShownCorpus, positions: Iterable<number>, gone: ReadonlySet<number> = new Set()): NewDocument[] {
  const { docs, storageIds } = shown;
  const leaving = new Set(positions);
  const key = (d: number) => `${docs.hashHi[d]}:${docs.hashLo[d]}`;
  const hashed = (d: number) => docs.hashHi[d] !== 0 || docs.hashLo[d] !== 0;
  const classes = new Set<string>();
  for (const p of leaving) if (hashed(p)) classes.add(key(p));
  const out: NewDocument[] = [];
  if (classes.size === 0) return out;
  // Positions are in path order: the first member met is the class's new head.
  for (let d = 0; d < docs.count; d++) {
    if (leaving.has(d) || gone.has(d) || storageIds[d] === NO_ID || !hashed(d) || !classes.has(key(d))) continue;
    classes.delete(key(d));
    const doc = storedDocumentOf(docs, d, storageIds[d]!);
    if (doc) out.push(doc);
  }
  return out;
}

/**
 * Removes the saved documents at `positions` of `shown` (those without a storage id are skipped) and
 * writes their classes' successors, in one transaction under the writer lock. `gone`: positions that
 * left storage already (replaced by a scan), never chosen as a successor. Returns how many were
 * removed and the counters, or null when nothing of them was saved.
 */
export async function removeFromCorpus(
  shown: ShownCorpus,
  positions: readonly number[],
  gone?: ReadonlySet<number>,
): Promise<(CorpusSummary & { removed: number; rewritten: number }) | null> {
  const ids = positions.map((p) => shown.storageIds[p]!).filter((id) => id !== NO_ID);
  if (ids.length === 0) return null;
  const rewrite = successorsOf(shown, positions, gone);
  const outcome = await withWriterLock(() => removeDocuments(ids, rewrite), { wait: true });
  return outcome.acquired ? { ...outcome.value, rewritten: rewrite.length } : null;
}
