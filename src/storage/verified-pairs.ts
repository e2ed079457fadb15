/**
 * The verified near-duplicate pairs of the saved corpus (one meta record), so a reload restores the
 * groups without reading files again; valid only for the corpus revision it was written at.
 */
import { readTransaction, writeTransaction } from './database.ts';
import type { VerifiedPairsRecord } from './schema.ts';
import { StorageError } from './storage-error.ts';

/** Verified pairs by stored document id (a < b), with their exact Jaccard and the threshold used. */
export interface VerifiedPairs {
  threshold: number;
  a: Uint32Array;
  b: Uint32Array;
  jaccard: Float32Array;
  count: number;
}

/**
 * Saves the pairs if the corpus is still at `revision` (returns false, writing nothing, when another
 * write came in between: the pairs would describe another corpus).
 */
export async function putVerifiedPairs(revision: number, pairs: VerifiedPairs): Promise<boolean> {
  if (pairs.a.length !== pairs.count || pairs.b.length !== pairs.count || pairs.jaccard.length !== pairs.count) {
    throw new StorageError('invalid-input', 'verified pair arrays of different lengths');
  }
  const record: VerifiedPairsRecord = {
    key: 'verified',
    revision,
    threshold: pairs.threshold,
    a: pairs.a.slice().buffer,
    b: pairs.b.slice().buffer,
    jaccard: pairs.jaccard.slice().buffer,
  };
  return writeTransaction(['meta'], async (tx) => {
    const store = tx.objectStore('meta');
    const meta = await store.get('corpus');
    if (!meta || meta.key !== 'corpus' || meta.revision !== revision) return false;
    await store.put(record);
    return true;
  });
}

/** The saved pairs when they belong to the current corpus revision, else null. */
export async function getVerifiedPairs(): Promise<VerifiedPairs | null> {
  const [record, meta] = await readTransaction(['meta'], (tx) =>
    Promise.all([tx.objectStore('meta').get('verified'), tx.objectStore('meta').get('corpus')]),
  );
  if (!record || !meta || meta.key !== 'corpus' || record.key !== 'verified' || record.revision !== meta.revision) return null;
  const ok =
    record.a instanceof ArrayBuffer &&
    record.b instanceof ArrayBuffer &&
    record.jaccard instanceof ArrayBuffer &&
    record.a.byteLength === record.b.byteLength &&
    record.a.byteLength === record.jaccard.byteLength &&
    typeof record.threshold === 'number';
  if (!ok) throw new StorageError('corrupt', 'verified pairs');
  const a = new Uint32Array(record.a);
  return { threshold: record.threshold, a, b: new Uint32Array(record.b), jaccard: new Float32Array(record.jaccard), count: a.length };
}
