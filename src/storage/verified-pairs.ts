/**
 * The verified near-duplicate pairs of the saved corpus (one meta record), so a reload restores the
 * groups without reading files again; valid only for the corpus revision it was written at.
 */
import { readTransaction, writeTransaction } from './database.ts';
import type { VerifiedPairsRecord } from './schema.ts';
import { StorageError } from './storage-error.ts';
import type { PackedSets } from '../core/groups/packed-sets.ts';
import type { StorageIds } from '../core/ids.ts';
import type { CandidateDecisions } from '../core/groups/candidate-decisions.ts';

/** Verified pairs by stored document id (a < b), with their exact Jaccard and the threshold used. */
export interface VerifiedPairs {
  k: number;
  threshold: number;
  grouping: string;
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
  jaccard: Float32Array;
  histogram: Uint32Array;
  count: number;
  /** Stored ids of the documents a person made references (in the order they were chosen). */
  pinned?: StorageIds;
  /** The containment threshold of the view (0: off); absent in pairs saved before containment. */
  containment?: number;
  /** The documents' sampled passages by stored id, so a reload searches contained documents without reading files. */
  passages?: PackedSets;
  /**
   * How the search that found the pairs decided the histogram's candidates, so a reload that shows them
   * can say it again; absent: not known (saved before they were kept, or by a CLI bundle).
   */
  decisions?: CandidateDecisions;
}

/**
 * Saves the pairs if the corpus is still at `revision` (returns false, writing nothing, when another
 * write came in between: the pairs would describe another corpus).
 */
export async function putVerifiedPairs(revision: number, pairs: VerifiedPairs): Promise<boolean> {
  const record = verifiedPairsRecord(revision, pairs);
  return writeTransaction(['meta'], async (tx) => {
    const store = tx.objectStore('meta');
    const meta = await store.get('corpus');
    if (!meta || meta.key !== 'corpus' || meta.revision !== revision) return false;
    await store.put(record);
    return true;
  });
}

/** The meta record of `pairs` saved at corpus `revision` (checked: every array one entry per pair). */
export function verifiedPairsRecord(revision: number, pairs: VerifiedPairs): VerifiedPairsRecord {
  const n = pairs.count;
  if (pairs.a.length !== n || pairs.b.length !== n || pairs.jaccard.length !== n || pairs.distance.length !== n) {
    throw new StorageError('invalid-input', 'verified pair arrays of different lengths');
  }
  const record: VerifiedPairsRecord = {
    key: 'verified',
    revision,
    k: pairs.k,
    threshold: pairs.threshold,
    grouping: pairs.grouping,
    a: pairs.a.slice().buffer,
    b: pairs.b.slice().buffer,
    distance: pairs.distance.slice().buffer,
    jaccard: pairs.jaccard.slice().buffer,
    histogram: pairs.histogram.slice().buffer,
    ...(pairs.pinned && pairs.pinned.length > 0 ? { pinned: pairs.pinned.slice().buffer } : {}),
    ...(pairs.containment !== undefined ? { containment: pairs.containment } : {}),
    ...(pairs.passages
      ? { passageDocs: pairs.passages.docs.slice().buffer, passageOffsets: pairs.passages.offsets.slice().buffer, passageKeys: pairs.passages.keys.slice().buffer }
      : {}),
    ...(pairs.decisions ? { decisions: { ...pairs.decisions } } : {}),
  };
  return record;
}

/** The saved pairs when they belong to the current corpus revision, else null. */
export async function getVerifiedPairs(): Promise<VerifiedPairs | null> {
  const [record, meta] = await readTransaction(['meta'], (tx) =>
    Promise.all([tx.objectStore('meta').get('verified'), tx.objectStore('meta').get('corpus')]),
  );
  if (!record || !meta || meta.key !== 'corpus' || record.key !== 'verified' || record.revision !== meta.revision) return null;
  const buffers = [record.a, record.b, record.distance, record.jaccard, record.histogram];
  const ok =
    buffers.every((x) => x instanceof ArrayBuffer) &&
    record.a.byteLength === record.b.byteLength &&
    record.a.byteLength === record.jaccard.byteLength &&
    record.a.byteLength === record.distance.byteLength * 4 &&
    record.histogram.byteLength % 4 === 0 &&
    Number.isInteger(record.k) &&
    typeof record.threshold === 'number' &&
    typeof record.grouping === 'string' &&
    (record.pinned === undefined || (record.pinned instanceof ArrayBuffer && record.pinned.byteLength % 4 === 0)) &&
    containmentValid(record.containment) &&
    (record.decisions === undefined || decisionsValid(record.decisions));
  if (!ok) throw new StorageError('corrupt', 'verified pairs');
  const passages = savedPassages(record);
  const a = new Uint32Array(record.a);
  return {
    k: record.k,
    threshold: record.threshold,
    grouping: record.grouping,
    a,
    b: new Uint32Array(record.b),
    distance: new Uint8Array(record.distance),
    jaccard: new Float32Array(record.jaccard),
    histogram: new Uint32Array(record.histogram),
    count: a.length,
    ...(record.pinned ? { pinned: new Uint32Array(record.pinned) as StorageIds } : {}),
    ...(record.containment !== undefined ? { containment: record.containment } : {}),
    ...(passages ? { passages } : {}),
    ...(record.decisions ? { decisions: { ...record.decisions } } : {}),
  };
}

/** A saved containment threshold is a fraction (absent: saved before containment). */
function containmentValid(c: unknown): boolean {
  return c === undefined || (typeof c === 'number' && c >= 0 && c <= 1);
}

/** Saved decision counts are whole, not negative, and no more ruled out than there were candidates. */
function decisionsValid(d: CandidateDecisions): boolean {
  if (typeof d !== 'object' || d === null) return false;
  const counts = [d.candidates, d.sizeRejected, d.sketchRejected, d.decidedBefore ?? 0, d.unmeasured ?? 0];
  return counts.every((n) => Number.isInteger(n) && n >= 0) && d.sizeRejected + d.sketchRejected + (d.unmeasured ?? 0) <= d.candidates;
}

/** The record's passages, checked (offsets ascending within the keys), or undefined when it has none. */
function savedPassages(record: VerifiedPairsRecord): PackedSets | undefined {
  const { passageDocs, passageOffsets, passageKeys } = record;
  if (passageDocs === undefined && passageOffsets === undefined && passageKeys === undefined) return undefined;
  const buffers = [passageDocs, passageOffsets, passageKeys];
  if (!buffers.every((x) => x instanceof ArrayBuffer && x.byteLength % 4 === 0)) throw new StorageError('corrupt', 'saved passages');
  const docs = new Uint32Array(passageDocs!);
  const offsets = new Uint32Array(passageOffsets!);
  const keys = new Uint32Array(passageKeys!);
  let ok = offsets.length === docs.length + 1 && offsets[0] === 0 && offsets[docs.length] === keys.length;
  for (let i = 0; ok && i < docs.length; i++) ok = offsets[i]! <= offsets[i + 1]!;
  if (!ok) throw new StorageError('corrupt', 'saved passages');
  return { docs, offsets, keys };
}

/** The view the saved pairs were decided under: the similarity threshold, the grouping and the containment threshold. */
export type SavedView = Pick<VerifiedPairs, 'threshold' | 'grouping' | 'containment'>;

/**
 * The view a person last had (SavedView), whatever revision it was saved at: like the references, a
 * choice that outlives a write that left the saved pairs behind (a cancelled scan's batches). Null when
 * none was saved.
 */
export async function getSavedView(): Promise<SavedView | null> {
  const record = await readTransaction(['meta'], (tx) => tx.objectStore('meta').get('verified'));
  if (!record || record.key !== 'verified' || typeof record.threshold !== 'number' || typeof record.grouping !== 'string') return null;
  const containment = record.containment !== undefined && containmentValid(record.containment) ? { containment: record.containment } : {};
  return { threshold: record.threshold, grouping: record.grouping, ...containment };
}

/**
 * The references a person chose (stored ids), whatever revision they were saved at: a choice stays
 * until its document leaves the corpus (ids are never reused), even when a write came in between that
 * left the saved pairs behind (a cancelled scan's batches, say). Null when none were saved.
 */
export async function getSavedPins(): Promise<StorageIds | null> {
  const record = await readTransaction(['meta'], (tx) => tx.objectStore('meta').get('verified'));
  if (!record || record.key !== 'verified' || !(record.pinned instanceof ArrayBuffer) || record.pinned.byteLength % 4 !== 0) return null;
  return new Uint32Array(record.pinned) as StorageIds;
}
